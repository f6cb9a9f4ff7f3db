// Loading the data set a train trial names: the one entry point of the data component.
#pragma once

#include "data/data_split.h"
#include "spec/dataset_settings.h"

namespace harness {

// Tabular kinds: keeps only normal training rows when normal_only, and standardises both
// splits with statistics of the training rows. Series kinds: see make_windowed_split.
// Throws SettingError (a problem of one setting) or InputError (a bad file, named file:line).
DataSplit load_dataset(const DatasetSettings& dataset, bool normal_only);

// What validation needs without the cost (--dry-run): synthetic kinds are checked (settings,
// memory estimate) and described by their shape (features, window) but never generated; data
// files are read, as validating them needs. Throws like load_dataset.
DataSplit dataset_shape(const DatasetSettings& dataset, bool normal_only);

}  // namespace harness

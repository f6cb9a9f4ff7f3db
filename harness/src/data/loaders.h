// The data sources, one file each. File errors name file:line.
#pragma once

#include <string>

#include "data/data_split.h"
#include "data/series.h"
#include "spec/dataset_settings.h"

namespace harness {

// CSV with a header row and a 0/1 label column; every other column is a feature.
TabularData load_csv(const std::string& path, const std::string& label_column);
// FANN's text format (annthyroid).
TabularData load_fann(const std::string& path);
// LWSNDR single-hop CSV (reading,mote_id,indoor,humidity,temperature,label): one series per
// mote with humidity and temperature.
SeriesSet load_lwsndr(const std::string& path);
DataSplit make_synthetic_tabular(const DatasetSettings& dataset);
SeriesSet make_synthetic_series(const DatasetSettings& dataset);
// The generators' own setting checks (SettingError), without generating anything.
void check_synthetic_tabular(const DatasetSettings& dataset);
void check_synthetic_series(const DatasetSettings& dataset);

}  // namespace harness

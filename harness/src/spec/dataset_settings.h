// The "dataset" settings of a train trial, typed: the member initialisers are the defaults,
// dataset_settings.cpp declares each field's name, range and help.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/json.h"
#include "spec/settings_table.h"

namespace harness {

enum class DatasetKind { kSynthetic, kAnnthyroid, kCsv, kSyntheticSeries, kLwsndr };
// A window is anomalous if any / most / its last point is.
enum class WindowLabel { kAny, kMajority, kLast };

struct DatasetSettings {
  DatasetKind kind = DatasetKind::kSynthetic;
  std::size_t rows = 10000;
  std::size_t dim = 20;
  std::size_t latent_dim = 3;
  double contamination = 0.05;
  double noise = 0.05;
  double anomaly_scale = 0.3;
  std::uint64_t seed = 0;
  double test_fraction = 0.3;
  std::size_t length = 5000;
  std::size_t events = 30;
  std::size_t event_length = 20;
  std::size_t window = 32;
  std::size_t stride = 1;
  std::size_t test_stride = 1;
  WindowLabel window_label = WindowLabel::kAny;
  std::string path;
  std::string test_path;
  std::string label_column = "label";
  bool is_series() const {
    return kind == DatasetKind::kSyntheticSeries || kind == DatasetKind::kLwsndr;
  }
};

const char* dataset_kind_name(DatasetKind kind);

// The "dataset" fields (besides kind) that this data set reads; any other is ignored by it.
std::vector<std::string> dataset_fields_read(const DatasetSettings& dataset);

// The "dataset" object's rows, declared once.
const SettingsTable<DatasetSettings>& dataset_settings_table();

// The settings as canonical JSON: equal identities load the same data (the data cache key).
std::string dataset_identity(const DatasetSettings& dataset);

}  // namespace harness

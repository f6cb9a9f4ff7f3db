#include "spec/dataset_settings.h"

#include <stdexcept>

namespace harness {
namespace {

constexpr DatasetKind kDatasetKinds[] = {DatasetKind::kSynthetic, DatasetKind::kAnnthyroid,
                                         DatasetKind::kCsv, DatasetKind::kSyntheticSeries,
                                         DatasetKind::kLwsndr};

DatasetKind parse_kind(const std::string& name) {
  for (DatasetKind kind : kDatasetKinds)
    if (name == dataset_kind_name(kind)) return kind;
  throw std::invalid_argument("unknown data set kind \"" + name + "\"");  // the schema forbids it
}

WindowLabel parse_window_label(const std::string& name) {
  if (name == "majority") return WindowLabel::kMajority;
  if (name == "last") return WindowLabel::kLast;
  return WindowLabel::kAny;
}

}  // namespace

const char* dataset_kind_name(DatasetKind kind) {
  switch (kind) {
    case DatasetKind::kSynthetic: return "synthetic";
    case DatasetKind::kAnnthyroid: return "annthyroid";
    case DatasetKind::kCsv: return "csv";
    case DatasetKind::kSyntheticSeries: return "synthetic_series";
    case DatasetKind::kLwsndr: return "lwsndr";
  }
  return "?";
}

std::vector<std::string> dataset_fields_read(const DatasetSettings& dataset) {
  switch (dataset.kind) {
    case DatasetKind::kSynthetic:
      return {"rows",  "dim",           "latent_dim", "contamination",
              "noise", "anomaly_scale", "seed",       "test_fraction"};
    case DatasetKind::kAnnthyroid: return {"path"};  // its own train and test files
    case DatasetKind::kCsv:
      // A separate test file replaces the random split (test_fraction and its seed).
      if (!dataset.test_path.empty()) return {"path", "test_path", "label_column"};
      return {"path", "test_path", "label_column", "test_fraction", "seed"};
    case DatasetKind::kSyntheticSeries:
      return {"length", "dim",    "events",      "event_length", "noise",        "seed",
              "window", "stride", "test_stride", "window_label", "test_fraction"};
    case DatasetKind::kLwsndr:
      return {"path", "window", "stride", "test_stride", "window_label", "test_fraction"};
  }
  return {};
}

DatasetSettings parse_dataset_settings(const Json& dataset) {
  DatasetSettings d;
  d.kind = parse_kind(dataset.at("kind").get<std::string>());
  d.rows = dataset.at("rows").get<std::size_t>();
  d.dim = dataset.at("dim").get<std::size_t>();
  d.latent_dim = dataset.at("latent_dim").get<std::size_t>();
  d.contamination = dataset.at("contamination").get<double>();
  d.noise = dataset.at("noise").get<double>();
  d.anomaly_scale = dataset.at("anomaly_scale").get<double>();
  d.seed = dataset.at("seed").get<std::uint64_t>();
  d.test_fraction = dataset.at("test_fraction").get<double>();
  d.length = dataset.at("length").get<std::size_t>();
  d.events = dataset.at("events").get<std::size_t>();
  d.event_length = dataset.at("event_length").get<std::size_t>();
  d.window = dataset.at("window").get<std::size_t>();
  d.stride = dataset.at("stride").get<std::size_t>();
  d.test_stride = dataset.at("test_stride").get<std::size_t>();
  d.window_label = parse_window_label(dataset.at("window_label").get<std::string>());
  d.path = dataset.at("path").get<std::string>();
  d.test_path = dataset.at("test_path").get<std::string>();
  d.label_column = dataset.at("label_column").get<std::string>();
  d.identity = nlohmann::json::parse(dataset.dump()).dump();  // sorted keys
  return d;
}

}  // namespace harness

#include "spec/dataset_settings.h"

namespace harness {
namespace {

const EnumChoice<DatasetKind> kDatasetKinds[] = {
    {"synthetic", DatasetKind::kSynthetic},
    {"annthyroid", DatasetKind::kAnnthyroid},
    {"csv", DatasetKind::kCsv},
    {"synthetic_series", DatasetKind::kSyntheticSeries},
    {"lwsndr", DatasetKind::kLwsndr}};
const EnumChoice<WindowLabel> kWindowLabels[] = {
    {"any", WindowLabel::kAny}, {"majority", WindowLabel::kMajority}, {"last", WindowLabel::kLast}};

}  // namespace

const SettingsTable<DatasetSettings>& dataset_settings_table() {
  using S = DatasetSettings;
  static const auto table =
      SettingsTable<S>()
          .add_choice("kind", &S::kind, kDatasetKinds,
                      "tabular: synthetic, annthyroid, csv; windowed series: synthetic_series, "
                      "lwsndr")
          .add("rows", &S::rows, "synthetic: rows in all", {10, 1e8})
          .add("dim", &S::dim,
               "synthetic: features per row; synthetic_series: features per time step", {2, 100000})
          .add("latent_dim", &S::latent_dim,
               "synthetic: dimension of the manifold normal rows live on (< dim)", {1, 100000})
          .add("contamination", &S::contamination, "synthetic: fraction of anomalous rows",
               {0, 0.5})
          .add("noise", &S::noise,
               "synthetic: standard deviation of the noise added to normal rows", {0, 10})
          .add("anomaly_scale", &S::anomaly_scale,
               "synthetic: standard deviation of the off-manifold displacement of anomalous rows",
               {0, 100})
          .add("seed", &S::seed, "synthetic: data seed (fixed across repetitions unless swept)",
               {0, 9.2e18})
          .add("test_fraction", &S::test_fraction,
               "synthetic and csv without test_path: share of rows held out for evaluation; "
               "series: the last part of each series",
               {0, 1, true})
          .add("length", &S::length, "synthetic_series: time steps", {16, 1e9})
          .add("events", &S::events,
               "synthetic_series: injected anomaly events (spikes, level shifts, variance "
               "bursts)",
               {0, 1e7})
          .add("event_length", &S::event_length,
               "synthetic_series: points in a level shift or variance burst", {1, 1e6})
          .add("window", &S::window, "series: window length", {2, 100000})
          .add("stride", &S::stride, "series: step between training windows", {1, 100000})
          .add("test_stride", &S::test_stride,
               "series: step between test windows (1 scores every point)", {1, 100000})
          .add_choice("window_label", &S::window_label, kWindowLabels,
                      "series: a window is anomalous if any / most / its last point is")
          .add("path", &S::path,
               "csv: the file; annthyroid: the folder holding thyroid.train and thyroid.test "
               "(default: Debian libfann-doc's); lwsndr: data.csv (default: the copy in the "
               "repository, data/lwsndr/data.csv)")
          .add("test_path", &S::test_path, "csv: optional separate labelled test file")
          .add("label_column", &S::label_column,
               "csv: the column holding 0 (normal) or 1 (anomaly); all other columns are "
               "features");
  return table;
}

const char* dataset_kind_name(DatasetKind kind) { return choice_word(kind, kDatasetKinds); }

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

std::string dataset_identity(const DatasetSettings& dataset) {
  return dataset_settings_table().to_json(dataset).dump();  // the rows' fixed order
}

}  // namespace harness

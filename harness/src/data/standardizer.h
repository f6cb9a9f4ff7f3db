// Feature standardisation, fitted on training data only: (v - mean) / sd per column, with
// the two-pass variance (no cancellation); constant columns keep scale 1.
#pragma once

#include <cstddef>
#include <vector>

namespace harness {

class Standardizer {
 public:
  // Statistics of row-major `values` with `cols` values per row.
  static Standardizer fit(const std::vector<float>& values, std::size_t cols);

  // Standardises row-major values with the fitted columns, in place.
  void apply(std::vector<float>* values) const;

  const std::vector<double>& mean() const { return mean_; }
  const std::vector<double>& scale() const { return scale_; }  // 1 / sd

 private:
  std::vector<double> mean_;
  std::vector<double> scale_;
};

}  // namespace harness

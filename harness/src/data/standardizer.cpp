#include "data/standardizer.h"

#include <algorithm>
#include <cmath>

namespace harness {

Standardizer Standardizer::fit(const std::vector<float>& values, std::size_t cols) {
  const std::size_t rows = cols ? values.size() / cols : 0;
  const double n = static_cast<double>(std::max<std::size_t>(rows, 1));
  Standardizer s;
  s.mean_.assign(cols, 0.0);
  std::vector<double> squares(cols, 0.0);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) s.mean_[c] += values[r * cols + c];
  for (auto& m : s.mean_) m /= n;
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) {
      const double d = values[r * cols + c] - s.mean_[c];
      squares[c] += d * d;
    }
  s.scale_.resize(cols);
  for (std::size_t c = 0; c < cols; ++c) {
    const double sd = std::sqrt(squares[c] / n);
    s.scale_[c] = sd > 1e-12 ? 1.0 / sd : 1.0;
  }
  return s;
}

void Standardizer::apply(std::vector<float>* values) const {
  const std::size_t cols = mean_.size();
  for (std::size_t i = 0; i < values->size(); ++i) {
    float& v = (*values)[i];
    v = static_cast<float>((v - mean_[i % cols]) * scale_[i % cols]);
  }
}

}  // namespace harness

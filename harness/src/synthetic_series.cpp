// Synthetic multivariate series: each feature is a sum of two sinusoids (periods and phases
// drawn per feature) plus noise, with injected anomaly events of three kinds, in equal shares:
// spikes (one point far out), level shifts (a segment offset by a few standard deviations)
// and variance bursts (a segment with several times the noise).
#include <cmath>

#include "random.h"
#include "series_data.h"

namespace harness {

SeriesSet make_synthetic_series(const Json& dataset) {
  const auto length = dataset.at("length").get<std::size_t>();
  const auto features = dataset.at("dim").get<std::size_t>();
  const auto events = dataset.at("events").get<std::size_t>();
  const auto event_length = dataset.at("event_length").get<std::size_t>();
  const double noise = dataset.at("noise").get<double>();
  SplitMix64 rng(dataset.at("seed").get<std::uint64_t>());

  Series s;
  s.features = features;
  s.values.resize(length * features);
  s.labels.assign(length, 0);
  std::vector<double> period1(features), period2(features), phase(features);
  for (std::size_t f = 0; f < features; ++f) {
    period1[f] = 20 + 80 * rng.uniform();
    period2[f] = 5 + 15 * rng.uniform();
    phase[f] = 6.283185307179586 * rng.uniform();
  }
  for (std::size_t t = 0; t < length; ++t)
    for (std::size_t f = 0; f < features; ++f)
      s.values[t * features + f] = static_cast<float>(
          std::sin(6.283185307179586 * t / period1[f] + phase[f]) +
          0.4 * std::sin(6.283185307179586 * t / period2[f]) + noise * rng.normal());

  for (std::size_t e = 0; e < events; ++e) {
    const std::size_t start = rng.below(length - event_length);
    const std::size_t feature = rng.below(features);
    const int type = static_cast<int>(e % 3);
    const std::size_t span = type == 0 ? 1 : event_length;
    const double sign = rng.uniform() < 0.5 ? -1.0 : 1.0;
    for (std::size_t t = start; t < start + span; ++t) {
      float& v = s.values[t * features + feature];
      if (type == 0) v += static_cast<float>(sign * (4.0 + 2.0 * rng.uniform()));  // spike
      if (type == 1) v += static_cast<float>(sign * 1.5);                          // level shift
      if (type == 2) v += static_cast<float>(5.0 * noise * rng.normal() + 0.5 * rng.normal());  // burst
      s.labels[t] = 1;
    }
  }
  SeriesSet set;
  set.series.push_back(std::move(s));
  set.description = "synthetic series " + std::to_string(length) + "x" + std::to_string(features);
  return set;
}

}  // namespace harness

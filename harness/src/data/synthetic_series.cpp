// Synthetic multivariate series: each feature is a sum of two sinusoids (periods and phases
// drawn per feature) plus noise, with injected anomaly events of three kinds, in equal shares:
// spikes (one point far out), level shifts (a segment offset by a few standard deviations)
// and variance bursts (a segment with several times the noise).
#include <cmath>

#include "common/input_error.h"
#include "common/random.h"
#include "data/loaders.h"

namespace harness {

void check_synthetic_series(const DatasetSettings& dataset) {
  // An event must fit in the series: its start is drawn from [0, length - event_length].
  if (dataset.event_length > dataset.length)
    throw SettingError("dataset.event_length", "expected at most dataset.length (" +
                                                   std::to_string(dataset.length) + "), got " +
                                                   std::to_string(dataset.event_length));
}

SeriesSet make_synthetic_series(const DatasetSettings& dataset) {
  const std::size_t length = dataset.length, features = dataset.dim;
  const std::size_t events = dataset.events, event_length = dataset.event_length;
  const double noise = dataset.noise;
  check_synthetic_series(dataset);
  SplitMix64 rng(dataset.seed);

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
      if (type == 2)
        v += static_cast<float>(5.0 * noise * rng.normal() + 0.5 * rng.normal());  // burst
      s.labels[t] = 1;
    }
  }
  SeriesSet set;
  set.series.push_back(std::move(s));
  set.description = "synthetic series " + std::to_string(length) + "x" + std::to_string(features);
  return set;
}

}  // namespace harness

// How a sweep point's repetitions become its one figure, with the band that says how sure it
// is. Two estimators:
// - median: the median over repetitions and its distribution-free 95% interval; answers "how
//   fast is a typical moment of this machine".
// - k_best: the fastest repetition, once the K fastest agree (Bryant & O'Hallaron's K-best
//   scheme; Chen & Revels 2016 on why the fastest is the robust estimate where noise only ever
//   adds time). The band runs from the K-th fastest to the fastest. On a shared VM whose slow
//   spells take a varying share of a run, the median follows that share and two runs disagree;
//   the K fastest measure the machine at full speed in every run that had K quiet repetitions.
// Figures that are not speeds (AUROC, loss) always take the median.
#pragma once

#include <string>
#include <vector>

namespace harness {

enum class EstimatorKind { kMedian, kKBest };

struct Estimator {
  EstimatorKind kind = EstimatorKind::kMedian;
  int k = 3;  // k_best: how many of the fastest repetitions must agree
};

// "median" or "k_best".
std::string estimator_name(EstimatorKind kind);

// Whether a larger value of the figure is faster (samples/s, busbw) or slower (time), or the
// figure says nothing about speed (AUROC, loss).
enum class Direction { kHigherIsFaster, kLowerIsFaster, kNotASpeed };

struct PointEstimate {
  double value = 0;
  double low = 0;  // the band around value: the 95% interval (median) or K-th fastest (k_best)
  double high = 0;
  double width = 0;  // how far the band reaches from value, relative to it; infinite for a
                     // k_best figure with fewer than K values (not yet settled)
};

// Throws std::invalid_argument for no values.
PointEstimate estimate_point(const std::vector<double>& values, const Estimator& estimator,
                             Direction direction);

}  // namespace harness

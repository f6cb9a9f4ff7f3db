#include "measurement/step_timing.h"

#include <algorithm>
#include <optional>
#include <vector>

#include "measurement/arrival_skew.h"
#include "metrics/statistics.h"
#include "mpi/max_over_ranks.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

// One rank's medians; plain doubles so that one MPI_Gather of kFields doubles carries them.
struct RankMedians {
  double total_s = 0;
  double compute_s = 0;
  double exposed_comm_s = 0;
  double comm_s = 0;
  double optimizer_s = 0;
};
constexpr int kFields = 5;
static_assert(sizeof(RankMedians) == kFields * sizeof(double), "RankMedians must be plain doubles");

double median_or_zero(const std::vector<double>& values) {
  return values.empty() ? 0.0 : percentile(values, 50);
}

std::vector<RankMedians> gather_medians(const StepSamples& samples, const TrialContext& context) {
  const int size = context.size;
  const RankMedians mine{median_or_zero(samples.total_s), median_or_zero(samples.compute_s),
                         median_or_zero(samples.exposed_comm_s), median_or_zero(samples.comm_s),
                         median_or_zero(samples.optimizer_s)};
  std::vector<RankMedians> all(static_cast<std::size_t>(size));
  WatchedOperation watched(context.watchdog, "gathering step times", 0, size);
  check_mpi(
      MPI_Gather(&mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, context.comm),
      "MPI_Gather");
  return all;
}

// 1 - exposed / total communication time: the share of the allreduces hidden behind backward.
// The exposed time includes unpacking (and, without overlap, packing), so a step that
// overlaps nothing reads 0 rather than slightly below.
std::optional<double> overlap_fraction(const RankMedians& mean) {
  if (mean.comm_s <= 0) return std::nullopt;
  return std::clamp(1.0 - mean.exposed_comm_s / mean.comm_s, 0.0, 1.0);
}

// Rank 0: the record's timing from the slowest-rank sample and every rank's medians.
StepTimingRecord describe(const SampleSummary& step, const std::vector<RankMedians>& ranks,
                          const StepSamples& samples, double wall_seconds,
                          const NoiseLimits& limits) {
  const double global_batch = static_cast<double>(samples.samples_per_step * ranks.size());
  const double steps = static_cast<double>(samples.steps());
  ThroughputRecord throughput;
  throughput.samples_per_s = global_batch / step.median;
  throughput.ci95_low = global_batch / step.median_ci.high;
  throughput.ci95_high = global_batch / step.median_ci.low;
  throughput.samples_per_s_wall = global_batch * steps / wall_seconds;
  StepTimesRecord times;
  RankMedians mean;
  const double n = static_cast<double>(ranks.size());
  for (const RankMedians& r : ranks) {
    throughput.samples_per_s_per_rank.push_back(
        r.total_s > 0 ? static_cast<double>(samples.samples_per_step) / r.total_s : 0.0);
    times.per_rank_median.push_back(r.total_s * 1e3);
    mean.compute_s += r.compute_s / n;
    mean.exposed_comm_s += r.exposed_comm_s / n;
    mean.comm_s += r.comm_s / n;
    mean.optimizer_s += r.optimizer_s / n;
  }
  times.compute = mean.compute_s * 1e3;
  times.exposed_comm = mean.exposed_comm_s * 1e3;
  times.comm = mean.comm_s * 1e3;
  times.optimizer = mean.optimizer_s * 1e3;
  times.mean = step.mean * 1e3;
  times.p50 = step.median * 1e3;
  times.p90 = step.p90 * 1e3;
  times.p99 = step.p99 * 1e3;
  times.ci95_low = step.median_ci.low * 1e3;
  times.ci95_high = step.median_ci.high * 1e3;
  times.ci95_coverage = step.median_ci.coverage;
  times.cv = step.cv;
  StepTimingRecord timing;
  timing.steps = static_cast<long long>(samples.steps());
  timing.seconds = wall_seconds;
  timing.throughput = throughput;
  timing.step_time_ms = times;
  timing.overlap_fraction = overlap_fraction(mean);
  timing.noise_cv_threshold = limits.noise_cv_threshold;
  return timing;
}

// Steps slower than factor x the median step: a stall that ended, not a measurement.
std::size_t count_slow(const std::vector<double>& seconds, double factor) {
  if (seconds.empty()) return 0;
  const double limit = factor * percentile(seconds, 50);
  return static_cast<std::size_t>(
      std::count_if(seconds.begin(), seconds.end(), [&](double s) { return s > limit; }));
}

}  // namespace

StepTimingRecord summarise_step_timing(const StepSamples& samples,
                                       const std::vector<double>& training_steps,
                                       const NoiseLimits& limits, const TrialContext& context) {
  const bool leader = context.rank == 0;
  if (samples.steps() == 0) return {};
  const MPI_Comm comm = context.comm;
  Watchdog* watchdog = context.watchdog;
  const auto slowest = max_over_ranks(samples.total_s, comm, watchdog);
  const auto ranks = gather_medians(samples, context);
  const double wall = max_over_ranks(samples.wall_seconds, comm, watchdog);
  const double slow_training = max_over_ranks(
      static_cast<double>(count_slow(training_steps, limits.slow_step_factor)), comm, watchdog);
  std::optional<StragglersRecord> stragglers =
      summarise_arrivals(samples.arrival_ns, comm, watchdog);
  if (!leader) return {};
  StepTimingRecord timing = describe(summarise(slowest), ranks, samples, wall, limits);
  timing.slow_steps = SlowStepsRecord{count_slow(slowest, limits.slow_step_factor),
                                      static_cast<std::size_t>(slow_training)};
  timing.stragglers = std::move(stragglers);
  return timing;
}

}  // namespace harness

#include "train/step_timing.h"

#include <algorithm>
#include <vector>

#include "metrics/statistics.h"
#include "mpi/max_over_ranks.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"
#include "train/arrival_skew.h"

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

Json without_steps() {
  return {{"throughput",
           {{"samples_per_s", nullptr},
            {"samples_per_s_ci95", nullptr},
            {"samples_per_s_wall", nullptr},
            {"samples_per_s_per_rank", Json::array()}}},
          {"step_time_ms", Json::object()},
          {"timing", {{"steps", 0}, {"seconds", 0}}},
          {"exposed_comm_ms", nullptr},
          {"overlap_fraction", nullptr},
          {"noisy", false}};
}

// 1 - exposed / total communication time: the share of the allreduces hidden behind backward.
// The exposed time includes unpacking (and, without overlap, packing), so a step that
// overlaps nothing reads 0 rather than slightly below.
Json overlap_fraction(const RankMedians& mean) {
  if (mean.comm_s <= 0) return nullptr;
  return std::clamp(1.0 - mean.exposed_comm_s / mean.comm_s, 0.0, 1.0);
}

// Rank 0: the record's fields from the slowest-rank sample and every rank's medians.
Json describe(const SampleSummary& step, const std::vector<RankMedians>& ranks,
              const StepSamples& samples, double wall_seconds, const TrainSettings& settings) {
  const double global_batch = static_cast<double>(samples.samples_per_step * ranks.size());
  Json per_rank_rate = Json::array(), per_rank_ms = Json::array();
  RankMedians mean;
  const double n = static_cast<double>(ranks.size());
  for (const RankMedians& r : ranks) {
    per_rank_rate.push_back(
        r.total_s > 0 ? static_cast<double>(samples.samples_per_step) / r.total_s : 0.0);
    per_rank_ms.push_back(r.total_s * 1e3);
    mean.compute_s += r.compute_s / n;
    mean.exposed_comm_s += r.exposed_comm_s / n;
    mean.comm_s += r.comm_s / n;
    mean.optimizer_s += r.optimizer_s / n;
  }
  const double steps = static_cast<double>(samples.steps());
  return {{"throughput",
           {{"samples_per_s", global_batch / step.median},
            {"samples_per_s_ci95",
             {global_batch / step.median_ci.high, global_batch / step.median_ci.low}},
            {"samples_per_s_wall", global_batch * steps / wall_seconds},
            {"samples_per_s_per_rank", per_rank_rate}}},
          {"step_time_ms",
           {{"total", step.median * 1e3},
            {"compute", mean.compute_s * 1e3},
            {"exposed_comm", mean.exposed_comm_s * 1e3},
            {"comm", mean.comm_s * 1e3},
            {"optimizer", mean.optimizer_s * 1e3},
            {"mean", step.mean * 1e3},
            {"p50", step.median * 1e3},
            {"p90", step.p90 * 1e3},
            {"p99", step.p99 * 1e3},
            {"ci95", {step.median_ci.low * 1e3, step.median_ci.high * 1e3}},
            {"ci95_coverage", step.median_ci.coverage},
            {"cv", step.cv},
            {"per_rank_median", per_rank_ms}}},
          {"timing",
           {{"steps", samples.steps()},
            {"seconds", wall_seconds},
            {"min_time_s", settings.min_time_s}}},
          {"exposed_comm_ms", mean.exposed_comm_s * 1e3},
          {"overlap_fraction", overlap_fraction(mean)},
          {"noisy", step.cv > settings.noise_cv_threshold}};
}

// Steps slower than factor x the median step: a stall that ended, not a measurement.
std::size_t count_slow(const std::vector<double>& seconds, double factor) {
  if (seconds.empty()) return 0;
  const double limit = factor * percentile(seconds, 50);
  return static_cast<std::size_t>(
      std::count_if(seconds.begin(), seconds.end(), [&](double s) { return s > limit; }));
}

}  // namespace

Json summarise_step_timing(const StepSamples& samples, const std::vector<double>& training_steps,
                           const TrainSettings& settings, const TrialContext& context) {
  const bool leader = context.rank == 0;
  if (samples.steps() == 0) return leader ? without_steps() : Json::object();
  const MPI_Comm comm = context.comm;
  Watchdog* watchdog = context.watchdog;
  const auto slowest = max_over_ranks(samples.total_s, comm, watchdog);
  const auto ranks = gather_medians(samples, context);
  const double wall = max_over_ranks(samples.wall_seconds, comm, watchdog);
  const double slow_training = max_over_ranks(
      static_cast<double>(count_slow(training_steps, settings.slow_step_factor)), comm, watchdog);
  const Json stragglers = summarise_arrivals(samples.arrival_ns, comm, watchdog);
  if (!leader) return Json::object();
  Json result = describe(summarise(slowest), ranks, samples, wall, settings);
  const std::size_t slow_timing = count_slow(slowest, settings.slow_step_factor);
  result["slow_steps"] = {{"timing", slow_timing},
                          {"training", static_cast<std::size_t>(slow_training)},
                          {"factor", settings.slow_step_factor}};
  if (slow_timing > 0 || slow_training > 0) result["noisy"] = true;
  result["stragglers"] = stragglers;
  return result;
}

}  // namespace harness

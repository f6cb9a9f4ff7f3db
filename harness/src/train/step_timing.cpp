#include "train/step_timing.h"

#include <vector>

#include "mpi/mpi_check.h"

namespace harness {
namespace {

// One rank's timing; plain doubles so that one MPI_Gather of kFields doubles carries it.
struct RankTiming {
  double samples_per_s = 0;
  double compute_ms = 0;  // per timed step
  double allreduce_ms = 0;
  double optimizer_ms = 0;
  double total_ms = 0;
};
constexpr int kFields = 5;
static_assert(sizeof(RankTiming) == kFields * sizeof(double), "RankTiming must be plain doubles");

RankTiming rank_timing(const TrainOutcome& outcome) {
  const PhaseTimes& p = outcome.phases;
  const double per_step = outcome.timed_steps ? 1e3 / static_cast<double>(outcome.timed_steps) : 0;
  RankTiming t;
  t.samples_per_s = p.total_s() > 0 ? static_cast<double>(outcome.timed_samples) / p.total_s() : 0;
  t.compute_ms = p.compute_s * per_step;
  t.allreduce_ms = p.allreduce_s * per_step;
  t.optimizer_ms = p.optimizer_s * per_step;
  t.total_ms = p.total_s() * per_step;
  return t;
}

Json summarise(const std::vector<RankTiming>& ranks, bool timed) {
  Json per_rank = Json::array();
  double total_rate = 0;
  RankTiming mean;
  const double n = static_cast<double>(ranks.size());
  for (const RankTiming& r : ranks) {
    per_rank.push_back(r.samples_per_s);
    total_rate += r.samples_per_s;
    mean.compute_ms += r.compute_ms / n;
    mean.allreduce_ms += r.allreduce_ms / n;
    mean.optimizer_ms += r.optimizer_ms / n;
    mean.total_ms += r.total_ms / n;
  }
  return {{"throughput",
           {{"samples_per_s", timed ? Json(total_rate) : Json()},
            {"samples_per_s_per_rank", per_rank}}},
          {"step_time_ms",
           {{"total", mean.total_ms},
            {"compute", mean.compute_ms},
            {"allreduce", mean.allreduce_ms},
            {"optimizer", mean.optimizer_ms}}}};
}

}  // namespace

Json gather_step_timing(const TrainOutcome& outcome, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const RankTiming mine = rank_timing(outcome);
  std::vector<RankTiming> all(static_cast<std::size_t>(size));
  check_mpi(MPI_Gather(&mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, comm),
            "MPI_Gather");
  return rank == 0 ? summarise(all, outcome.timed_steps > 0) : Json::object();
}

}  // namespace harness

#include "collective/collective_trial.h"

#include <torch/torch.h>

#include <chrono>

#include "collective/collective_memory.h"
#include "collective/memcpy_bound.h"
#include "collective/point_measurement.h"
#include "common/available_memory.h"
#include "record/record_json.h"
#include "record/record_verdicts.h"
#include "record/trial_record.h"
#include "trial/backend_join.h"

namespace harness {

namespace {

// Each size's elements in total; a size that splits into no whole element per rank, or into
// the same message as the size before it, is not measured again.
std::vector<std::int64_t> message_counts(const CollectiveSettings& settings, const CollectiveOp& op,
                                         int ranks) {
  std::vector<std::int64_t> counts;
  for (const std::uint64_t bytes : settings.message_bytes) {
    const std::int64_t count = message_count(op, bytes, plugin::dtype_size(settings.dtype), ranks);
    if (count > 0 && (counts.empty() || counts.back() != count)) counts.push_back(count);
  }
  return counts;
}

}  // namespace

TrialResult run_collective_trial(const CollectiveSettings& settings, const Trial& trial,
                                 const TrialContext& context) {
  const auto started = std::chrono::steady_clock::now();
  CollectiveRecord record;
  record.identity = trial_identity(trial, context.size);
  const auto finish = [&](TrialStatus status, const std::string& reason) {
    record.end = trial_end(status, reason, started);
    settle_verdict(record, context.oversubscribed);
    return record;
  };
  const JoinedBackend backend = join_backend(context, settings.backend, settings.backend_params,
                                             settings.dtype, torch::cuda::is_available());
  if (backend.problem.any()) return finish(backend.problem.status, backend.problem.reason);
  record.backend = describe_backend(backend);
  // What every rank of this host holds for the largest message (its buffers and the check's;
  // collective_memory.h, measured per backend and collective); the group counts as on one
  // host, the worst case. Buffers on a GPU take none of it. Ranks read their own host's
  // memory, so they agree before anyone leaves.
  const std::uint64_t largest = settings.message_bytes.empty() ? 0 : settings.message_bytes.back();
  const std::uint64_t per_rank =
      backend.on_cuda ? 0
                      : collective_rank_bytes(settings.backend, settings.collective,
                                              settings.dtype, largest);
  GroupProblem too_big;
  if (const std::string shortfall =
          memory_shortfall(per_rank * static_cast<std::uint64_t>(context.size));
      !shortfall.empty())
    too_big = {TrialStatus::kFailed,
               std::string(plugin::collective_name(settings.collective)) + " messages of " +
                   std::to_string(largest) + " bytes through " + settings.backend + " on " +
                   std::to_string(context.size) + " ranks (about " +
                   gigabytes(static_cast<double>(per_rank)) + " each) " + shortfall +
                   "; lower max_bytes (or sizes)"};
  // Sizes below one element per rank are left out; validation refuses a trial left with none,
  // and an ok record without a measured point must never be written.
  const std::vector<std::int64_t> counts =
      message_counts(settings, collective_op(settings.collective), context.size);
  if (counts.empty() && !too_big.any())
    too_big = {TrialStatus::kFailed,
               "no message size holds one element per rank for " +
                   std::string(plugin::collective_name(settings.collective)) + " at " +
                   std::to_string(context.size) + " ranks: nothing was measured"};
  if (const GroupProblem agreed = agree_on_problem(context.comm, too_big, context.watchdog);
      agreed.any())
    return finish(agreed.status, agreed.reason);
  try {
    QuietGate gate(settings.quiet, context.comm, context.watchdog);
    ReductionMemory memory(backend.communicator);
    BackendFault fault(context.watchdog);
    const PointBenchmark benchmark{collective_op(settings.collective),
                                   settings,
                                   plugin::torch_element_type(settings.dtype),
                                   *backend.communicator,
                                   backend.on_cuda,
                                   context,
                                   gate,
                                   memory,
                                   fault};
    const bool bounded = largest >= kMemcpyBoundBytes;
    const double memcpy_before = bounded ? group_memcpy_gbps(context) : 0.0;
    std::vector<CollectivePoint> points;
    long long wrong = 0;
    for (const std::int64_t count : counts) {
      points.push_back(measure_point(benchmark, count));
      wrong += points.back().wrong.value_or(0);
    }
    if (bounded)
      record.memcpy = MemcpyBoundRecord{static_cast<long long>(kMemcpyBoundBytes), memcpy_before,
                                        group_memcpy_gbps(context)};
    record.points = std::move(points);
    record.backend->memory = memory.describe();
    record.machine_speed = gate.summary();
    if (wrong) return finish(TrialStatus::kFailed, std::to_string(wrong) + " wrong elements");
    return finish(TrialStatus::kOk, "");
  } catch (const std::exception& e) {
    return finish(TrialStatus::kFailed, e.what());
  }
}

}  // namespace harness

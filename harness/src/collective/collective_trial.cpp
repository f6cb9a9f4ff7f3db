#include "collective/collective_trial.h"

#include <torch/torch.h>

#include <chrono>

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
  // The largest message's buffers (data, its pristine copy, the expected result) on every rank
  // of this host; the group counts as on one host, the worst case. Ranks read their own host's
  // memory, so they agree before anyone leaves.
  const std::uint64_t largest = settings.message_bytes.empty() ? 0 : settings.message_bytes.back();
  GroupProblem too_big;
  if (const std::string shortfall =
          memory_shortfall(3 * largest * static_cast<std::uint64_t>(context.size));
      !shortfall.empty())
    too_big = {TrialStatus::kFailed, "messages of " + std::to_string(largest) + " bytes on " +
                                         std::to_string(context.size) + " ranks " + shortfall};
  if (const GroupProblem agreed = agree_on_problem(context.comm, too_big, context.watchdog);
      agreed.any())
    return finish(agreed.status, agreed.reason);
  try {
    QuietGate gate(settings.quiet, context.comm, context.watchdog);
    ReductionMemory memory(backend.communicator);
    const PointBenchmark benchmark{collective_op(settings.collective),
                                   settings,
                                   element_type(settings.dtype),
                                   *backend.communicator,
                                   backend.on_cuda,
                                   context,
                                   gate,
                                   memory};
    const bool bounded = largest >= kMemcpyBoundBytes;
    const double memcpy_before = bounded ? group_memcpy_gbps(context) : 0.0;
    std::vector<CollectivePoint> points;
    long long wrong = 0;
    for (const std::int64_t count : message_counts(settings, benchmark.op, context.size)) {
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

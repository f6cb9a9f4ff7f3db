#include "collective/collective_trial.h"

#include <torch/torch.h>

#include <chrono>

#include "collective/point_measurement.h"
#include "common/available_memory.h"
#include "record/trial_record.h"
#include "trial/backend_join.h"

namespace harness {

Json run_collective_trial(const CollectiveSettings& settings, const Trial& trial,
                          const TrialContext& context) {
  const auto started = std::chrono::steady_clock::now();
  Json record = new_trial_record(trial, context.size);
  const JoinedBackend backend = join_backend(context, settings.backend, settings.backend_params,
                                             settings.dtype, torch::cuda::is_available());
  if (backend.problem.any())
    return finish_record(record, backend.problem.status, backend.problem.reason, started);
  record["backend"] = describe_backend(backend);
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
    return finish_record(record, agreed.status, agreed.reason, started);
  try {
    QuietGate gate(settings.quiet, context.comm, context.watchdog);
    ReductionMemory memory(backend.communicator);
    const PointBenchmark benchmark{collective_op("allreduce"),
                                   settings,
                                   element_type(settings.dtype),
                                   *backend.communicator,
                                   backend.on_cuda,
                                   context,
                                   gate,
                                   memory};
    Json points = Json::array();
    long long wrong = 0;
    bool noisy = false;
    for (const std::uint64_t bytes : settings.message_bytes) {
      const CollectivePoint point = measure_point(benchmark, bytes);
      wrong += point.wrong.value_or(0);
      noisy = noisy || point.noisy;
      points.push_back(to_json(point));
    }
    record["points"] = points;
    record["backend"]["memory"] = memory.describe();
    record["noisy"] = noisy;
    record["machine_speed"] = gate.summary();
    if (wrong)
      return finish_record(record, TrialStatus::kFailed, std::to_string(wrong) + " wrong elements",
                           started);
    return finish_record(record, TrialStatus::kOk, "", started);
  } catch (const std::exception& e) {
    return finish_record(record, TrialStatus::kFailed, e.what(), started);
  }
}

}  // namespace harness

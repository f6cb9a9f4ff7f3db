#include "replay/replay_validation.h"

#include <optional>
#include <set>

#include "common/human_units.h"
#include "replay/captured_job.h"
#include "trial/composed_backend.h"
#include "trial/plugin_validation.h"

namespace harness {
namespace {

// The job, or nothing after saying why (once per file: a sweep names it in every trial).
std::optional<CapturedJob> read_or_report(const ReplaySettings& settings,
                                          ValidationContext& context) {
  if (settings.job.empty()) {
    context.add("job", "is empty: give the job.json a tuning captured (scripts/tune -- <your "
                       "launch command> writes one into its results folder)");
    return std::nullopt;
  }
  try {
    return read_captured_job(settings.job);
  } catch (const std::exception& e) {
    if (context.first_time("replay job " + settings.job)) context.add("job", e.what());
    return std::nullopt;
  }
}

void check_world_size(const ReplaySettings& settings, const CapturedJob& job,
                      ValidationContext& context) {
  if (job.world_size == settings.world_size) return;
  context.add("world_size", std::to_string(settings.world_size) + " differs from the world size " +
                                std::to_string(job.world_size) + " " + settings.job +
                                " was captured at: a job replays at its own world size");
}

// Every replayed step is held to the experiment's timeout_s, as a training step is.
void check_step_length(const ReplaySettings& settings, const CapturedJob& job,
                       ValidationContext& context) {
  const JobTimeline timeline = median_timeline(job);
  const double step_s = timeline.forward_s + timeline.backward_compute_s() + timeline.finalize_s +
                        timeline.rest_s;
  if (context.timeout_s <= 0 || step_s < context.timeout_s) return;
  context.add("job", settings.job + ": its median step lasts " + human_elapsed(step_s) +
                         ", and every replayed step must end within timeout_s (" +
                         human_elapsed(context.timeout_s) + "); raise timeout_s");
}

void check_step_bounds(const ReplaySettings& settings, ValidationContext& context) {
  if (settings.max_steps < settings.min_steps)
    context.add("max_steps", "is " + std::to_string(settings.max_steps) + ", below min_steps = " +
                                 std::to_string(settings.min_steps) + "; give max_steps >= min_steps");
}

}  // namespace

// Uncompressed, each bucket travels in its gradients' own type, which the backend must reduce.
void check_gradient_types(const ReplaySettings& settings, const CapturedJob& job,
                          const std::vector<const PluginHandle*>& communicators,
                          ValidationContext& context) {
  if (settings.compression != Compression::kNone) return;
  std::set<std::string> dtypes;
  for (const CapturedParameter& parameter : job.parameters)
    if (parameter.requires_grad && parameter.numel > 0) dtypes.insert(parameter.dtype);
  for (const std::string& dtype : dtypes)
    check_reduces(context, "backend", communicators, *captured_plugin_dtype(dtype),
                  "give compression (fp16 or bf16)");
}

// The harness's compositions split their group with MPI: a replay cannot join one through the
// bootstrap alone (harness_torch has its own hierarchical group, which the replay does not run).
void check_join(const ReplaySettings& settings, ValidationContext& context) {
  if (settings.join == PluginJoin::kBootstrap && find_composed_backend(settings.backend))
    context.add("join", "\"bootstrap\" joins a plugin as PyTorch's harness process group does; "
                        "a replay of " + settings.backend + " (a composition of the harness's) "
                        "joins it through MPI only; give join \"mpi\" or a plugin");
}

void validate_replay_trial(const ReplaySettings& settings, ValidationContext& context) {
  check_step_bounds(settings, context);
  check_join(settings, context);
  const auto communicators = check_backend(context, settings.backend, settings.backend_params);
  check_compression(context, communicators, settings.compression);
  if (const auto job = read_or_report(settings, context)) {
    check_world_size(settings, *job, context);
    check_step_length(settings, *job, context);
    check_gradient_types(settings, *job, communicators, context);
  }
}

}  // namespace harness

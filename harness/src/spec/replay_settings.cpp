#include "spec/replay_settings.h"

#include "spec/settings_table.h"

namespace harness {
namespace {

// Each replay setting, declared once. Rows appear in this order in the experiment reference.
const SettingsTable<ReplaySettings>& replay_table() {
  using S = ReplaySettings;
  static const auto table =
      SettingsTable<S>()
          .add("job", &S::job,
               "the job.json scripts/tune captured from a PyTorch DDP job (its path; relative "
               "to the directory the harness runs in)")
          .add("world_size", &S::world_size,
               "ranks in the trial's group: the job's own world size", {1, 65536})
          .add("backend", &S::backend,
               "communicator plugin name; torch_gloo is the job's own PyTorch gloo (its "
               "ProcessGroupGloo), gloo the gloo library called directly")
          .add("backend_params", &S::backend_params, "parameters passed to the communicator plugin")
          .add_choice("join", &S::join, kPluginJoinChoices,
                      "what the plugin joins its group through: mpi, MPI's communicator and the "
                      "group's bootstrap, as in every other trial kind; bootstrap, the bootstrap "
                      "alone, as inside PyTorch's harness process group, which has no MPI (ring "
                      "then links its ranks over TCP, as in a PyTorch job; a plugin that needs "
                      "MPI declines, and a composition such as hierarchical is refused)")
          .add("bucket_cap_mb", &S::bucket_cap_mb,
               "DDP's bucket_cap_mb: the gradients are re-bucketed at this cap, in the order the "
               "job's backward made them (DDP's first bucket keeps the job's own cap)",
               {0, 1e6, true})
          .add_choice("compression", &S::compression, kCompressionChoices,
                      "DDP's compression comm hook: each bucket cast to fp16 or bf16 for the "
                      "allreduce and back")
          .add("warmup_steps", &S::warmup_steps, "untimed steps before the timed ones", {0, 1e9})
          .add("min_steps", &S::min_steps, "timed steps, at least", {1, 1e9})
          .add("min_time_s", &S::min_time_s, "timed seconds, at least", {0, 86400})
          .add("max_steps", &S::max_steps, "cap on the timed steps; at least min_steps", {1, 1e9})
          .add("noise_cv_threshold", &S::noise_cv_threshold,
               "mark the trial noisy when the cv of its (slowest-rank) step times exceeds this",
               {0, 1e6})
          .add("slow_step_factor", &S::slow_step_factor,
               "steps slower than this many times the median step are counted (slow_steps) and "
               "make the trial noisy",
               {1, 1e9})
          .add_part("", &S::quiet, quiet_gate_settings_table());
  return table;
}

}  // namespace

const Schema& replay_settings_schema() {
  static const Schema schema = replay_table().schema();
  return schema;
}

ReplaySettings parse_replay_settings(const Json& settings) {
  return replay_table().parse(settings);
}

}  // namespace harness

#include "spec/train_settings.h"

#include "spec/settings_table.h"

namespace harness {
namespace {

const EnumChoice<LrRule> kLrRules[] = {
    {"none", LrRule::kNone}, {"linear", LrRule::kLinear}, {"sqrt", LrRule::kSqrt}};
const EnumChoice<Strategy> kStrategies[] = {{"ddp", Strategy::kDdp},
                                            {"sharded", Strategy::kSharded}};
const EnumChoice<OptimizerKind> kOptimizers[] = {{"adam", OptimizerKind::kAdam},
                                                 {"sgd", OptimizerKind::kSgd}};
const EnumChoice<bool> kTrainOn[] = {{"normal", true}, {"all", false}};

const SettingsTable<OptimizerSettings>& optimizer_table() {
  using S = OptimizerSettings;
  static const auto table =
      SettingsTable<S>()
          .add_choice("name", &S::kind, kOptimizers, "optimizer")
          .add("lr", &S::lr, "learning rate of one worker, before the lr_rule", {0, 100, true})
          .add("momentum", &S::momentum, "sgd: momentum", {0, 1})
          .add("weight_decay", &S::weight_decay, "L2 weight decay", {0, 1});
  return table;
}

using S = TrainSettings;
constexpr double kInf = std::numeric_limits<double>::infinity();

// What the trial trains: its group, plugins, data, optimizer and schedule.
void add_workload_rows(SettingsTable<S>& table) {
  table.add("world_size", &S::world_size,
            "ranks in the trial: ranks 0..N-1 of the launched job form its group", {1, 65536})
      .add("backend", &S::backend, "communicator plugin name (see harness --list-plugins)")
      .add("backend_params", &S::backend_params, "parameters passed to the communicator plugin")
      .add("model", &S::model, "model plugin name")
      .add("model_params", &S::model_params,
           "parameters passed to the model plugin (input_dim is set from the data)")
      .add_part("dataset", &S::dataset, dataset_settings_table())
      .add_choice("train_on", &S::train_on_normal_only, kTrainOn,
                  "train on normal rows only (semi-supervised) or on all training rows")
      .add_part("optimizer", &S::optimizer, optimizer_table())
      .add_choice("lr_rule", &S::lr_rule, kLrRules,
                  "learning rate scaling in the world size N: lr, lr*N, lr*sqrt(N)")
      .add("lr_warmup_epochs", &S::lr_warmup_epochs,
           "linear warm-up from lr_scaled/N to lr_scaled over this many epochs (Horovod's rule)",
           {0, 1e6})
      .add("batch_size", &S::batch_size, "samples per rank per step", {1, 1e7})
      .add("epochs", &S::epochs, "passes over the training shard", {1, 1e7})
      .add("max_steps", &S::max_steps, "stop after this many steps (0: no limit)", {0, 1e12})
      .add("warmup_steps", &S::warmup_steps,
           "untimed steps opening the timing phase (not an lr warm-up); at most max_timing_steps",
           {0, 1e9})
      .add("divergence_factor", &S::divergence_factor,
           "the trial is diverged when the global loss exceeds this many times the first step's "
           "(0: only NaN or infinite loss counts)",
           {0, kInf})
      .add("target_loss", &S::target_loss,
           "report steps and seconds until the 10-step moving mean of the global loss reaches it",
           {0, kInf})
      .add("threshold_percentile", &S::threshold_percentile,
           "F1 threshold: this percentile of the training rows' anomaly scores", {0, 100, true})
      .add("threads", &S::threads, "intra-op threads per rank", {1, 1024});
}

// How gradients and buffers travel between the ranks.
void add_reduction_rows(SettingsTable<S>& table) {
  table.add("fusion_bytes", &S::fusion_bytes,
            "gradient bucket cap in bytes (fp32): gradients are grouped in reverse registration "
            "order into buckets of at most this size, one allreduce each; 0: one allreduce per "
            "tensor; the default (64 MiB, Horovod's fusion threshold) is one buffer for the "
            "shipped models",
            {0, 1e12})
      .add("overlap", &S::overlap,
           "start each bucket's allreduce, on a communication thread, as soon as backward has "
           "produced all its gradients (false: reduce after backward)")
      .add("broadcast_buffers", &S::broadcast_buffers,
           "broadcast rank 0's fp32 buffers (BatchNorm's running statistics and the like) before "
           "every step, as DDP's broadcast_buffers does (false: only once, before training); "
           "models without buffers send nothing")
      .add_choice("compression", &S::compression, kCompressionChoices,
                  "cast each bucket to this type for the allreduce and back after (the backend "
                  "must list the type); the loss is averaged apart, in fp32, so that it compares "
                  "across compressions and strategies")
      .add_choice("strategy", &S::strategy, kStrategies,
                  "ddp: every rank holds the whole model and optimizer state, gradients are "
                  "allreduced; sharded (ZeRO stage 2): each bucket's gradients are "
                  "reduce-scattered, each rank steps only its shard of the parameters and of the "
                  "optimizer state, and the updated shards are all-gathered before the next "
                  "forward (the backend must offer reduce_scatter and allgather)");
}

// How the speed is measured: the timeline, the timing phase, what counts as noisy.
void add_timing_rows(SettingsTable<S>& table) {
  table.add("timeline", &S::timeline,
            "write a Chrome trace (traces/<key>/trace.json, Perfetto) of the timing phase's first "
            "timeline_steps steps on every rank")
      .add("timeline_steps", &S::timeline_steps, "steps the timeline records", {1, 1000})
      .add("min_time_s", &S::min_time_s,
           "timing phase: after training and evaluation, keep stepping on the same data until "
           "this many seconds of timed steps; throughput and step-time statistics rest on it, "
           "the loss curves and detection metrics do not",
           {0, 86400})
      .add("max_timing_steps", &S::max_timing_steps, "cap on the timing phase's steps", {5, 1e9})
      .add("noise_cv_threshold", &S::noise_cv_threshold,
           "mark the trial noisy when the cv of its (slowest-rank) step times exceeds this",
           {0, 1e6})
      .add("slow_step_factor", &S::slow_step_factor,
           "steps slower than this many times the median step are counted (slow_steps) and make "
           "the trial noisy: a stall that ended is not a plain measurement",
           {1, 1e9})
      .add_part("", &S::quiet, quiet_gate_settings_table());
}

// Each train setting, declared once. Rows appear in this order in the experiment reference.
const SettingsTable<TrainSettings>& train_table() {
  static const auto table = [] {
    SettingsTable<S> rows;
    add_workload_rows(rows);
    add_reduction_rows(rows);
    add_timing_rows(rows);
    return rows;
  }();
  return table;
}

}  // namespace

const Schema& train_settings_schema() {
  static const Schema schema = train_table().schema();
  return schema;
}

const EnumChoice<Compression> kCompressionChoices[3] = {
    {"none", Compression::kNone}, {"fp16", Compression::kFp16}, {"bf16", Compression::kBf16}};

const char* compression_name(Compression compression) {
  return choice_word(compression, kCompressionChoices);
}

const char* strategy_name(Strategy strategy) { return choice_word(strategy, kStrategies); }

plugin::DType wire_dtype(Compression compression) {
  switch (compression) {
    case Compression::kFp16: return plugin::DType::kFloat16;
    case Compression::kBf16: return plugin::DType::kBFloat16;
    case Compression::kNone: break;
  }
  return plugin::DType::kFloat32;
}

TrainSettings parse_train_settings(const Json& settings) { return train_table().parse(settings); }

}  // namespace harness

#include "spec/train_schema.h"

#include "spec/quiet_gate_settings.h"

namespace harness {

const Schema& train_settings_schema() {
  using T = FieldType;
  const double inf = std::numeric_limits<double>::infinity();
  // One field per entry, kept as a table.
  // clang-format off
  static const Schema schema = with_quiet_gate({
      {"world_size", T::kInteger, 1, 1, 65536, false, {},
       "ranks in the trial: ranks 0..N-1 of the launched job form its group"},
      {"backend", T::kString, "mpi", -inf, inf, false, {},
       "communicator plugin name (see harness --list-plugins)"},
      {"backend_params", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "parameters passed to the communicator plugin"},
      {"model", T::kString, "autoencoder", -inf, inf, false, {}, "model plugin name"},
      {"model_params", T::kFreeObject, Json::object(), -inf, inf, false, {},
       "parameters passed to the model plugin (input_dim is set from the data)"},
      {"dataset.kind", T::kString, "synthetic", -inf, inf, false,
       {"synthetic", "annthyroid", "csv", "synthetic_series", "lwsndr"},
       "tabular: synthetic, annthyroid, csv; windowed series: synthetic_series, lwsndr"},
      {"dataset.rows", T::kInteger, 10000, 10, 1e8, false, {}, "synthetic: rows in all"},
      {"dataset.dim", T::kInteger, 20, 2, 100000, false, {},
       "synthetic: features per row; synthetic_series: features per time step"},
      {"dataset.latent_dim", T::kInteger, 3, 1, 100000, false, {},
       "synthetic: dimension of the manifold normal rows live on (< dim)"},
      {"dataset.contamination", T::kNumber, 0.05, 0, 0.5, false, {},
       "synthetic: fraction of anomalous rows"},
      {"dataset.noise", T::kNumber, 0.05, 0, 10, false, {},
       "synthetic: standard deviation of the noise added to normal rows"},
      {"dataset.anomaly_scale", T::kNumber, 0.3, 0, 100, false, {},
       "synthetic: standard deviation of the off-manifold displacement of anomalous rows"},
      {"dataset.seed", T::kInteger, 0, 0, 9.2e18, false, {},
       "synthetic: data seed (fixed across repetitions unless swept)"},
      {"dataset.test_fraction", T::kNumber, 0.3, 0, 1, true, {},
       "synthetic and csv without test_path: share of rows held out for evaluation; series: "
       "the last part of each series"},
      {"dataset.length", T::kInteger, 5000, 16, 1e9, false, {}, "synthetic_series: time steps"},
      {"dataset.events", T::kInteger, 30, 0, 1e7, false, {},
       "synthetic_series: injected anomaly events (spikes, level shifts, variance bursts)"},
      {"dataset.event_length", T::kInteger, 20, 1, 1e6, false, {},
       "synthetic_series: points in a level shift or variance burst"},
      {"dataset.window", T::kInteger, 32, 2, 100000, false, {}, "series: window length"},
      {"dataset.stride", T::kInteger, 1, 1, 100000, false, {},
       "series: step between training windows"},
      {"dataset.test_stride", T::kInteger, 1, 1, 100000, false, {},
       "series: step between test windows (1 scores every point)"},
      {"dataset.window_label", T::kString, "any", -inf, inf, false, {"any", "majority", "last"},
       "series: a window is anomalous if any / most / its last point is"},
      {"dataset.path", T::kString, "", -inf, inf, false, {},
       "csv: the file; annthyroid: the folder holding thyroid.train and thyroid.test "
       "(default: Debian libfann-doc's); lwsndr: data.csv (default: the copy scripts/setup "
       "fetches into data/lwsndr)"},
      {"dataset.test_path", T::kString, "", -inf, inf, false, {},
       "csv: optional separate labelled test file"},
      {"dataset.label_column", T::kString, "label", -inf, inf, false, {},
       "csv: the column holding 0 (normal) or 1 (anomaly); all other columns are features"},
      {"train_on", T::kString, "normal", -inf, inf, false, {"normal", "all"},
       "train on normal rows only (semi-supervised) or on all training rows"},
      {"optimizer.name", T::kString, "adam", -inf, inf, false, {"adam", "sgd"}, "optimizer"},
      {"optimizer.lr", T::kNumber, 0.001, 0, 100, true, {},
       "learning rate of one worker, before the lr_rule"},
      {"optimizer.momentum", T::kNumber, 0.9, 0, 1, false, {}, "sgd: momentum"},
      {"optimizer.weight_decay", T::kNumber, 0.0, 0, 1, false, {}, "L2 weight decay"},
      {"lr_rule", T::kString, "none", -inf, inf, false, {"none", "linear", "sqrt"},
       "learning rate scaling in the world size N: lr, lr*N, lr*sqrt(N)"},
      {"lr_warmup_epochs", T::kNumber, 0.0, 0, 1e6, false, {},
       "linear warm-up from lr_scaled/N to lr_scaled over this many epochs (Horovod's rule)"},
      {"batch_size", T::kInteger, 32, 1, 1e7, false, {}, "samples per rank per step"},
      {"epochs", T::kInteger, 5, 1, 1e7, false, {}, "passes over the training shard"},
      {"max_steps", T::kInteger, 0, 0, 1e12, false, {},
       "stop after this many steps (0: no limit)"},
      {"warmup_steps", T::kInteger, 5, 0, 1e9, false, {},
       "untimed steps opening the timing phase (not an lr warm-up); at most max_timing_steps"},
      {"divergence_factor", T::kNumber, 1000.0, 0, inf, false, {},
       "the trial is diverged when the global loss exceeds this many times the first step's "
       "(0: only NaN or infinite loss counts)"},
      {"target_loss", T::kNumberOrNull, nullptr, 0, inf, false, {},
       "report steps and seconds until the 10-step moving mean of the global loss reaches it"},
      {"threshold_percentile", T::kNumber, 95.0, 0, 100, true, {},
       "F1 threshold: this percentile of the training rows' anomaly scores"},
      {"threads", T::kInteger, 1, 1, 1024, false, {}, "intra-op threads per rank"},
      {"fusion_bytes", T::kInteger, 67108864, 0, 1e12, false, {},
       "gradient bucket cap in bytes (fp32): gradients are grouped in reverse registration "
       "order into buckets of at most this size, one allreduce each; 0: one allreduce per "
       "tensor; the default (64 MiB, Horovod's fusion threshold) is one buffer for the shipped "
       "models"},
      {"overlap", T::kBoolean, false, -inf, inf, false, {},
       "start each bucket's allreduce, on a communication thread, as soon as backward has "
       "produced all its gradients (false: reduce after backward)"},
      {"broadcast_buffers", T::kBoolean, true, -inf, inf, false, {},
       "broadcast rank 0's fp32 buffers (BatchNorm's running statistics and the like) before "
       "every step, as DDP's broadcast_buffers does (false: only once, before training); "
       "models without buffers send nothing"},
      {"compression", T::kString, "none", -inf, inf, false, {"none", "fp16", "bf16"},
       "cast each bucket to this type for the allreduce and back after (the backend must "
       "list the type)"},
      {"timeline", T::kBoolean, false, -inf, inf, false, {},
       "write a Chrome trace (traces/<key>/trace.json, Perfetto) of the timing phase's first "
       "timeline_steps steps on every rank"},
      {"timeline_steps", T::kInteger, 5, 1, 1000, false, {}, "steps the timeline records"},

      {"min_time_s", T::kNumber, 1.0, 0, 86400, false, {},
       "timing phase: after training and evaluation, keep stepping on the same data until "
       "this many seconds of timed steps; throughput and step-time statistics rest on it, "
       "the loss curves and detection metrics do not"},
      {"max_timing_steps", T::kInteger, 200000, 5, 1e9, false, {},
       "cap on the timing phase's steps"},
      {"noise_cv_threshold", T::kNumber, 0.75, 0, 1e6, false, {},
       "mark the trial noisy when the cv of its (slowest-rank) step times exceeds this"},
      {"slow_step_factor", T::kNumber, 10.0, 1, 1e9, false, {},
       "steps slower than this many times the median step are counted (slow_steps) and make "
       "the trial noisy: a stall that ended is not a plain measurement"},
  });
  // clang-format on
  return schema;
}

}  // namespace harness

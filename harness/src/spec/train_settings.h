// The settings of a train trial, typed (c10d's options-struct style): trial code reads these
// fields, never JSON keys. The member initialisers are the defaults; train_settings.cpp
// declares each field's name, range and help once (spec/settings_table.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "common/json.h"
#include "harness/plugin/types.h"
#include "spec/dataset_settings.h"
#include "spec/enum_choice.h"
#include "spec/quiet_gate_settings.h"
#include "spec/schema.h"

namespace harness {

enum class OptimizerKind { kAdam, kSgd };
enum class LrRule { kNone, kLinear, kSqrt };     // lr, lr*N, lr*sqrt(N) in the world size N
enum class Compression { kNone, kFp16, kBf16 };  // the gradients' type on the wire
// ddp: every rank holds and steps the whole model (allreduce). sharded (ZeRO stage 2): gradients
// are reduce-scattered, each rank steps its shard of the parameters and optimizer state, and
// the updated shards are all-gathered.
enum class Strategy { kDdp, kSharded };

struct OptimizerSettings {
  OptimizerKind kind = OptimizerKind::kAdam;
  double lr = 0.001;  // one worker's, before the lr rule
  double momentum = 0.9;
  double weight_decay = 0;
};

// Horovod's fusion threshold: one bucket holds every gradient of the shipped models.
inline constexpr std::size_t kDefaultFusionBytes = 64u << 20;

struct TrainSettings {
  int world_size = 1;
  std::string backend = "mpi";
  Json backend_params = Json::object();  // the plugin's own, validated by the plugin
  std::string model = "autoencoder";
  Json model_params = Json::object();  // the plugin's own, validated by the plugin
  DatasetSettings dataset;
  bool train_on_normal_only = true;  // train_on "normal" (semi-supervised) or "all"
  OptimizerSettings optimizer;
  LrRule lr_rule = LrRule::kNone;
  double lr_warmup_epochs = 0;
  std::size_t batch_size = 32;
  std::uint64_t epochs = 5;
  std::uint64_t max_steps = 0;      // 0: no limit
  std::uint64_t warmup_steps = 5;   // untimed steps opening the timing phase
  double divergence_factor = 1000;  // loss > factor x first step's loss: diverged (0: off)
  std::optional<double> target_loss;
  double threshold_percentile = 95;
  int threads = 1;
  std::size_t fusion_bytes = kDefaultFusionBytes;  // bucket cap; 0: one bucket per tensor
  bool overlap = false;                  // reduce buckets during backward
  bool broadcast_buffers = true;         // rank 0's buffers before every step (else once)
  Compression compression = Compression::kNone;
  Strategy strategy = Strategy::kDdp;
  bool timeline = false;
  std::size_t timeline_steps = 5;
  double min_time_s = 1;  // the timing phase's length, at least
  std::uint64_t max_timing_steps = 200000;
  double noise_cv_threshold = 0.75;
  double slow_step_factor = 10;  // steps above this x the median step are slow_steps
  QuietGateSettings quiet;
};

// The fields of "settings" for experiments of kind "train", derived from the declaration.
const Schema& train_settings_schema();

// The words of "compression", shared by every kind that compresses gradients.
extern const EnumChoice<Compression> kCompressionChoices[3];
const char* compression_name(Compression compression);
const char* strategy_name(Strategy strategy);
// The element type gradients travel in: fp32, or the compressed type.
plugin::DType wire_dtype(Compression compression);

// From validated, defaults-filled settings of kind "train".
TrainSettings parse_train_settings(const Json& settings);

}  // namespace harness

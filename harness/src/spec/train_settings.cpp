#include "spec/train_settings.h"

#include "spec/enum_choice.h"

namespace harness {
namespace {

const EnumChoice<LrRule> kLrRules[] = {
    {"none", LrRule::kNone}, {"linear", LrRule::kLinear}, {"sqrt", LrRule::kSqrt}};
const EnumChoice<Compression> kCompressions[] = {
    {"none", Compression::kNone}, {"fp16", Compression::kFp16}, {"bf16", Compression::kBf16}};
const EnumChoice<OptimizerKind> kOptimizers[] = {{"adam", OptimizerKind::kAdam},
                                                 {"sgd", OptimizerKind::kSgd}};

}  // namespace

LrRule parse_lr_rule(const std::string& name) { return parse_choice("lr_rule", name, kLrRules); }

Compression parse_compression(const std::string& name) {
  return parse_choice("compression", name, kCompressions);
}

const char* compression_name(Compression compression) {
  return choice_word(compression, kCompressions);
}

plugin::DType wire_dtype(Compression compression) {
  switch (compression) {
    case Compression::kFp16: return plugin::DType::kFloat16;
    case Compression::kBf16: return plugin::DType::kBFloat16;
    case Compression::kNone: break;
  }
  return plugin::DType::kFloat32;
}

namespace {

OptimizerSettings parse_optimizer(const Json& optimizer) {
  OptimizerSettings o;
  o.kind = parse_choice("optimizer.name", optimizer.at("name").get<std::string>(), kOptimizers);
  o.lr = optimizer.at("lr").get<double>();
  o.momentum = optimizer.at("momentum").get<double>();
  o.weight_decay = optimizer.at("weight_decay").get<double>();
  return o;
}

}  // namespace

TrainSettings parse_train_settings(const Json& s) {
  TrainSettings t;
  t.world_size = s.at("world_size").get<int>();
  t.backend = s.at("backend").get<std::string>();
  t.backend_params = s.at("backend_params");
  t.model = s.at("model").get<std::string>();
  t.model_params = s.at("model_params");
  t.dataset = parse_dataset_settings(s.at("dataset"));
  t.train_on_normal_only = s.at("train_on") == "normal";
  t.optimizer = parse_optimizer(s.at("optimizer"));
  t.lr_rule = parse_lr_rule(s.at("lr_rule").get<std::string>());
  t.lr_warmup_epochs = s.at("lr_warmup_epochs").get<double>();
  t.batch_size = s.at("batch_size").get<std::size_t>();
  t.epochs = s.at("epochs").get<std::uint64_t>();
  t.max_steps = s.at("max_steps").get<std::uint64_t>();
  t.warmup_steps = s.at("warmup_steps").get<std::uint64_t>();
  if (!s.at("target_loss").is_null()) t.target_loss = s.at("target_loss").get<double>();
  t.threshold_percentile = s.at("threshold_percentile").get<double>();
  t.threads = s.at("threads").get<int>();
  t.fusion_bytes = s.at("fusion_bytes").get<std::size_t>();
  t.overlap = s.at("overlap").get<bool>();
  t.broadcast_buffers = s.at("broadcast_buffers").get<bool>();
  t.compression = parse_compression(s.at("compression").get<std::string>());
  t.timeline = s.at("timeline").get<bool>();
  t.timeline_steps = s.at("timeline_steps").get<std::size_t>();
  t.min_time_s = s.at("min_time_s").get<double>();
  t.max_timing_steps = s.at("max_timing_steps").get<std::uint64_t>();
  t.noise_cv_threshold = s.at("noise_cv_threshold").get<double>();
  t.divergence_factor = s.at("divergence_factor").get<double>();
  t.slow_step_factor = s.at("slow_step_factor").get<double>();
  t.quiet = parse_quiet_gate_settings(s);
  return t;
}

}  // namespace harness

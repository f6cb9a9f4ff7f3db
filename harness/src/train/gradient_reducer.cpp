#include "train/gradient_reducer.h"

#include <torch/torch.h>

#include <stdexcept>

#include "loader/plugin_call.h"
#include "train/communication_thread.h"
#include "train/tensor_buffer_view.h"

namespace harness {
namespace {

// The last bucket's extra slots.
constexpr std::size_t kLossSlot = 0;
constexpr std::size_t kFailureSlot = 1;
constexpr std::size_t kExtraSlots = 2;

double seconds_between(std::chrono::steady_clock::time_point a,
                       std::chrono::steady_clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

}  // namespace

ReducerOptions reducer_options(const TrainSettings& settings) {
  return {settings.fusion_bytes, settings.overlap, wire_dtype(settings.compression)};
}

// The buffer the allreduce reduces (values, or wire when compressed) lies in `memory`.
struct GradientReducer::Bucket {
  Bucket(std::vector<at::Tensor> members, std::size_t extra_slots, plugin::DType wire_type,
         ReductionMemory* memory)
      : values(std::move(members), extra_slots,
               wire_type == plugin::DType::kFloat32 ? memory : nullptr) {
    if (wire_type == plugin::DType::kFloat32) return;
    const auto options = values.flat().options().dtype(scalar_type_of(wire_type));
    wire = memory ? memory->zeros(values.flat().numel(), options)
                  : torch::empty_like(values.flat(), options);
  }
  FusionBuffer values;      // fp32 gradients (and the loss, in the last bucket)
  at::Tensor wire;          // the compressed copy the allreduce reduces; undefined without
  std::size_t pending = 0;  // gradients not yet packed in this step
  bool ready = false;
};

GradientReducer::GradientReducer(std::vector<at::Tensor> parameters, const ReducerOptions& options,
                                 plugin::Communicator& communicator, StepTimeline* timeline,
                                 ReductionMemory* memory)
    : options_(options),
      communicator_(communicator),
      timeline_(timeline),
      parameters_(std::move(parameters)) {
  plan_buckets(parameters_, options.fusion_bytes, memory);
  if (options_.overlap) {
    thread_ = std::make_unique<CommunicationThread>();
    install_hooks();
  } else {
    for (auto& bucket : buckets_) bucket->values.bind_gradients();
  }
}

void GradientReducer::zero_gradients() {
  for (auto& bucket : buckets_) bucket->values.zero();
}

GradientReducer::~GradientReducer() {
  for (std::size_t i = 0; i < hook_handles_.size(); ++i)
    parameters_[i].remove_hook(hook_handles_[i]);
}

// Reverse registration order, greedy: a bucket takes tensors while they fit under the cap;
// a tensor larger than the cap gets a bucket of its own.
void GradientReducer::plan_buckets(const std::vector<at::Tensor>& parameters,
                                   std::size_t fusion_bytes, ReductionMemory* memory) {
  std::vector<std::vector<std::size_t>> groups;
  std::size_t group_bytes = 0;
  for (std::size_t i = parameters.size(); i-- > 0;) {
    const std::size_t bytes = static_cast<std::size_t>(parameters[i].numel()) * sizeof(float);
    if (groups.empty() || fusion_bytes == 0 || group_bytes + bytes > fusion_bytes) {
      groups.emplace_back();
      group_bytes = 0;
    }
    groups.back().push_back(i);
    group_bytes += bytes;
  }
  if (groups.empty()) groups.emplace_back();  // a model without parameters still sends its loss
  bucket_of_.assign(parameters.size(), 0);
  slot_of_.assign(parameters.size(), 0);
  for (std::size_t b = 0; b < groups.size(); ++b) {
    std::vector<at::Tensor> members;
    for (std::size_t slot = 0; slot < groups[b].size(); ++slot) {
      bucket_of_[groups[b][slot]] = b;
      slot_of_[groups[b][slot]] = slot;
      members.push_back(parameters[groups[b][slot]]);
    }
    const std::size_t extra = b + 1 == groups.size() ? kExtraSlots : 0;
    buckets_.push_back(std::make_unique<Bucket>(std::move(members), extra, options_.wire, memory));
  }
}

void GradientReducer::install_hooks() {
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    hook_handles_.push_back(parameters_[i].register_hook(
        [this, i](const at::Tensor& gradient) { on_gradient(i, gradient); }));
}

void GradientReducer::begin_step(const at::Tensor& loss) {
  buckets_.back()->values.set_extra(kLossSlot, loss);
  buckets_.back()->values.set_extra(kFailureSlot, 0.0);
  std::lock_guard<std::mutex> lock(mutex_);
  reset_step();
}

void GradientReducer::reset_step() {
  for (auto& bucket : buckets_) {
    bucket->pending = bucket->values.parameter_count();
    bucket->ready = false;
  }
  next_launch_ = 0;
  comm_s_ = 0;
  failed_ = false;
  in_step_ = true;
}

void GradientReducer::fail_step() {
  std::lock_guard<std::mutex> lock(mutex_);
  if (!in_step_) reset_step();  // forward raised, before begin_step
  // A bucket already launched (overlap, backward raised midway) is being reduced: it goes
  // as it is; the step's gradients are thrown away on every rank anyway.
  if (buckets_.back()->ready)
    throw std::logic_error("a step failed after its last bucket was handed to the communicator");
  failed_ = true;
  for (auto& bucket : buckets_)
    if (!bucket->ready) bucket->values.zero();
  buckets_.back()->values.set_extra(kFailureSlot, 1.0);
}

// On the autograd thread, during backward.
void GradientReducer::on_gradient(std::size_t parameter, const at::Tensor& gradient) {
  const std::size_t b = bucket_of_[parameter];
  Bucket& bucket = *buckets_[b];
  std::lock_guard<std::mutex> lock(mutex_);
  if (!in_step_ || bucket.ready) return;
  bucket.values.pack_gradient(slot_of_[parameter], gradient);
  if (--bucket.pending > 0) return;
  if (timeline_)
    timeline_->instant(StepTimeline::Lane::kCompute, "bucket ready", Clock::now(),
                       {{"bucket", b}, {"bytes", bucket.values.view().bytes()}});
  mark_ready(b);
}

void GradientReducer::mark_ready(std::size_t bucket) {
  buckets_[bucket]->ready = true;
  launch_ready_buckets();
}

void GradientReducer::launch_ready_buckets() {
  while (next_launch_ < buckets_.size() && buckets_[next_launch_]->ready) {
    const std::size_t b = next_launch_++;
    thread_->submit([this, b] { reduce(b); });
  }
}

void GradientReducer::reduce(std::size_t b) {
  Bucket& bucket = *buckets_[b];
  const auto started = Clock::now();
  const bool compressed = bucket.wire.defined();
  if (compressed) bucket.wire.copy_(bucket.values.flat());
  const plugin::BufferView view =
      compressed ? buffer_view_of(bucket.wire, options_.wire) : bucket.values.view();
  throw_if_failed(communicator_.allreduce(view, {plugin::ReduceOp::kAvg, nullptr}), "allreduce");
  throw_if_failed(communicator_.synchronize(), "synchronize");
  if (compressed) bucket.values.flat().copy_(bucket.wire);
  const auto ended = Clock::now();
  if (timeline_)
    timeline_->span(
        options_.overlap ? StepTimeline::Lane::kCommunication : StepTimeline::Lane::kCompute,
        "allreduce", started, ended,
        {{"bucket", b},
         {"bytes", view.bytes()},
         {"tensors", bucket.values.parameter_count()},
         {"dtype", plugin::dtype_name(view.dtype)}});
  std::lock_guard<std::mutex> lock(mutex_);
  comm_s_ += seconds_between(started, ended);
}

StepCommunication GradientReducer::finish_step() {
  const auto backward_ended = Clock::now();
  if (options_.overlap) {
    {
      // Buckets some of whose parameters got no gradient (unused in this step) go now,
      // packed from .grad(), which backward has finished writing.
      std::lock_guard<std::mutex> lock(mutex_);
      for (auto& bucket : buckets_)
        if (!bucket->ready) {
          if (!failed_) bucket->values.pack_gradients();
          bucket->ready = true;
        }
      launch_ready_buckets();
    }
    thread_->wait();
    for (auto& bucket : buckets_) bucket->values.unpack_gradients();
  } else {
    for (std::size_t b = 0; b < buckets_.size(); ++b) reduce(b);  // in place: .grad() are views
  }
  const auto ended = Clock::now();
  if (timeline_)
    timeline_->span(StepTimeline::Lane::kCompute, "wait for communication", backward_ended, ended);
  std::lock_guard<std::mutex> lock(mutex_);
  in_step_ = false;
  return {comm_s_, seconds_between(backward_ended, ended)};
}

double GradientReducer::global_loss() const {
  return buckets_.back()->values.extra(kLossSlot);
}

// The flags' mean: above zero when any rank set its flag.
bool GradientReducer::any_rank_failed() const {
  return buckets_.back()->values.extra(kFailureSlot) > 0;
}

std::vector<std::size_t> GradientReducer::bucket_wire_bytes() const {
  std::vector<std::size_t> bytes;
  for (const auto& bucket : buckets_)
    bytes.push_back(static_cast<std::size_t>(bucket->values.flat().numel()) *
                    plugin::dtype_size(options_.wire));
  return bytes;
}

std::size_t GradientReducer::wire_bytes_per_step() const {
  std::size_t total = 0;
  for (std::size_t bytes : bucket_wire_bytes()) total += bytes;
  return total;
}

std::size_t GradientReducer::gradient_elements() const {
  std::size_t total = 0;
  for (const auto& bucket : buckets_) total += bucket->values.gradient_elements();
  return total;
}

}  // namespace harness

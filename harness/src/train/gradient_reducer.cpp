#include "train/gradient_reducer.h"

#include <torch/torch.h>

#include <stdexcept>

#include "common/seconds_between.h"
#include "measurement/communication_thread.h"
#include "measurement/tensor_buffer_view.h"

namespace harness {
namespace {

// The step's status: the mean loss and the failure flag.
constexpr int64_t kLossSlot = 0;
constexpr int64_t kFailureSlot = 1;
constexpr std::size_t kStatusSlots = 2;

std::size_t elements_of(const std::vector<at::Tensor>& tensors) {
  std::size_t total = 0;
  for (const auto& t : tensors) total += static_cast<std::size_t>(t.numel());
  return total;
}

std::size_t bytes_of(const at::Tensor& tensor) { return tensor.defined() ? tensor.nbytes() : 0; }

at::Tensor zeros_in(ReductionMemory* memory, int64_t count, const at::TensorOptions& options) {
  return memory ? memory->zeros(count, options) : torch::zeros({count}, options);
}

}  // namespace

ReducerOptions reducer_options(const TrainSettings& settings, int rank, int size) {
  return {settings.fusion_bytes,
          settings.overlap,
          wire_dtype(settings.compression),
          settings.strategy == Strategy::kSharded,
          rank,
          size};
}

// The buffer the collective reduces (values, or wire when compressed) lies in `memory`; so
// does a sharded bucket's block.
struct GradientReducer::Bucket {
  Bucket(std::vector<at::Tensor> members, std::size_t extra_slots, const ReducerOptions& options,
         ReductionMemory* memory)
      : values(std::move(members), extra_slots,
               options.wire == plugin::DType::kFloat32 ? memory : nullptr) {
    const int64_t count = values.flat().numel();
    const auto wire_options = values.flat().options().dtype(plugin::scalar_type_of(options.wire));
    const bool compressed = options.wire != plugin::DType::kFloat32;
    if (compressed) wire = zeros_in(memory, count, wire_options);
    if (!options.sharded) return;
    const int64_t block = count / options.size;
    shard = zeros_in(compressed ? nullptr : memory, block, values.flat().options());
    if (compressed) wire_shard = zeros_in(memory, block, wire_options);
  }
  FusionBuffer values;      // fp32 gradients (and, under ddp, the status in the last bucket)
  at::Tensor wire;          // the compressed copy the collective reduces; undefined without
  at::Tensor shard;         // sharded: this rank's averaged block of values
  at::Tensor wire_shard;    // sharded and compressed: the block as received
  std::size_t pending = 0;  // gradients not yet packed in this step
  bool ready = false;
};

GradientReducer::GradientReducer(std::vector<at::Tensor> parameters, const ReducerOptions& options,
                                 plugin::Communicator& communicator, StepTimeline* timeline,
                                 ReductionMemory* memory, BackendFault* fault)
    : options_(options),
      communicator_(communicator),
      timeline_(timeline),
      parameters_(std::move(parameters)),
      own_fault_(fault ? nullptr : std::make_unique<BackendFault>(nullptr)),
      fault_(fault ? fault : own_fault_.get()) {
  plan_buckets(parameters_, options.fusion_bytes, memory);
  if (status_apart()) {
    status_ = zeros_in(memory, kStatusSlots, buckets_.front()->values.flat().options());
  } else {
    status_ = buckets_.back()->values.extra_slots();
  }
  if (options_.overlap) {
    thread_ = std::make_unique<CommunicationThread>();
    install_hooks();
  } else {
    for (auto& bucket : buckets_) bucket->values.bind_gradients();
  }
}

void GradientReducer::zero_gradients() {
  if (!options_.overlap) {
    for (auto& bucket : buckets_) bucket->values.zero();
    return;
  }
  // Sharded with overlap: the hooks copied every gradient out; what autograd accumulated
  // into .grad() is never read, and is freed rather than kept between steps.
  for (auto& parameter : parameters_) parameter.mutable_grad().reset();
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
    const std::size_t size = static_cast<std::size_t>(options_.size);
    const std::size_t extra = options_.sharded ? (size - elements_of(members) % size) % size
                              : !status_apart() && b + 1 == groups.size() ? kStatusSlots
                                                                          : 0;
    buckets_.push_back(std::make_unique<Bucket>(std::move(members), extra, options_, memory));
  }
}

void GradientReducer::install_hooks() {
  for (std::size_t i = 0; i < parameters_.size(); ++i)
    hook_handles_.push_back(parameters_[i].register_hook(
        [this, i](const at::Tensor& gradient) { on_gradient(i, gradient); }));
}

void GradientReducer::begin_step(const at::Tensor& loss) {
  status_.narrow(0, kLossSlot, 1).copy_(loss.detach().reshape({1}));
  // A backend call that failed after the last status went (the last bucket's allreduce, the
  // sharded allgather) is told in this one.
  status_[kFailureSlot].fill_(fault_->any() ? 1.0 : 0.0);
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
  if (buckets_.back()->ready && !status_apart())
    throw std::logic_error("a step failed after its last bucket was handed to the communicator");
  failed_ = true;
  for (auto& bucket : buckets_)
    if (!bucket->ready) bucket->values.zero();
  status_[kFailureSlot].fill_(1.0);
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
  const char* collective = options_.sharded ? "reduce_scatter" : "allreduce";
  bool ok = true;
  if (options_.sharded) {
    const auto& block = compressed ? bucket.wire_shard : bucket.shard;
    ok = fault_->record(communicator_.reduce_scatter(view, buffer_view_of(block, options_.wire),
                                                     {plugin::ReduceOp::kAvg, nullptr}),
                        collective);
  } else {
    ok = fault_->record(communicator_.allreduce(view, {plugin::ReduceOp::kAvg, nullptr}),
                        collective);
  }
  ok = fault_->record(communicator_.synchronize(), "synchronize") && ok;
  if (!ok) flag_failure(b);
  if (compressed)
    (options_.sharded ? bucket.shard.copy_(bucket.wire_shard)
                      : bucket.values.flat().copy_(bucket.wire));
  const auto ended = Clock::now();
  if (timeline_)
    timeline_->span(
        options_.overlap ? StepTimeline::Lane::kCommunication : StepTimeline::Lane::kCompute,
        collective, started, ended,
        {{"bucket", b},
         {"bytes", view.bytes()},
         {"tensors", bucket.values.parameter_count()},
         {"dtype", plugin::dtype_name(view.dtype)}});
  std::lock_guard<std::mutex> lock(mutex_);
  comm_s_ += seconds_between(started, ended);
}

// Bucket b's call failed on this rank: the flag goes in this step's status when the status has
// yet to travel (sharded: its own allreduce, after every bucket; ddp: the last bucket), else in
// the next step's (begin_step).
void GradientReducer::flag_failure(std::size_t b) {
  if (!status_apart() && b + 1 == buckets_.size()) return;
  std::lock_guard<std::mutex> lock(mutex_);
  status_[kFailureSlot].fill_(1.0);
}

// The loss and the flag travel apart, in fp32, where no bucket carries them at full precision:
// sharded (no shard carries them) and compressed (the bucket would round the loss).
bool GradientReducer::status_apart() const {
  return options_.sharded || options_.wire != plugin::DType::kFloat32;
}

// Every rank's loss and flag, in an fp32 allreduce of their own (status_apart).
void GradientReducer::reduce_status() {
  const auto started = Clock::now();
  fault_->record(communicator_.allreduce(buffer_view_of(status_, plugin::DType::kFloat32),
                                         {plugin::ReduceOp::kAvg, nullptr}),
                 "allreduce");
  fault_->record(communicator_.synchronize(), "synchronize");
  comm_s_ += seconds_between(started, Clock::now());
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
    if (!options_.sharded)
      for (auto& bucket : buckets_) bucket->values.unpack_gradients();
  } else {
    for (std::size_t b = 0; b < buckets_.size(); ++b) reduce(b);  // in place: .grad() are views
  }
  if (status_apart()) reduce_status();
  const auto ended = Clock::now();
  if (timeline_)
    timeline_->span(StepTimeline::Lane::kCompute, "wait for communication", backward_ended, ended);
  std::lock_guard<std::mutex> lock(mutex_);
  in_step_ = false;
  return {comm_s_, seconds_between(backward_ended, ended)};
}

double GradientReducer::global_loss() const { return status_[kLossSlot].item<double>(); }

// The flags' mean: above zero when any rank set its flag.
bool GradientReducer::any_rank_failed() const { return status_[kFailureSlot].item<double>() > 0; }

std::vector<at::Tensor> GradientReducer::bucket_parameters(std::size_t b) const {
  return buckets_.at(b)->values.parameters();
}

at::Tensor GradientReducer::bucket_gradient(std::size_t b) const {
  const FusionBuffer& values = buckets_.at(b)->values;
  return values.flat().narrow(0, 0, static_cast<int64_t>(values.gradient_elements()));
}

std::size_t GradientReducer::padded_elements(std::size_t b) const {
  return static_cast<std::size_t>(buckets_.at(b)->values.flat().numel());
}

const at::Tensor& GradientReducer::bucket_values(std::size_t b) const {
  return buckets_.at(b)->values.flat();
}

const at::Tensor& GradientReducer::gradient_shard(std::size_t b) const {
  return buckets_.at(b)->shard;
}

std::size_t GradientReducer::gradient_bytes() const {
  std::size_t total = status_apart() ? bytes_of(status_) : 0;
  for (const auto& bucket : buckets_)
    total += bytes_of(bucket->values.flat()) + bytes_of(bucket->wire) + bytes_of(bucket->shard) +
             bytes_of(bucket->wire_shard);
  // With overlap, ddp's .grad() are tensors of their own, written back every step.
  if (options_.overlap && !options_.sharded) total += gradient_elements() * sizeof(float);
  return total;
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

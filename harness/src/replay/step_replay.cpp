#include "replay/step_replay.h"

#include <torch/torch.h>


#include "common/seconds_between.h"
#include "measurement/tensor_buffer_view.h"
#include "replay/busy_work.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

StepReplay::StepReplay(const JobTimeline& timeline, std::vector<ReplayBucket> buckets,
                       std::optional<plugin::DType> wire, plugin::Communicator& communicator,
                       BackendFault& fault, int world_size, double work_rate)
    : timeline_(timeline),
      communicator_(communicator),
      fault_(fault),
      world_size_(world_size),
      work_rate_(work_rate) {
  for (ReplayBucket& plan : buckets) {
    const plugin::DType own = captured_plugin_dtype(plan.dtype).value();
    const auto options = torch::TensorOptions().dtype(plugin::scalar_type_of(own));
    const auto count = static_cast<int64_t>(plan.bytes / captured_element_bytes(plan.dtype));
    Bucket bucket{std::move(plan), torch::randn({count}, options), torch::empty({count}, options),
                  {}, wire.value_or(own)};
    if (bucket.wire_dtype != own)
      bucket.wire = torch::empty({count}, options.dtype(plugin::scalar_type_of(bucket.wire_dtype)));
    buckets_.push_back(std::move(bucket));
  }
}

void StepReplay::launch(Bucket& bucket) {
  bucket.values.copy_(bucket.gradients);
  const bool compressed = bucket.wire.defined();
  at::Tensor& sent = compressed ? bucket.wire.copy_(bucket.values) : bucket.values;
  sent.div_(world_size_);
  thread_.submit([this, &bucket, &sent] {
    const auto started = Clock::now();
    if (fault_.record(communicator_.allreduce(buffer_view_of(sent, bucket.wire_dtype),
                                              {plugin::ReduceOp::kSum, nullptr}),
                      "allreduce"))
      fault_.record(communicator_.synchronize(), "synchronize");
    bucket.comm_s = seconds_between(started, Clock::now());
  });
}

ReplayedStep StepReplay::step() {
  ReplayedStep times;
  const auto started = Clock::now();
  busy_work(timeline_.forward_s, work_rate_);
  double done_s = 0;  // backward's work done so far
  for (Bucket& bucket : buckets_) {
    busy_work(bucket.plan.launch_s - done_s, work_rate_);
    done_s = std::max(done_s, bucket.plan.launch_s);
    launch(bucket);
  }
  busy_work(timeline_.backward_compute_s() - done_s, work_rate_);
  const auto backward_end = Clock::now();
  thread_.wait();
  for (Bucket& bucket : buckets_) {
    if (bucket.wire.defined()) bucket.values.copy_(bucket.wire);
    times.comm_s += bucket.comm_s;
  }
  const auto communicated = Clock::now();
  busy_work(timeline_.finalize_s + timeline_.rest_s, work_rate_);
  const auto ended = Clock::now();
  times.total_s = seconds_between(started, ended);
  times.compute_s = seconds_between(started, backward_end);
  times.exposed_comm_s = seconds_between(backward_end, communicated);
  times.rest_s = seconds_between(communicated, ended);
  times.backward_end_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(backward_end.time_since_epoch()).count();
  return times;
}

}  // namespace harness

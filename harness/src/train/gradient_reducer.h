// Gradient reduction of a train step, the way Horovod and PyTorch DDP do it: the gradients
// are grouped into buckets of at most fusion_bytes, in reverse registration order (the last
// layers' gradients are ready first), one allreduce per bucket. With overlap, an autograd
// hook on every parameter packs its gradient into its bucket as backward produces it, and a
// bucket whose gradients are all in is handed to the communication thread at once, while
// backward goes on. Buckets are launched strictly in bucket order (as DDP does) so every rank
// issues the same collectives in the same order. Without overlap, the buckets are packed and
// reduced on the calling thread after backward. Compression casts each bucket to fp16/bf16
// for the allreduce and back. The step's loss rides in the last bucket (one extra element), and
// so does a failure flag (with compression both go in an fp32 allreduce of their own, so that
// the recorded loss is never rounded to the narrow type): a rank whose forward or backward
// raised still takes part in the step's allreduces (the others are waiting in them) with zero
// gradients and the flag set, so every rank learns of the failure at the same step and they
// leave the trial together.
// Without overlap the gradients are views into the buckets (DDP's gradient_as_bucket_view):
// backward writes them in place and nothing is copied in or out; with overlap each hook copies
// its gradient in as it arrives (a view there would be accumulated into twice).
// A backend call that fails on one rank is kept, not thrown (trial/backend_fault.h): the rank
// still makes the step's other calls, and its failure flag travels in the step's status (the
// next step's, when the status had already gone), so every rank leaves at the same step with
// its message.
// Sharded (ZeRO stage 2): each bucket, padded to a whole number of elements per rank, is
// reduce-scattered instead, so that rank r receives block r of the averaged bucket: its
// gradient shard, which its optimizer steps (train/sharded_parameters.h). The model's .grad()
// are then never written back; with overlap they are freed before every step. The loss and
// the failure flag, which every rank needs, travel in an allreduce of their own.
#pragma once

#include <ATen/core/Tensor.h>

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "harness/plugin/communicator.h"
#include "measurement/reduction_memory.h"
#include "spec/train_settings.h"
#include "train/fusion_buffer.h"
#include "train/step_timeline.h"
#include "trial/backend_fault.h"

namespace harness {

class CommunicationThread;

struct ReducerOptions {
  std::size_t fusion_bytes = kDefaultFusionBytes;  // bucket cap in fp32 bytes; 0: per tensor
  bool overlap = false;
  plugin::DType wire = plugin::DType::kFloat32;  // the type the allreduce reduces
  bool sharded = false;  // reduce-scatter into shards instead of allreducing
  int rank = 0, size = 1;
};

// A train trial's fusion_bytes, overlap, compression and strategy, on rank `rank` of `size`.
ReducerOptions reducer_options(const TrainSettings& settings, int rank, int size);

// One step's communication, on this rank.
struct StepCommunication {
  double comm_s = 0;     // time the allreduces took, overlapped or not (sum over buckets)
  double exposed_s = 0;  // waiting for communication after backward ended, unpacking included
};

class GradientReducer {
 public:
  // parameters: in registration order. The timeline may be null; memory too (the buckets are
  // then ordinary memory); fault too (the reducer then keeps its failures itself).
  GradientReducer(std::vector<at::Tensor> parameters, const ReducerOptions& options,
                  plugin::Communicator& communicator, StepTimeline* timeline,
                  ReductionMemory* memory = nullptr, BackendFault* fault = nullptr);
  ~GradientReducer();  // removes the hooks
  GradientReducer(const GradientReducer&) = delete;
  GradientReducer& operator=(const GradientReducer&) = delete;

  // Whether zero_gradients() replaces the optimizer's zero_grad(): .grad() are views into the
  // buckets (no overlap), or the optimizer steps shards whose gradients the reducer holds.
  bool zeroes_gradients() const { return !options_.overlap || options_.sharded; }
  void zero_gradients();
  // Before backward: the step's (local) loss joins the last bucket.
  void begin_step(const at::Tensor& loss);
  // Instead of (or after) begin_step, when this rank's forward or backward raised: buckets not
  // yet handed to the communicator carry zeros, and the failure flag is set.
  void fail_step();
  // After backward: reduces what is left, waits for every bucket and writes the averaged
  // gradients into each parameter's .grad(). A plugin call that fails is kept in fault().
  StepCommunication finish_step();
  // The mean of the ranks' losses, once finish_step returned.
  double global_loss() const;
  // Whether some rank called fail_step in this step, or had a backend call fail in this step
  // or before, once finish_step returned.
  bool any_rank_failed() const;
  // This rank's failed backend calls (the first one's message).
  BackendFault& fault() const { return *fault_; }

  // Bucket b's parameters (in their order in the bucket); under ddp its averaged gradients,
  // laid out as those parameters (fp32; the extra slots left out); sharded: its element count
  // padded to a whole block per rank, and this rank's averaged block of it (fp32).
  std::vector<at::Tensor> bucket_parameters(std::size_t b) const;
  at::Tensor bucket_gradient(std::size_t b) const;
  std::size_t padded_elements(std::size_t b) const;
  // Bucket b's whole buffer as this rank fed it to the collective (fp32, padding included).
  const at::Tensor& bucket_values(std::size_t b) const;
  plugin::DType wire_dtype() const { return options_.wire; }
  const at::Tensor& gradient_shard(std::size_t b) const;
  // The gradient memory this rank holds: buckets, compressed copies, shards, and the model's
  // own .grad() where they are separate tensors kept between steps.
  std::size_t gradient_bytes() const;

  std::size_t bucket_count() const { return buckets_.size(); }
  std::vector<std::size_t> bucket_wire_bytes() const;
  std::size_t wire_bytes_per_step() const;
  std::size_t gradient_elements() const;

 private:
  struct Bucket;
  void plan_buckets(const std::vector<at::Tensor>& parameters, std::size_t fusion_bytes,
                    ReductionMemory* memory);
  void install_hooks();
  void on_gradient(std::size_t parameter, const at::Tensor& gradient);
  void mark_ready(std::size_t bucket);
  void launch_ready_buckets();  // with mutex_ held
  void reduce(std::size_t bucket);
  bool status_apart() const;
  void reduce_status();
  void flag_failure(std::size_t bucket);
  void reset_step();  // with mutex_ held

  using Clock = std::chrono::steady_clock;
  ReducerOptions options_;
  plugin::Communicator& communicator_;
  StepTimeline* timeline_;
  std::vector<at::Tensor> parameters_;
  std::vector<std::unique_ptr<Bucket>> buckets_;
  // The step's mean loss and failure flag: the last bucket's extra slots, or (sharded) a
  // buffer of their own.
  at::Tensor status_;
  // Per parameter: its bucket and its slot there.
  std::vector<std::size_t> bucket_of_, slot_of_;
  std::vector<unsigned> hook_handles_;
  std::unique_ptr<CommunicationThread> thread_;  // with overlap only
  std::unique_ptr<BackendFault> own_fault_;      // when the caller gave none
  BackendFault* fault_;

  std::mutex mutex_;  // the step's state below, shared by hooks and finish_step
  std::size_t next_launch_ = 0;
  bool in_step_ = false;
  bool failed_ = false;  // this rank's forward or backward raised in this step
  double comm_s_ = 0;
};

}  // namespace harness

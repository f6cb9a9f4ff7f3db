// A model's buffers (state that is not trained: BatchNorm's running statistics, positional
// tables) kept equal on every rank the way DDP's broadcast_buffers does: rank 0's copy is
// broadcast before training, and before every step when the trial asks for it. Only fp32
// buffers travel; the others (integer counters) change alike on every rank and the replica
// check compares them.
#pragma once

#include <ATen/core/Tensor.h>

#include <optional>
#include <vector>

#include "record/record_parts.h"
#include "harness/plugin/communicator.h"
#include "train/fusion_buffer.h"
#include "trial/backend_fault.h"

namespace harness {

class BufferSync {
 public:
  // A failed broadcast is kept in `fault`, for the group's next checkpoint.
  BufferSync(const std::vector<at::Tensor>& buffers, bool every_step,
             plugin::Communicator& communicator, BackendFault& fault);

  void broadcast();  // collective over the group: rank 0's values everywhere
  // Before every step, and once after the last (whose forward moved each rank's running
  // statistics its own way), when the trial keeps them in step. Whether it sent anything.
  bool keep_in_step() {
    if (!every_step_ || !fp32_) return false;
    broadcast();
    return true;
  }
  BackendFault& fault() const { return fault_; }
  // The record's account of the buffers: how many, how large, how they are kept in step.
  ModelBuffersRecord describe() const;

 private:
  std::size_t tensors_ = 0, elements_ = 0;
  bool every_step_;
  plugin::Communicator& communicator_;
  BackendFault& fault_;
  std::optional<FusionBuffer> fp32_;  // absent when the model has no fp32 buffer
};

}  // namespace harness

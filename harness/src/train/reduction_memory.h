// Where the host places a buffer its communicator reduces: in memory the communicator
// provides (Communicator::provide_memory, e.g. a segment every rank of the host maps, so the
// shm backend reduces it without staging copies), or in ordinary memory where it provides
// none. Each tensor keeps the communicator alive until the tensor's storage is freed.
#pragma once

#include <ATen/core/Tensor.h>

#include <memory>

#include "harness/plugin/communicator.h"

namespace harness {

class ReductionMemory {
 public:
  // Without a communicator every tensor is ordinary memory.
  explicit ReductionMemory(std::shared_ptr<plugin::Communicator> communicator = nullptr)
      : communicator_(std::move(communicator)) {}

  // A zeroed 1-D tensor of `count` elements. Collective over the communicator's group when
  // it lives on the CPU: every rank asks for the same sizes in the same order.
  at::Tensor zeros(std::int64_t count, const at::TensorOptions& options);

  // "communicator" once any tensor came from the communicator's memory, else "host".
  const char* describe() const { return provided_ ? "communicator" : "host"; }

 private:
  std::shared_ptr<plugin::Communicator> communicator_;
  bool provided_ = false;
};

}  // namespace harness

// Where the host places a buffer its communicator reduces: in memory the communicator
// provides (Communicator::provide_memory, e.g. a segment every rank of the host maps, so the
// shm backend reduces it without staging copies), or in ordinary memory where it provides
// none. Each tensor keeps the communicator alive until the tensor's storage is freed.
#pragma once

#include <ATen/core/Tensor.h>

#include <memory>
#include <string>

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

  // Where the buffers lie: "communicator" (every one in the communicator's memory), "host"
  // (none), or "mixed: ..." with how many of each and their bytes, when the communicator could
  // not provide some (a buffer larger than /dev/shm holds, for shm).
  std::string describe() const;

 private:
  struct Tally {
    std::size_t buffers = 0;
    std::size_t bytes = 0;
  };
  std::shared_ptr<plugin::Communicator> communicator_;
  Tally provided_, host_;
};

}  // namespace harness

// One collective of the harness backend as PyTorch sees it: a c10d::Work and the future DDP's
// reducer waits on (getFuture), both completed by the queue (collective_queue.h) when the
// plugin's call returns, or failed with the plugin's message, a peer's, or the timeout's.
#pragma once

#include <ATen/core/ivalue.h>
#include <torch/csrc/distributed/c10d/Work.hpp>

#include <chrono>
#include <string>
#include <vector>

namespace harness::torch_binding {

class CollectiveWork final : public c10d::Work {
 public:
  CollectiveWork(int rank, c10d::OpType type, std::vector<at::Tensor> outputs);

  // Blocks until the queue completes or fails this work (the queue itself enforces the process
  // group's timeout); rethrows its failure. A shorter `timeout` ends the wait early with an error.
  bool wait(std::chrono::milliseconds timeout) override;
  c10::intrusive_ptr<c10::ivalue::Future> getFuture() override { return future_; }
  std::vector<at::Tensor> result() override { return outputs_; }

  // The queue's side: exactly one of them, once (wakes wait())...
  void succeed();
  void fail(const std::string& message);
  // ...then, once, the future: its callbacks run here, and may call and wait on another
  // collective, so the queue never calls this on the thread that runs the calls.
  void complete_future();

 private:
  std::vector<at::Tensor> outputs_;
  c10::intrusive_ptr<c10::ivalue::Future> future_;
};

}  // namespace harness::torch_binding

#include "collective_work.h"

#include <stdexcept>

namespace harness::torch_binding {

CollectiveWork::CollectiveWork(int rank, c10d::OpType type, std::vector<at::Tensor> outputs)
    : c10d::Work(rank, type),
      outputs_(std::move(outputs)),
      future_(c10::make_intrusive<c10::ivalue::Future>(c10::ListType::ofTensors())) {}

bool CollectiveWork::wait(std::chrono::milliseconds timeout) {
  std::unique_lock<std::mutex> lock(mutex_);
  const auto done = [this] {
    return completed_;
  };
  if (timeout == kNoTimeout) {
    cv_.wait(lock, done);
  } else if (!cv_.wait_for(lock, timeout, done)) {
    throw std::runtime_error("harness: a collective did not complete within the " +
                             std::to_string(timeout.count()) + " ms its wait allowed");
  }
  if (exception_) std::rethrow_exception(exception_);
  return true;
}

void CollectiveWork::succeed() { finish(); }

void CollectiveWork::fail(const std::string& message) {
  finish(std::make_exception_ptr(std::runtime_error(message)));
}

void CollectiveWork::complete_future() {
  std::exception_ptr error;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    error = exception_;
  }
  if (error)
    future_->setError(error);
  else
    future_->markCompleted(c10::IValue(outputs_));
}

}  // namespace harness::torch_binding

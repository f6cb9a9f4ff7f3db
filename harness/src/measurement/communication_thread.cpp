#include "measurement/communication_thread.h"

#include <utility>

namespace harness {

CommunicationThread::CommunicationThread() : thread_([this] { run(); }) {}

CommunicationThread::~CommunicationThread() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  work_ready_.notify_one();
  thread_.join();
}

void CommunicationThread::submit(std::function<void()> job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    queue_.push_back(std::move(job));
  }
  work_ready_.notify_one();
}

void CommunicationThread::wait() {
  std::unique_lock<std::mutex> lock(mutex_);
  idle_.wait(lock, [this] { return queue_.empty() && running_ == 0; });
  std::exception_ptr error = std::exchange(error_, nullptr);
  lock.unlock();
  if (error) std::rethrow_exception(error);
}

void CommunicationThread::run() {
  std::unique_lock<std::mutex> lock(mutex_);
  for (;;) {
    work_ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
    if (queue_.empty()) return;  // stopping, nothing left
    std::function<void()> job = std::move(queue_.front());
    queue_.pop_front();
    if (error_) {  // the batch already failed: drop the job
      if (queue_.empty()) idle_.notify_all();
      continue;
    }
    ++running_;
    lock.unlock();
    std::exception_ptr error;
    try {
      job();
    } catch (...) {
      error = std::current_exception();
    }
    lock.lock();
    --running_;
    if (error && !error_) error_ = error;
    if (queue_.empty()) idle_.notify_all();
  }
}

}  // namespace harness

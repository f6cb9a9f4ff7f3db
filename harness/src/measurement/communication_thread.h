// One background thread that runs submitted jobs in submission order (Horovod's background
// communication thread): during a step it is the only caller of the communicator, so plugins
// stay synchronous and single-threaded while backward keeps computing. After a job throws,
// the rest of the batch is dropped (its collectives would only wait for the failed one) and
// wait() rethrows the first error.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>

namespace harness {

class CommunicationThread {
 public:
  CommunicationThread();
  ~CommunicationThread();  // finishes queued jobs, then joins
  CommunicationThread(const CommunicationThread&) = delete;
  CommunicationThread& operator=(const CommunicationThread&) = delete;

  void submit(std::function<void()> job);
  // Blocks until every submitted job has run (or was dropped after an error); rethrows the
  // first error of the batch and starts a clean one.
  void wait();

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable work_ready_;
  std::condition_variable idle_;
  std::deque<std::function<void()>> queue_;
  std::size_t running_ = 0;
  bool stopping_ = false;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts after the members it uses exist
};

}  // namespace harness

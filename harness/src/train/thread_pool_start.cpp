#include "train/thread_pool_start.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "common/failure_text.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

// Empty when `count` threads can run at once (each with the default stack, as the pool's);
// else how many could and why the next could not.
std::string thread_start_problem(unsigned count) {
  std::mutex mutex;
  std::condition_variable release;
  bool done = false;
  std::vector<std::thread> started;
  std::string problem;
  try {
    while (started.size() < count)
      started.emplace_back([&] {
        std::unique_lock<std::mutex> lock(mutex);
        release.wait(lock, [&] { return done; });
      });
  } catch (const std::system_error& e) {
    problem = "cannot start the " + std::to_string(count) +
              " threads LibTorch's thread pool needs: thread " +
              std::to_string(started.size() + 1) + " failed (" + e.what() + ")";
    if (const std::string limit = address_space_limit_text(); !limit.empty())
      problem += "; " + limit;
  }
  {
    std::lock_guard<std::mutex> lock(mutex);
    done = true;
  }
  release.notify_all();
  for (auto& thread : started) thread.join();
  return problem;
}

}  // namespace

GroupProblem start_thread_pool(int threads, const TrialContext& context) {
  // The pool first starts one thread per core, then resizes to `threads`.
  const unsigned needed = std::max(std::thread::hardware_concurrency(), unsigned(threads));
  GroupProblem local;
  if (std::string problem = thread_start_problem(needed); !problem.empty()) {
    local = {TrialStatus::kFailed, problem};
  } else {
    WatchedOperation watched(context.watchdog, "start of LibTorch's thread pool", 0, context.size);
    at::set_num_threads(threads);
  }
  return agree_on_problem(context.comm, local, context.watchdog);
}

}  // namespace harness

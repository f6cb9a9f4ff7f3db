// A deadline for work no collective watches: a model's methods while the experiment is
// validated, before any trial (and the watchdog) starts. LibTorch cannot interrupt a forward
// that never returns, so when the deadline passes the job ends with kExitHung and a message
// naming what was running, instead of hanging with no word.
#pragma once

#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

namespace harness {

class Deadline {
 public:
  // subject: what the work belongs to ('model "torchscript" (x.pt)'); timeout_s <= 0: off.
  Deadline(double timeout_s, std::string subject);
  ~Deadline();  // the work ended in time
  Deadline(const Deadline&) = delete;
  Deadline& operator=(const Deadline&) = delete;

  // What is running now, for the message ("forward() in training mode").
  void set_activity(const std::string& activity);

 private:
  void wait(double timeout_s);
  [[noreturn]] void expire(double timeout_s);

  std::string subject_;
  std::mutex mutex_;
  std::condition_variable ended_;
  bool done_ = false;
  std::string activity_;
  std::thread thread_;
};

}  // namespace harness

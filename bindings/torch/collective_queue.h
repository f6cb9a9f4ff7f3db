// The order and the clock of the harness process group's collectives. PyTorch calls a process
// group's collectives in the same order on every rank and expects them to return at once (DDP
// launches a bucket's allreduce while backward goes on): each is queued here and run by one
// thread in that order, each rank's plugin meeting its peers' in the same sequence.
//
// A call's Work completes on the thread that runs the calls; its future on other threads, so
// that a future's callback may run (and wait on) another collective, as DDP's PowerSGD hook does.
//
// A failure must end every rank's wait, never leave one hanging: a rank whose call failed
// announces it through the store, and a watcher thread fails the call in flight (and everything
// queued behind it) when a peer announced a failure or when the call outlives the process
// group's timeout. The group is then broken: later calls fail at once with the first reason. A
// plugin call that never returns cannot be taken back (a plugin has no abort): its thread is
// left behind, holding the communicator, when the group goes.
//
// A thread that drops a tensor's last reference takes the GIL to free its Python object. While
// the interpreter finalizes, Python ends any thread that asks for the GIL (pthread_exit), and an
// end inside a destructor aborts the process. So, before it finalizes, the queues settle
// (settle_before_interpreter_exit, which harness_torch registers with atexit): their threads
// finish dropping what they hold, then keep whatever they are handed afterwards.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "collective_work.h"
#include "harness/plugin/status.h"

namespace harness::torch_binding {

class CollectiveQueue {
 public:
  struct Peers {
    std::function<std::string()> failure;              // a failure a peer announced, or ""
    std::function<void(const std::string&)> announce;  // this rank's failure, for the peers
  };
  CollectiveQueue(std::chrono::milliseconds timeout, Peers peers);
  ~CollectiveQueue();
  CollectiveQueue(const CollectiveQueue&) = delete;
  CollectiveQueue& operator=(const CollectiveQueue&) = delete;

  // `run` makes the plugin call (and copies results where they belong); `what` names it in
  // messages ("harness:shm allreduce").
  using Run = std::function<plugin::Status()>;
  void enqueue(c10::intrusive_ptr<CollectiveWork> work, std::string what, Run run);

  // Waits, up to `limit`, until every queue (those of destroyed process groups included) has
  // no call queued or in flight and its threads hold no call or Work, then has the threads keep
  // all they would drop from then on. Call without the GIL, before the interpreter finalizes.
  static void settle_before_interpreter_exit(std::chrono::milliseconds limit);

 private:
  struct State;  // shared with the threads, so that a thread left behind never outlives it
  std::shared_ptr<State> state_;
  std::thread runner_, watcher_;
};

}  // namespace harness::torch_binding

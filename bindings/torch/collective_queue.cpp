#include "collective_queue.h"

#include <exception>
#include <utility>
#include <vector>

namespace harness::torch_binding {

struct CollectiveQueue::State {
  struct Item {
    c10::intrusive_ptr<CollectiveWork> work;
    std::string what;
    Run run;
  };

  State(std::chrono::milliseconds limit, Peers group) : timeout(limit), peers(std::move(group)) {}

  void run_calls();
  void watch_calls();
  // Fails the call in flight and every queued one with `reason` (mutex held; the works are
  // failed by the caller, outside it, into `failed`).
  void break_group(const std::string& reason, std::vector<Item>* failed);

  const std::chrono::milliseconds timeout;
  const Peers peers;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queued;
  std::shared_ptr<Item> in_flight;
  std::chrono::steady_clock::time_point started;
  std::string broken;  // why the group failed, once it has
  bool stopping = false;
};

namespace {

constexpr std::chrono::milliseconds kWatchInterval{100};

plugin::Status run_guarded(const CollectiveQueue::Run& run) {
  try {
    return run();
  } catch (const std::exception& e) {
    return plugin::Status::internal(e.what());
  }
}

}  // namespace

void CollectiveQueue::State::break_group(const std::string& reason, std::vector<Item>* failed) {
  if (broken.empty()) broken = reason;
  if (in_flight) failed->push_back(*in_flight);
  in_flight.reset();
  for (Item& item : queued) failed->push_back(std::move(item));
  queued.clear();
}

void CollectiveQueue::State::run_calls() {
  for (;;) {
    std::shared_ptr<Item> item;
    {
      std::unique_lock<std::mutex> lock(mutex);
      changed.wait(lock, [&] { return stopping || !queued.empty(); });
      if (queued.empty()) return;
      item = std::make_shared<Item>(std::move(queued.front()));
      queued.pop_front();
      in_flight = item;
      started = std::chrono::steady_clock::now();
    }
    const plugin::Status status = run_guarded(item->run);
    std::vector<Item> failed;
    std::string reason;
    {
      std::lock_guard<std::mutex> lock(mutex);
      if (in_flight != item) {
        // The watcher failed it already, and this thread may be running on past the group,
        // into the interpreter's exit: dropping the call's tensors here could call into a
        // Python that is gone. A failed group's last call is left to the process's end.
        static_cast<void>(new std::shared_ptr<Item>(std::move(item)));  // never freed
        continue;
      }
      in_flight.reset();
      if (!status.is_ok()) {
        reason = item->what + ": " + status.message();
        break_group(reason, &failed);
      }
    }
    if (status.is_ok()) {
      item->work->succeed();
      continue;
    }
    peers.announce(reason);
    item->work->fail(reason);
    for (Item& other : failed)
      other.work->fail("harness: not run, an earlier collective failed (" + reason + ")");
  }
}

void CollectiveQueue::State::watch_calls() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    changed.wait_for(lock, kWatchInterval);
    if (stopping || !in_flight) continue;
    const std::shared_ptr<Item> watched = in_flight;
    const auto elapsed = std::chrono::steady_clock::now() - started;
    lock.unlock();
    const std::string peer = peers.failure();
    lock.lock();
    if (in_flight != watched) continue;  // it completed meanwhile
    std::string reason;
    if (!peer.empty())
      reason = watched->what + " failed because a peer's collective failed: " + peer;
    else if (elapsed > timeout)
      reason = watched->what + " did not complete within the process group's timeout (" +
               std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
               " s): a peer is missing, or stopped calling collectives in this order";
    if (reason.empty()) continue;
    std::vector<Item> failed;
    break_group(reason, &failed);
    lock.unlock();
    if (peer.empty()) peers.announce(reason);
    for (Item& item : failed) item.work->fail(reason);
    lock.lock();
  }
}

CollectiveQueue::CollectiveQueue(std::chrono::milliseconds timeout, Peers peers)
    : state_(std::make_shared<State>(timeout, std::move(peers))) {
  runner_ = std::thread([state = state_] { state->run_calls(); });
  watcher_ = std::thread([state = state_] { state->watch_calls(); });
}

CollectiveQueue::~CollectiveQueue() {
  bool stuck = false;
  std::vector<State::Item> failed;
  const std::string reason = "harness: the process group was destroyed during this collective";
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    state_->stopping = true;
    stuck = static_cast<bool>(state_->in_flight) || !state_->broken.empty();
    // Taken from the runner, which then leaves the call's tensors alone when it returns.
    if (state_->in_flight) state_->break_group(reason, &failed);
  }
  state_->changed.notify_all();
  for (State::Item& item : failed) item.work->fail(reason);
  watcher_.join();
  // A call that never returned keeps its thread (and, through it, the state and the plugin)
  // for the rest of the process: joining it would hang the interpreter's exit.
  if (stuck)
    runner_.detach();
  else
    runner_.join();
}

void CollectiveQueue::enqueue(c10::intrusive_ptr<CollectiveWork> work, std::string what, Run run) {
  std::string broken;
  {
    std::lock_guard<std::mutex> lock(state_->mutex);
    broken = state_->broken;
    if (broken.empty()) state_->queued.push_back({work, std::move(what), std::move(run)});
  }
  if (!broken.empty()) {
    work->fail("harness: the process group failed earlier (" + broken + ")");
    return;
  }
  state_->changed.notify_all();
}

}  // namespace harness::torch_binding

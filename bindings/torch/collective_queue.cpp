#include "collective_queue.h"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <exception>
#include <memory>
#include <utility>
#include <vector>

namespace harness::torch_binding {

struct CollectiveQueue::State : std::enable_shared_from_this<CollectiveQueue::State> {
  struct Item {
    c10::intrusive_ptr<CollectiveWork> work;
    std::string what;
    Run run;
  };

  State(std::chrono::milliseconds limit, Peers group) : timeout(limit), peers(std::move(group)) {}

  void run_calls();
  void watch_calls();
  void complete_futures();
  // Hands `works`' futures to the completing thread, in this order.
  void complete_later(std::vector<c10::intrusive_ptr<CollectiveWork>> works);
  // Fails the call in flight and every queued one with `reason` (mutex held; the works are
  // failed by the caller, outside it, into `failed`).
  void break_group(const std::string& reason, std::vector<Item>* failed);
  // From now on the threads keep what they would drop (settle_before_interpreter_exit). True
  // once no call is queued or in flight and no thread holds a call or a Work; until then
  // nothing changes, unless `anyway`.
  bool settle(bool anyway);
  // Dropped here, or kept for the rest of the process once the queue has settled.
  template <typename Held>
  void let_go(Held& held);

  const std::chrono::milliseconds timeout;
  const Peers peers;
  std::mutex mutex;
  std::condition_variable changed;
  std::deque<Item> queued;
  std::shared_ptr<Item> in_flight;
  std::uint64_t calls_started = 0;  // tells the watcher one call in flight from the next
  std::chrono::steady_clock::time_point started;
  std::string broken;  // why the group failed, once it has
  bool stopping = false;
  bool runner_holding = false;   // a call returned and the runner still holds its item
  bool watcher_holding = false;  // the watcher failed calls and still holds them
  std::atomic<bool> settled{false};  // the interpreter exits: keep, never drop

  // Futures complete on threads of their own: a future's callback (DDP's PowerSGD hook,
  // fut.then(...)) may launch another collective and wait on it, or on its future, which the
  // runner and another completing thread must be free to complete. A thread is added whenever
  // every one is inside a callback, so there are never more than callbacks waiting at once,
  // plus one. The Work itself (wait()) completes on the runner, before.
  std::mutex futures_mutex;
  std::condition_variable futures_changed;
  std::deque<c10::intrusive_ptr<CollectiveWork>> futures;
  std::vector<std::thread> completers;
  std::size_t live_completers = 0;  // detached ones included
  std::size_t idle_completers = 0;
  bool futures_stopping = false;
};

namespace {

constexpr std::chrono::milliseconds kWatchInterval{100};

// Every queue's state that a queue or one of its threads still holds (a State, which is
// private to the queue).
std::mutex live_states_mutex;
std::vector<std::weak_ptr<void>> live_states;

template <typename Held>
void keep_forever(Held& held) {
  static_cast<void>(new Held(std::move(held)));  // never freed
}

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

template <typename Held>
void CollectiveQueue::State::let_go(Held& held) {
  if (settled)
    keep_forever(held);
  else
    held = Held();
}

bool CollectiveQueue::State::settle(bool anyway) {
  std::lock_guard<std::mutex> lock(mutex);
  std::lock_guard<std::mutex> futures_lock(futures_mutex);
  // Futures left when every completer is gone (the group was destroyed) are never completed.
  const bool holding = in_flight || !queued.empty() || runner_holding || watcher_holding ||
                       (live_completers > 0 && !futures.empty()) ||
                       idle_completers != live_completers;
  if (holding && !anyway) return false;
  settled = true;
  return !holding;
}

void CollectiveQueue::State::run_calls() {
  for (;;) {
    std::shared_ptr<Item> item;
    {
      std::unique_lock<std::mutex> lock(mutex);
      runner_holding = false;
      changed.wait(lock, [&] { return stopping || !queued.empty(); });
      if (queued.empty()) return;
      item = std::make_shared<Item>(std::move(queued.front()));
      queued.pop_front();
      in_flight = item;
      ++calls_started;
      started = std::chrono::steady_clock::now();
    }
    const plugin::Status status = run_guarded(item->run);
    std::vector<Item> failed;
    std::string reason;
    {
      std::lock_guard<std::mutex> lock(mutex);
      runner_holding = true;
      if (in_flight != item) {
        // The watcher failed it already, and this thread may be running on past the group,
        // into the interpreter's exit: dropping the call's tensors here could call into a
        // Python that is gone. A failed group's last call is left to the process's end.
        keep_forever(item);
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
      complete_later({item->work});
      let_go(item);
      continue;
    }
    peers.announce(reason);
    item->work->fail(reason);
    std::vector<c10::intrusive_ptr<CollectiveWork>> works{item->work};
    for (Item& other : failed) {
      other.work->fail("harness: not run, an earlier collective failed (" + reason + ")");
      works.push_back(other.work);
    }
    complete_later(std::move(works));
    let_go(item);
    let_go(failed);
  }
}

void CollectiveQueue::State::complete_later(std::vector<c10::intrusive_ptr<CollectiveWork>> works) {
  if (works.empty()) return;
  {
    std::lock_guard<std::mutex> lock(futures_mutex);
    for (auto& work : works) futures.push_back(std::move(work));
    if (idle_completers == 0 && !futures_stopping) {
      completers.emplace_back([state = shared_from_this()] { state->complete_futures(); });
      ++live_completers;
    }
  }
  futures_changed.notify_one();
}

void CollectiveQueue::State::complete_futures() {
  std::unique_lock<std::mutex> lock(futures_mutex);
  for (;;) {
    ++idle_completers;
    futures_changed.wait(lock, [&] { return futures_stopping || !futures.empty(); });
    --idle_completers;
    if (futures.empty()) {
      --live_completers;
      return;
    }
    c10::intrusive_ptr<CollectiveWork> work = std::move(futures.front());
    futures.pop_front();
    lock.unlock();
    work->complete_future();
    let_go(work);  // the last reference may go here, as it would have on the runner
    lock.lock();
  }
}

void CollectiveQueue::State::watch_calls() {
  std::unique_lock<std::mutex> lock(mutex);
  while (!stopping) {
    changed.wait_for(lock, kWatchInterval);
    if (stopping || !in_flight) continue;
    // Noted, not held: a reference here could be a call's last, dropped by this thread.
    const std::uint64_t watched = calls_started;
    const std::string what = in_flight->what;
    const auto elapsed = std::chrono::steady_clock::now() - started;
    lock.unlock();
    const std::string peer = peers.failure();
    lock.lock();
    if (!in_flight || calls_started != watched) continue;  // it completed meanwhile
    std::string reason;
    if (!peer.empty())
      reason = what + " failed because a peer's collective failed: " + peer;
    else if (elapsed > timeout)
      reason = what + " did not complete within the process group's timeout (" +
               std::to_string(std::chrono::duration_cast<std::chrono::seconds>(timeout).count()) +
               " s): a peer is missing, or stopped calling collectives in this order";
    if (reason.empty()) continue;
    std::vector<Item> failed;
    break_group(reason, &failed);
    watcher_holding = true;
    lock.unlock();
    if (peer.empty()) peers.announce(reason);
    std::vector<c10::intrusive_ptr<CollectiveWork>> works;
    for (Item& item : failed) {
      item.work->fail(reason);
      works.push_back(item.work);
    }
    complete_later(std::move(works));
    let_go(failed);
    lock.lock();
    watcher_holding = false;
  }
}

CollectiveQueue::CollectiveQueue(std::chrono::milliseconds timeout, Peers peers)
    : state_(std::make_shared<State>(timeout, std::move(peers))) {
  {
    std::lock_guard<std::mutex> lock(live_states_mutex);
    live_states.erase(std::remove_if(live_states.begin(), live_states.end(),
                                     [](const auto& state) { return state.expired(); }),
                      live_states.end());
    live_states.push_back(state_);
  }
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
  std::vector<c10::intrusive_ptr<CollectiveWork>> works;
  for (State::Item& item : failed) {
    item.work->fail(reason);
    works.push_back(item.work);
  }
  state_->complete_later(std::move(works));
  watcher_.join();
  // A call that never returned keeps its thread (and, through it, the state and the plugin)
  // for the rest of the process: joining it would hang the interpreter's exit.
  if (stuck)
    runner_.detach();
  else
    runner_.join();
  // The futures left complete first. A thread inside a callback that never returns is left
  // behind, as a call that never returns is: joining it would hang the interpreter's exit.
  std::vector<std::thread> completers;
  bool busy = false;
  {
    std::lock_guard<std::mutex> lock(state_->futures_mutex);
    state_->futures_stopping = true;
    completers.swap(state_->completers);
    busy = state_->idle_completers < completers.size();
  }
  state_->futures_changed.notify_all();
  for (std::thread& completer : completers) {
    if (busy)
      completer.detach();
    else
      completer.join();
  }
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

void CollectiveQueue::settle_before_interpreter_exit(std::chrono::milliseconds limit) {
  std::vector<std::shared_ptr<State>> states;
  {
    std::lock_guard<std::mutex> lock(live_states_mutex);
    for (const auto& live : live_states)
      if (auto state = live.lock()) states.push_back(std::static_pointer_cast<State>(state));
  }
  // A queue still busy at the deadline (a call that never returns, a future's callback that
  // never does) is not waited for: the exit is not held up by it.
  const auto deadline = std::chrono::steady_clock::now() + limit;
  while (!states.empty()) {
    const bool late = std::chrono::steady_clock::now() >= deadline;
    states.erase(std::remove_if(states.begin(), states.end(),
                                [late](const auto& state) { return state->settle(late) || late; }),
                 states.end());
    if (!states.empty()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

}  // namespace harness::torch_binding

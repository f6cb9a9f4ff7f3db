// The communication thread: jobs run in submission order on one thread that is not the
// caller's, wait() rethrows the batch's first error after dropping the rest of the batch, and
// the next batch starts clean.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <thread>
#include <vector>

#include "measurement/communication_thread.h"

namespace harness {
namespace {

TEST(CommunicationThread, RunsJobsInOrderOnItsOwnThread) {
  CommunicationThread thread;
  std::vector<int> order;
  std::vector<std::thread::id> ran_on;
  for (int i = 0; i < 100; ++i)
    thread.submit([&, i] {
      order.push_back(i);
      ran_on.push_back(std::this_thread::get_id());
    });
  thread.wait();
  ASSERT_EQ(order.size(), 100u);
  for (int i = 0; i < 100; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
  for (const auto& id : ran_on) {
    EXPECT_NE(id, std::this_thread::get_id());
    EXPECT_EQ(id, ran_on.front());
  }
}

TEST(CommunicationThread, AnErrorDropsTheRestOfTheBatchAndIsRethrownOnce) {
  CommunicationThread thread;
  std::atomic<int> ran{0};
  thread.submit([&] { ++ran; });
  thread.submit([] { throw std::runtime_error("allreduce failed"); });
  thread.submit([&] { ++ran; });
  try {
    thread.wait();
    ADD_FAILURE() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "allreduce failed");
  }
  EXPECT_EQ(ran.load(), 1);
  thread.submit([&] { ++ran; });
  EXPECT_NO_THROW(thread.wait());
  EXPECT_EQ(ran.load(), 2);
}

TEST(CommunicationThread, DestructionFinishesQueuedJobs) {
  std::atomic<int> ran{0};
  {
    CommunicationThread thread;
    for (int i = 0; i < 10; ++i) thread.submit([&] { ++ran; });
  }
  EXPECT_EQ(ran.load(), 10);
}

}  // namespace
}  // namespace harness

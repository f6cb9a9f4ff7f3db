// The watchdog's line to rank 0 (mpi/report_channel.h): every rank connects, messages arrive
// whole and from the rank that sent them, and rank 0's receive never blocks.
#include <gtest/gtest.h>
#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <thread>
#include <vector>

#include "mpi/report_channel.h"

namespace {

struct Message {
  std::int32_t rank = -1;
  std::int32_t sequence = -1;
  char padding[200] = {};  // more than one small read's worth
};

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

TEST(ReportChannel, EveryRanksMessagesReachRankZeroWholeAndInOrder) {
  constexpr int kMessages = 50;
  harness::ReportChannel channel(MPI_COMM_WORLD, sizeof(Message));
  ASSERT_TRUE(channel.open()) << channel.problem();
  const int rank = world_rank(), size = world_size();
  if (rank != 0) {
    for (int i = 0; i < kMessages; ++i) {
      Message message;
      message.rank = rank;
      message.sequence = i;
      message.padding[sizeof message.padding - 1] = static_cast<char>(i);
      ASSERT_TRUE(channel.send(&message));
    }
  } else {
    std::vector<int> next(static_cast<std::size_t>(size), 0);
    int received = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (received < kMessages * (size - 1) && std::chrono::steady_clock::now() < deadline) {
      Message message;
      if (!channel.receive(&message)) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        continue;
      }
      ASSERT_GT(message.rank, 0);
      ASSERT_LT(message.rank, size);
      EXPECT_EQ(message.sequence, next[static_cast<std::size_t>(message.rank)]++);
      EXPECT_EQ(message.padding[sizeof message.padding - 1], static_cast<char>(message.sequence));
      ++received;
    }
    EXPECT_EQ(received, kMessages * (size - 1));
    Message extra;
    EXPECT_FALSE(channel.receive(&extra)) << "a message arrived that no rank sent";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

TEST(ReportChannel, ARankThatHungUpIsDroppedWithoutBlockingRankZero) {
  // Each member sends one message and closes its end at once (as a process that died would):
  // rank 0 still gets every message, then nothing, and never blocks.
  auto channel = std::make_unique<harness::ReportChannel>(MPI_COMM_WORLD, sizeof(Message));
  ASSERT_TRUE(channel->open()) << channel->problem();
  const int rank = world_rank(), size = world_size();
  if (rank != 0) {
    Message message;
    message.rank = rank;
    message.sequence = 0;
    ASSERT_TRUE(channel->send(&message));
    channel.reset();
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int received = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(30);
    while (received < size - 1 && std::chrono::steady_clock::now() < deadline) {
      Message message;
      if (channel->receive(&message))
        ++received;
      else
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
    }
    EXPECT_EQ(received, size - 1);
    for (int i = 0; i < 3; ++i) {  // the hung-up ends read as closed, not as messages
      Message message;
      EXPECT_FALSE(channel->receive(&message));
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

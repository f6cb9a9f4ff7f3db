// The quiet-machine gate with scripted canary readings: it waits out a spell before measuring
// (until a reading well inside the threshold), measures again when a spell began meanwhile,
// keeps and marks what its budget cannot make quiet, only observes with wait_s 0, and decides
// the same on every rank of the group.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "mpi_test_util.h"
#include "trial/quiet_gate.h"

namespace harness {
namespace {

using testing::world_rank;

// Readings in order, then full speed.
std::function<double()> scripted(std::vector<double> readings) {
  auto next = std::make_shared<std::size_t>(0);
  return [readings, next] {
    return *next < readings.size() ? readings[(*next)++] : 1.0;
  };
}

QuietGateSettings settings(double wait_s) { return {1.25, wait_s}; }

TEST(QuietGate, WaitsForTheSpellToEndBeforeMeasuring) {
  QuietGate gate(settings(10), MPI_COMM_SELF, nullptr, scripted({2.0, 1.9, 1.0, 1.1}));
  int calls = 0;
  EXPECT_EQ(gate.measure([&] { return ++calls; }), 1);
  EXPECT_TRUE(gate.last_quiet());
  EXPECT_DOUBLE_EQ(gate.last_slowdown(), 1.1);
  const MachineSpeedRecord summary = gate.summary();
  EXPECT_EQ(summary.gate, "on");
  EXPECT_EQ(summary.retries, 0);
  EXPECT_GT(summary.waited_s, 0.03);  // two pauses of 20 ms
}

TEST(QuietGate, AfterASpellWaitsForAReadingWellInsideTheThreshold) {
  // Threshold 1.25: after the spell's 2.0, 1.2 is under the threshold but still flickering;
  // only 1.1 (under 1.125, half way to full speed) lets the measurement start.
  QuietGate gate(settings(10), MPI_COMM_SELF, nullptr, scripted({2.0, 1.2, 1.1, 1.0}));
  int calls = 0;
  EXPECT_EQ(gate.measure([&] { return ++calls; }), 1);
  EXPECT_DOUBLE_EQ(gate.last_slowdown(), 1.1);
  EXPECT_GT(gate.summary().waited_s, 0.03);  // two pauses of 20 ms
}

TEST(QuietGate, AReadingUnderTheThresholdWithoutASpellMeasuresAtOnce) {
  QuietGate gate(settings(10), MPI_COMM_SELF, nullptr, scripted({1.2, 1.0}));
  int calls = 0;
  EXPECT_EQ(gate.measure([&] { return ++calls; }), 1);
  EXPECT_TRUE(gate.last_quiet());
  EXPECT_DOUBLE_EQ(gate.last_slowdown(), 1.2);
  EXPECT_EQ(gate.summary().waited_s, 0.0);
}

TEST(QuietGate, MeasuresAgainWhenASpellBeganDuringTheMeasurement) {
  QuietGate gate(settings(10), MPI_COMM_SELF, nullptr, scripted({1.0, 2.5, 1.0, 1.0}));
  int calls = 0;
  EXPECT_EQ(gate.measure([&] { return ++calls; }), 2);
  EXPECT_TRUE(gate.last_quiet());
  EXPECT_EQ(gate.summary().retries, 1);
  EXPECT_EQ(gate.summary().measurements, 1);
}

TEST(QuietGate, KeepsAndMarksWhatTheBudgetCannotMakeQuiet) {
  QuietGate gate(settings(0.05), MPI_COMM_SELF, nullptr, [] { return 2.0; });
  int calls = 0;
  EXPECT_EQ(gate.measure([&] { return ++calls; }), 1);
  EXPECT_FALSE(gate.last_quiet());
  EXPECT_DOUBLE_EQ(gate.last_slowdown(), 2.0);
  EXPECT_EQ(gate.summary().not_quiet, 1);
  EXPECT_DOUBLE_EQ(gate.summary().slowdown.value_or(0), 2.0);
}

TEST(QuietGate, OnlyObservesWithoutABudget) {
  QuietGate gate(settings(0), MPI_COMM_SELF, nullptr, scripted({1.0, 3.0}));
  int calls = 0;
  gate.measure([&] { return ++calls; });
  EXPECT_EQ(calls, 1);
  EXPECT_FALSE(gate.last_quiet());
  EXPECT_EQ(gate.summary().waited_s, 0.0);
}

TEST(QuietGate, TheGroupAgreesOnTheSlowestRank) {
  // Only rank 1 is in a spell, for its first two readings; every rank must wait alike.
  const bool slow = world_rank() == 1;
  QuietGate gate(settings(10), MPI_COMM_WORLD, nullptr,
                 scripted(slow ? std::vector<double>{3.0, 3.0} : std::vector<double>{}));
  int calls = 0;
  gate.measure([&] { return ++calls; });
  EXPECT_EQ(calls, 1);
  if (!gate.active()) {  // more ranks than CPUs on this machine
    EXPECT_NE(gate.summary().gate.find("share"), std::string::npos);
    return;
  }
  const double waited = gate.summary().waited_s;
  if (testing::world_size() > 1) {
    EXPECT_GT(waited, 0.03);
  }
  double most = 0, least = 0;
  MPI_Allreduce(&waited, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(&waited, &least, 1, MPI_DOUBLE, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_DOUBLE_EQ(most, least);
}

}  // namespace
}  // namespace harness

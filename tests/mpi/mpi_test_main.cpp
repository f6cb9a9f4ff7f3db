// GoogleTest under mpirun: every rank runs every test (they are collective); only rank 0
// prints, and the job fails if any rank failed. A fatal failure on one rank aborts the whole
// job at once (see AbortOnFatalFailure), so no rank is left waiting in a collective.
#include <gtest/gtest.h>
#include <mpi.h>

#include <cstdio>
#include <string>

#include "mpi/mpi_runtime.h"

namespace {

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

// ASSERT_* or an exception ends this rank's test early, while the other ranks go on into the
// test's next collective and would wait there until ctest's timeout. gloo's tests release
// the other threads and rethrow; across processes the equivalent is MPI_Abort: the failing
// rank names the failure, and every rank stops now with a non-zero exit.
class AbortOnFatalFailure : public ::testing::EmptyTestEventListener {
  // Remembered here: asking the UnitTest from OnTestPartResult would deadlock on its mutex.
  void OnTestStart(const ::testing::TestInfo& test) override {
    test_ = std::string(test.test_suite_name()) + "." + test.name();
  }
  void OnTestPartResult(const ::testing::TestPartResult& result) override {
    if (!result.fatally_failed()) return;
    std::fprintf(stderr, "rank %d: FATAL in %s at %s:%d: %s\nrank %d: aborting every rank\n",
                 world_rank(), test_.c_str(), result.file_name() ? result.file_name() : "?",
                 result.line_number(), result.message(), world_rank());
    std::fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  std::string test_ = "?";
};

// Rank 0 prints the run; other ranks name only what failed on them.
void print_failures_of_this_rank() {
  const auto& unit = *::testing::UnitTest::GetInstance();
  for (int s = 0; s < unit.total_test_suite_count(); ++s) {
    const auto& suite = *unit.GetTestSuite(s);
    for (int t = 0; t < suite.total_test_count(); ++t) {
      const auto& info = *suite.GetTestInfo(t);
      if (!info.result()->Failed()) continue;
      for (int p = 0; p < info.result()->total_part_count(); ++p)
        if (info.result()->GetTestPartResult(p).failed())
          std::fprintf(stderr, "rank %d: FAILED %s.%s: %s\n", world_rank(), suite.name(),
                       info.name(), info.result()->GetTestPartResult(p).message());
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;  // as the harness starts (overlap's communication thread needs it)
  MPI_Init_thread(&argc, &argv, harness::kThreadLevelWithOverlap, &provided);
  ::testing::InitGoogleTest(&argc, argv);
  auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
  if (world_rank() != 0) delete listeners.Release(listeners.default_result_printer());
  listeners.Append(new AbortOnFatalFailure);
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, any_failed = 0;
  if (failed && world_rank() != 0) print_failures_of_this_rank();
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (world_rank() == 0 && any_failed && !failed)
    std::fprintf(stderr, "a test failed on another rank\n");
  MPI_Finalize();
  return any_failed;
}

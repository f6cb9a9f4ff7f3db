// GoogleTest under mpirun: every rank runs every test (they are collective); only rank 0
// prints, and the job fails if any rank failed.
#include <gtest/gtest.h>
#include <mpi.h>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  ::testing::InitGoogleTest(&argc, argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank != 0) {
    auto& listeners = ::testing::UnitTest::GetInstance()->listeners();
    delete listeners.Release(listeners.default_result_printer());
  }
  int failed = RUN_ALL_TESTS() != 0 ? 1 : 0, any_failed = 0;
  if (failed && rank != 0) {
    // Rank 0 prints the run; other ranks name only what failed on them.
    const auto& unit = *::testing::UnitTest::GetInstance();
    for (int s = 0; s < unit.total_test_suite_count(); ++s) {
      const auto& suite = *unit.GetTestSuite(s);
      for (int t = 0; t < suite.total_test_count(); ++t) {
        const auto& info = *suite.GetTestInfo(t);
        if (!info.result()->Failed()) continue;
        for (int p = 0; p < info.result()->total_part_count(); ++p)
          if (info.result()->GetTestPartResult(p).failed())
            std::fprintf(stderr, "rank %d: FAILED %s.%s: %s\n", rank, suite.name(), info.name(),
                         info.result()->GetTestPartResult(p).message());
      }
    }
  }
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !failed) std::fprintf(stderr, "a test failed on another rank\n");
  MPI_Finalize();
  return any_failed;
}

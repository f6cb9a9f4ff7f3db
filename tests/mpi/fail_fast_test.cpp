// The fail-fast guarantee of mpi_test_main.cpp, shown on purpose: rank 1 fails an ASSERT and
// leaves the test while rank 0 waits in a barrier that rank 1 never reaches. Disabled in
// normal runs; tests/e2e/mpi_fail_fast.sh runs it and requires a quick non-zero exit.
#include <gtest/gtest.h>
#include <mpi.h>

#include "mpi_test_util.h"

namespace harness {
namespace {

TEST(FailFast, DISABLED_FatalFailureOnOneRankEndsEveryRank) {
  if (testing::world_rank() == 1) {
    ASSERT_TRUE(false) << "deliberate failure on rank 1";
  }
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace
}  // namespace harness

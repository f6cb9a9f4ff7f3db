// Defect: the nccl plugin exported NCCL_ALGO/NCCL_PROTO for a trial and never restored them,
// so a later trial with the default algorithm silently ran the previous one's while its
// record said "auto". Needs a GPU per rank; skipped (with the reason) elsewhere.
#include <gtest/gtest.h>

#include <cstdlib>

#include "loader/plugin_capabilities.h"
#include "loader/plugin_registry.h"
#include "mpi_test_util.h"
#include "trial/backend_join.h"

namespace harness {
namespace {

TEST(NcclEnvironment, AlgorithmSettingsDoNotOutliveTheirTrial) {
  const auto registry = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  const PluginHandle* nccl = registry.find(plugin::PluginKind::kCommunicator, "nccl");
  if (!nccl) GTEST_SKIP() << "the nccl plugin is not built here (no CUDA toolkit or NCCL)";
  const auto reason = communicator_capabilities(*nccl).unavailable_reason;
  if (!reason.empty()) GTEST_SKIP() << reason;
  ::unsetenv("NCCL_ALGO");
  ::unsetenv("NCCL_PROTO");
  TrialContext context{MPI_COMM_WORLD, testing::world_rank(), testing::world_size(), &registry,
                       nullptr};
  {
    const JoinedBackend joined = join_backend(
        context, "nccl", {{"algo", "ring"}, {"proto", "simple"}}, plugin::DType::kFloat32, true);
    ASSERT_FALSE(joined.problem.any()) << joined.problem.reason;
    EXPECT_NE(joined.communicator->describe().find("algo=ring"), std::string::npos);
  }
  EXPECT_EQ(std::getenv("NCCL_ALGO"), nullptr) << "NCCL_ALGO leaked out of the trial";
  EXPECT_EQ(std::getenv("NCCL_PROTO"), nullptr) << "NCCL_PROTO leaked out of the trial";
  const JoinedBackend next =
      join_backend(context, "nccl", Json::object(), plugin::DType::kFloat32, true);
  ASSERT_FALSE(next.problem.any()) << next.problem.reason;
  EXPECT_NE(next.communicator->describe().find("algo=auto"), std::string::npos);
}

}  // namespace
}  // namespace harness

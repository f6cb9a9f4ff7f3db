// The gloo backends (the gloo library's plugin and torch_gloo, PyTorch's ProcessGroupGloo) open
// their pairs on a device chosen from backend_params. A host name that does not resolve crashes
// gloo's device (Debian's libgloo dereferences the failed lookup); the plugins must refuse it
// instead, naming the parameter, on every rank. "bad host!" is no host name at all, so the
// resolver refuses it without asking any server.
#include <gtest/gtest.h>

#include <string>

#include "harness/plugin/mpi_bootstrap.h"
#include "loader/communicator_factory.h"
#include "loader/plugin_registry.h"
#include "mpi_test_util.h"

namespace harness {
namespace {

class GlooDevice : public ::testing::TestWithParam<std::string> {};

TEST_P(GlooDevice, AHostNameThatDoesNotResolveIsRefusedNotACrash) {
  static const PluginRegistry plugins = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  const PluginHandle* handle = plugins.find(plugin::PluginKind::kCommunicator, GetParam());
  if (!handle) GTEST_SKIP() << GetParam() << " is not built here";
  auto communicator = create_communicator(*handle, Json{{"hostname", "bad host!"}});
  plugin::MpiBootstrap bootstrap(MPI_COMM_WORLD);
  plugin::GroupInit group;
  group.comm = MPI_COMM_WORLD;
  group.rank = group.local_rank = testing::world_rank();  // one host
  group.size = testing::world_size();
  group.bootstrap = &bootstrap;
  const plugin::Status status = communicator->init(group);
  EXPECT_FALSE(status.is_ok());
  EXPECT_NE(status.message().find("backend_params hostname \"bad host!\" does not resolve"),
            std::string::npos)
      << status.message();
}

INSTANTIATE_TEST_SUITE_P(BothGlooBackends, GlooDevice,
                         ::testing::Values("gloo", "torch_gloo"));

}  // namespace
}  // namespace harness

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>

#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "loader/plugin_registry.h"
#include "test_support.h"
#include "train/model_factory.h"
#include "trial/backend_join.h"

namespace harness {
namespace {

const std::string kPlugins = HARNESS_PLUGIN_DIR;
const std::string kTestPlugins = HARNESS_TEST_PLUGIN_DIR;

TEST(PluginLoading, GoodPluginsLoadWithTheirInfo) {
  PluginHandle handle;
  EXPECT_EQ(open_plugin(kPlugins + "/libharness_model_autoencoder.so", &handle), "");
  EXPECT_EQ(handle.name, "autoencoder");
  EXPECT_EQ(handle.kind, plugin::PluginKind::kModel);
  EXPECT_EQ(handle.version, "1.0.0");
  EXPECT_EQ(model_capabilities(handle).input_kind, plugin::InputKind::kTabular);

  const auto registry = PluginRegistry::discover({kPlugins});
  EXPECT_TRUE(registry.problems().empty());
  EXPECT_NE(registry.find(plugin::PluginKind::kCommunicator, "mpi"), nullptr);
  EXPECT_EQ(registry.find(plugin::PluginKind::kModel, "mpi"), nullptr);
}

TEST(PluginLoading, ObjectsKeepTheirLibraryAlive) {
  std::shared_ptr<plugin::Model> model;
  {
    const auto registry = PluginRegistry::discover({kPlugins});
    const auto* handle = registry.find(plugin::PluginKind::kModel, "autoencoder");
    ASSERT_NE(handle, nullptr);
    model = create_model(*handle, {{"input_dim", 20}});
    EXPECT_GE(handle->library.use_count(), 2);
  }
  // The registry is gone; the model's code must still be mapped.
  at::Tensor out;
  auto input = torch::zeros({4, 20});
  ASSERT_TRUE(model->forward(input, &out).is_ok());
  EXPECT_EQ(out.sizes(), input.sizes());
  EXPECT_EQ(parameter_count(*model), 20u * 10 + 10 + 10 * 3 + 3 + 3 * 10 + 10 + 10 * 20 + 20);
}

TEST(PluginLoading, WrongApiVersionNamesBothVersions) {
  PluginHandle handle;
  const std::string error = open_plugin(kTestPlugins + "/libharness_comm_wrong_api.so", &handle);
  EXPECT_CONTAINS(error, "plugin API version 999 but this harness speaks version " +
                             std::to_string(plugin::kApiVersion));
}

// A plugin of API 3 loads; its capabilities are read as API 3 laid them out, and the
// collectives API 4 added are answered by the host, not through slots its objects lack.
TEST(PluginLoading, AnApi3PluginLoadsAndOffersWhatApi3Had) {
  PluginHandle handle;
  ASSERT_EQ(open_plugin(kTestPlugins + "/libharness_comm_api3.so", &handle), "");
  EXPECT_EQ(handle.api_version, 3u);
  const auto capabilities = communicator_capabilities(handle);
  EXPECT_EQ(capabilities.dtypes, std::vector<plugin::DType>{plugin::DType::kFloat32});
  EXPECT_EQ(capabilities.collectives,
            (std::vector<plugin::Collective>{plugin::Collective::kAllreduce,
                                             plugin::Collective::kBroadcast}));
  const auto communicator = create_communicator(handle, Json::object());
  EXPECT_EQ(communicator->describe(), "api3 MPI_Allreduce");
  float in[2] = {1, 2}, out[2] = {0, 0};
  const plugin::Status status = communicator->allgather({in, 1}, {out, 2}, {});
  EXPECT_EQ(status.code(), plugin::StatusCode::kUnsupported);
  EXPECT_CONTAINS(status.message(), "api3 MPI_Allreduce does not support allgather");
}

// Every API this host loads: a plugin registered with the documented macros for that version
// (tests/plugins/user_api_plugin.cpp) opens, and its capabilities read back as it set them (a
// host reading another layout than the plugin wrote corrupts its heap, or reads wrong values).
TEST(PluginLoading, EveryLoadedApiVersionLoadsThroughTheDocumentedMacros) {
  for (std::uint32_t api = plugin::kOldestApiVersion; api <= plugin::kApiVersion; ++api) {
    SCOPED_TRACE("API " + std::to_string(api));
    const std::string name = "user_api" + std::to_string(api);
    PluginHandle handle;
    ASSERT_EQ(open_plugin(std::string(HARNESS_API_PLUGIN_DIR) + "/libharness_comm_" + name + ".so",
                          &handle),
              "");
    EXPECT_EQ(handle.api_version, api);
    EXPECT_EQ(handle.name, name);
    const auto capabilities = communicator_capabilities(handle);
    EXPECT_EQ(capabilities.dtypes, std::vector<plugin::DType>{plugin::DType::kFloat32});
    std::vector<plugin::Collective> offered{plugin::Collective::kAllreduce,
                                            plugin::Collective::kBroadcast};
    if (api >= 4) offered.push_back(plugin::Collective::kAllgather);
    EXPECT_EQ(capabilities.collectives, offered);
    EXPECT_EQ(create_communicator(handle, Json::object())->describe(), name);
  }
}

TEST(PluginLoading, WrongBuildIdNamesBothIds) {
  PluginHandle handle;
  const std::string error = open_plugin(kTestPlugins + "/libharness_comm_wrong_build.so", &handle);
  EXPECT_CONTAINS(error, "0.0.0/OtherCompiler-1.0/cxx11abi=0");
  EXPECT_CONTAINS(error, plugin::kBuildId);
}

TEST(PluginLoading, MissingEntryPointIsNamed) {
  PluginHandle handle;
  const std::string error =
      open_plugin(kTestPlugins + "/libharness_comm_missing_symbol.so", &handle);
  EXPECT_CONTAINS(error, std::string("missing symbol ") + plugin::kCreateModelSymbol);
  EXPECT_CONTAINS(error, "_v" + std::to_string(plugin::kApiVersion));
}

TEST(PluginLoading, NotALibrary) {
  const testing::TempDir temp;
  const auto& dir = temp.path();
  std::ofstream(dir / "libfake.so") << "this is text, not ELF\n";
  PluginHandle handle;
  EXPECT_CONTAINS(open_plugin((dir / "libfake.so").string(), &handle),
                  "not a loadable plugin library");
  const auto registry = PluginRegistry::discover({dir.string()});
  EXPECT_TRUE(registry.plugins().empty());
  ASSERT_EQ(registry.problems().size(), 1u);
}

// Files named like plugins that cannot be loaded are always said (a built-in of the same name
// may be used instead); other files only with -v.
TEST(PluginLoading, DiscoveryWarnsOfBrokenPlugins) {
  const auto registry = PluginRegistry::discover({kTestPlugins});
  EXPECT_EQ(registry.warnings().size(), 3u);  // wrong_api, wrong_build, missing_symbol
  EXPECT_NE(registry.find(plugin::PluginKind::kCommunicator, "api3"), nullptr);
  EXPECT_NE(registry.find(plugin::PluginKind::kCommunicator, "throwing"), nullptr);
}

TEST(PluginLoading, EarlierDirectoryWinsAndShadowingIsAWarning) {
  const auto registry = PluginRegistry::discover({kPlugins, kPlugins});
  EXPECT_EQ(registry.names(plugin::PluginKind::kCommunicator).size(),
            PluginRegistry::discover({kPlugins}).names(plugin::PluginKind::kCommunicator).size());
  ASSERT_FALSE(registry.warnings().empty());
  EXPECT_CONTAINS(registry.warnings().front(), "is already loaded from");
}

// A library's constructors run when it is loaded; discovery decides from the file's name and
// its symbol table, read without loading, so a library that is not a plugin never runs.
TEST(PluginLoading, NothingRunsBeforeTheChecks) {
  const testing::TempDir temp;
  const std::string marker = temp.file("constructor_ran");
  std::filesystem::create_directory(temp.path() / "plugins");
  for (const char* name : {"libprobe.so", "libharness_comm_probe.so"})
    std::filesystem::copy_file(HARNESS_CONSTRUCTOR_PROBE_LIBRARY, temp.path() / "plugins" / name);
  setenv("HARNESS_CONSTRUCTOR_PROBE", marker.c_str(), 1);
  const auto registry = PluginRegistry::discover({(temp.path() / "plugins").string()});
  unsetenv("HARNESS_CONSTRUCTOR_PROBE");
  EXPECT_FALSE(std::filesystem::exists(marker)) << "a non-plugin's constructor ran";
  EXPECT_TRUE(registry.plugins().empty());
  ASSERT_EQ(registry.warnings().size(), 1u);
  EXPECT_CONTAINS(registry.warnings()[0], "does not export harness_plugin_info_v1");
  ASSERT_EQ(registry.problems().size(), 1u);
  EXPECT_CONTAINS(registry.problems()[0], "not named like a plugin");
}

TEST(PluginLoading, DirectoriesAndFilesOthersCanWriteAreRefused) {
  namespace fs = std::filesystem;
  const testing::TempDir temp;
  const fs::path plugins = temp.path() / "plugins";
  fs::create_directory(plugins);
  fs::copy_file(kPlugins + "/libharness_comm_mpi.so", plugins / "libharness_comm_mpi.so");
  fs::permissions(plugins, fs::perms::others_write, fs::perm_options::add);
  auto registry = PluginRegistry::discover({plugins.string()});
  EXPECT_TRUE(registry.plugins().empty());
  ASSERT_EQ(registry.warnings().size(), 1u);
  EXPECT_CONTAINS(registry.warnings()[0], "plugin directory refused: it is writable by every user");
  EXPECT_CONTAINS(registry.warnings()[0], "--allow-insecure-plugin-dir");
  DiscoveryOptions insecure_allowed;
  insecure_allowed.allow_insecure = true;
  registry = PluginRegistry::discover({plugins.string()}, insecure_allowed);
  EXPECT_NE(registry.find(plugin::PluginKind::kCommunicator, "mpi"), nullptr);

  fs::permissions(plugins, fs::perms::others_write, fs::perm_options::remove);
  fs::permissions(plugins / "libharness_comm_mpi.so", fs::perms::others_write,
                  fs::perm_options::add);
  registry = PluginRegistry::discover({plugins.string()});
  EXPECT_TRUE(registry.plugins().empty());
  ASSERT_EQ(registry.warnings().size(), 1u);
  EXPECT_CONTAINS(registry.warnings()[0], "plugin refused: it is writable by every user");
}

TEST(PluginLoading, ExceptionsInsideAPluginBecomeStatus) {
  const auto registry = PluginRegistry::discover({kTestPlugins});
  const auto* handle = registry.find(plugin::PluginKind::kCommunicator, "throwing");
  ASSERT_NE(handle, nullptr);
  auto communicator = create_communicator(*handle, Json::object());
  float value = 1;
  const plugin::Status status = communicator->allreduce({&value, 1, plugin::DType::kFloat32}, {});
  EXPECT_FALSE(status.is_ok());
  EXPECT_EQ(status.code(), plugin::StatusCode::kInternal);
  EXPECT_EQ(status.message(), "boom inside plugin");
  try {
    create_communicator(*handle, {{"fail_init", 7}});
    FAIL() << "bad parameter accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_CONTAINS(e.what(), "/fail_init: expected an integer in [0, 1], got 7");
  }
}

TEST(PluginLoading, SearchPathOrder) {
  setenv("HARNESS_PLUGIN_PATH", "/a:/b", 1);
  const auto path = plugin_search_path({"/flag"});
  unsetenv("HARNESS_PLUGIN_PATH");
  ASSERT_EQ(path.size(), 4u);
  EXPECT_EQ(path[0], "/flag");
  EXPECT_EQ(path[1], "/a");
  EXPECT_EQ(path[2], "/b");
  EXPECT_EQ(std::filesystem::path(path[3]).filename(), "plugins");
}

TEST(PluginLoading, PluginPathEntriesThatAreNoDirectoryAreSaid) {
  const testing::TempDir temp;
  const std::string file = temp.file("not_a_dir");
  std::ofstream(file) << "x";
  setenv("HARNESS_PLUGIN_PATH", ("/no/such/dir:" + file + ":" + temp.path().string()).c_str(), 1);
  const auto warnings = plugin_path_warnings();
  unsetenv("HARNESS_PLUGIN_PATH");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_CONTAINS(warnings[0], "/no/such/dir skipped: no such directory");
  EXPECT_CONTAINS(warnings[1], "not_a_dir skipped: not a directory");
}

TEST(PluginLoading, BrokenSymbolicLinksSayWhatTheyAre) {
  namespace fs = std::filesystem;
  const testing::TempDir temp;
  fs::create_symlink(temp.path() / "gone.so", temp.path() / "libharness_comm_dangling.so");
  fs::create_symlink(temp.path() / "libharness_comm_loop.so",
                     temp.path() / "libharness_comm_loop.so");
  const auto registry = PluginRegistry::discover({temp.path().string()});
  ASSERT_EQ(registry.warnings().size(), 2u);
  EXPECT_CONTAINS(
      registry.warnings()[0],
      "a symbolic link to " + (temp.path() / "gone.so").string() + ", which does not exist");
  EXPECT_CONTAINS(registry.warnings()[1], "a symbolic link that loops");
  for (const auto& warning : registry.warnings())
    EXPECT_EQ(warning.find("chmod"), std::string::npos) << "permission advice for a broken link";
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

TEST(BackendProblem, SaysWhyATrialCannotRunBeforeAnythingIsBuilt) {
  const auto registry = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  ASSERT_NE(registry.find(plugin::PluginKind::kCommunicator, "gloo"), nullptr);
  EXPECT_FALSE(backend_problem(registry, "gloo", false, plugin::DType::kFloat16).any());
  const GroupProblem bf16 = backend_problem(registry, "gloo", false, plugin::DType::kBFloat16);
  EXPECT_EQ(bf16.status, TrialStatus::kSkipped);
  EXPECT_EQ(bf16.reason, "gloo does not support bf16");
  EXPECT_EQ(backend_problem(registry, "nowhere", false, plugin::DType::kFloat32).status,
            TrialStatus::kFailed);
  if (registry.find(plugin::PluginKind::kCommunicator, "nccl")) {
    const GroupProblem gpu = backend_problem(registry, "nccl", false, plugin::DType::kFloat32);
    EXPECT_EQ(gpu.status, TrialStatus::kSkipped);
    EXPECT_FALSE(gpu.reason.empty());
  }
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

// A build that cannot make a shipped plugin leaves a note in its place; the note's plugin is
// skipped with its reason, unless a real plugin of that name is found in any folder.
TEST(NotBuiltPlugin, IsSkippedWithTheBuildsReasonUnlessTheLibraryIsThere) {
  const testing::TempDir temp;
  std::ofstream(temp.path() / "libharness_comm_absent.so.not-built") << "no toolkit here\n";
  std::ofstream(temp.path() / "libharness_comm_mpi.so.not-built") << "stale note\n";
  std::ofstream(temp.path() / "notes.not-built") << "not named like a plugin\n";
  const auto registry = PluginRegistry::discover({temp.path().string(), HARNESS_PLUGIN_DIR});
  EXPECT_EQ(registry.not_built_reason(plugin::PluginKind::kCommunicator, "absent"),
            "no toolkit here");
  EXPECT_EQ(registry.not_built_reason(plugin::PluginKind::kModel, "absent"), "");
  EXPECT_EQ(registry.not_built_reason(plugin::PluginKind::kCommunicator, "mpi"), "");
  EXPECT_EQ(registry.not_built_reason(plugin::PluginKind::kCommunicator, "notes"), "");
  const GroupProblem absent =
      backend_problem(registry, "absent", false, plugin::DType::kFloat32);
  EXPECT_EQ(absent.status, TrialStatus::kSkipped);
  EXPECT_EQ(absent.reason, "absent is not built: no toolkit here");
  EXPECT_FALSE(backend_problem(registry, "mpi", false, plugin::DType::kFloat32).any());
}

}  // namespace
}  // namespace harness

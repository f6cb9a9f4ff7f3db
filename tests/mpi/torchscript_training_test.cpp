// A scripted module through the whole train trial under mpirun: replicas bit-identical with
// BatchNorm's buffers, buckets and overlap (autograd hooks on the scripted parameters); the
// buffers drift apart without their broadcast; the tutorial's autoencoder exported with the
// built-in plugin's initial weights trains to the built-in plugin's loss curve bit for bit;
// a module that raises at step 11 fails its trial on every rank.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "mpi_test_util.h"
#include "test_support.h"
#include "training_run.h"

namespace harness {
namespace {

using testing::world_rank;
using testing::world_size;

const std::string kModules = HARNESS_TEST_MODULE_DIR;
const std::string kModels = HARNESS_MODEL_DIR;

class TorchScriptTraining : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!std::filesystem::exists(kModules + "/batchnorm.pt") ||
        !std::filesystem::exists(kModels + "/autoencoder.pt"))
      GTEST_SKIP() << "no exported TorchScript modules (python3-torch missing at build time)";
  }

  Json run(int world, const std::string& path, const std::string& more = "") {
    return testing::run_training(world, 1,
                                 R"({"model": "torchscript", "model_params": {"path": ")" + path +
                                     R"("}, "max_steps": 30)" + more + "}",
                                 plugins_, data_);
  }

  PluginRegistry plugins_ = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  DataCache data_;
};

TEST_F(TorchScriptTraining, ReplicasIdenticalWithBuffersBucketsAndOverlap) {
  Json reference;
  for (const char* fusion : {"67108864", "512"})
    for (const char* overlap : {"false", "true"}) {
      const Json record =
          run(world_size(), kModules + "/batchnorm.pt",
              std::string(R"(, "fusion_bytes": )") + fusion + R"(, "overlap": )" + overlap);
      if (world_rank() != 0) continue;
      const std::string what = std::string("fusion_bytes ") + fusion + " overlap " + overlap;
      ASSERT_EQ(record["status"], "ok") << what << ": " << record["reason"];
      EXPECT_EQ(record["params_consistent"], true) << what;
      EXPECT_EQ(record["model"]["buffers"]["tensors"], 3) << what;
      EXPECT_CONTAINS(record["model"]["buffers"]["kept_in_step"].get<std::string>(),
                      "before every step");
      if (std::string(fusion) == "512") {
        EXPECT_GT(record["gradient_reduction"]["buckets"].get<int>(), 2) << what;
      }
      if (reference.is_null()) reference = record;
      // Overlap changes when a bucket goes, not what it sums.
      if (std::string(fusion) == "67108864") {
        EXPECT_EQ(record["param_hash"], reference["param_hash"]) << what;
      }
    }
}

TEST_F(TorchScriptTraining, BuffersDriftApartWithoutTheirBroadcast) {
  const Json record =
      run(world_size(), kModules + "/batchnorm.pt", R"(, "broadcast_buffers": false)");
  if (world_rank() != 0) return;
  // Each rank's running statistics follow its own shard of the data.
  EXPECT_EQ(record["status"], "inconsistent") << record["reason"];
  EXPECT_EQ(record["params_consistent"], false);
  EXPECT_CONTAINS(record["model"]["buffers"]["kept_in_step"].get<std::string>(), "once");
}

TEST_F(TorchScriptTraining, TheExportedAutoencoderTrainsLikeTheBuiltInPlugin) {
  for (int world : {1, std::min(2, world_size())}) {
    const Json scripted = run(world, kModels + "/autoencoder.pt");
    const Json built_in = testing::run_training(
        world, 1, R"({"model": "autoencoder", "max_steps": 30})", plugins_, data_);
    if (world_rank() != 0) continue;
    ASSERT_EQ(scripted["status"], "ok") << scripted["reason"];
    ASSERT_EQ(built_in["status"], "ok") << built_in["reason"];
    // The same initial weights (seed 1), the same operations: the same numbers.
    EXPECT_EQ(scripted["loss"]["per_step"], built_in["loss"]["per_step"]) << "world " << world;
    EXPECT_EQ(scripted["param_hash"], built_in["param_hash"]) << "world " << world;
    EXPECT_EQ(scripted["detection"]["auroc"], built_in["detection"]["auroc"]) << "world " << world;
  }
}

TEST_F(TorchScriptTraining, AModuleThatRaisesFailsItsTrialOnEveryRank) {
  const Json record = run(world_size(), kModules + "/throws_after.pt");
  if (world_rank() != 0) return;
  EXPECT_EQ(record["status"], "failed");
  // Every rank raises at its 11th call: the lowest rank's message, with the step it failed in.
  EXPECT_EQ(record["reason"],
            std::string(world_size() > 1 ? "rank 0: " : "") +
                "model forward: the module's forward raised: RuntimeError: the test module fails "
                "at step 11 (step 10)");
}

}  // namespace
}  // namespace harness

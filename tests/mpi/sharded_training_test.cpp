// Sharded data parallel (ZeRO stage 2) against DDP under mpirun, at world 1, 2 and the job's
// size: the same model, data and seed stepped both ways give the same parameters (bit for bit
// where the backend's sums are the same, within fp32 reassociation otherwise), the replicas
// agree, and each rank's optimizer state is its shard's. Then whole train trials with
// strategy sharded, through every CPU backend, with overlap and compression.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "mpi_test_util.h"
#include "test_support.h"
#include "train/gradient_reducer.h"
#include "train/optimizer_factory.h"
#include "train/sharded_parameters.h"
#include "training_run.h"
#include "trial/backend_join.h"

namespace harness {
namespace {

using testing::world_rank;
using testing::world_size;

const char* const kBackends[] = {"mpi", "ring", "gloo", "shm"};

// 20 -> 10 -> 3 (233 parameters): odd sizes, so buckets are padded to whole blocks.
torch::nn::Sequential small_model() {
  torch::manual_seed(11);
  return torch::nn::Sequential(torch::nn::Linear(20, 10), torch::nn::ReLU(),
                               torch::nn::Linear(10, 3));
}

struct Variant {
  bool sharded = false;
  bool overlap = false;
  std::size_t fusion_bytes = 0;  // 0: one bucket per tensor
  OptimizerKind optimizer = OptimizerKind::kAdam;
};

struct Stepped {
  at::Tensor parameters;  // flat, after the steps
  std::size_t optimizer_state_bytes = 0;
};

// Steps the model `steps` times on this rank's batches (seeded by rank and step) the way a
// train trial does: zero, forward, backward through the reducer, optimizer, and (sharded) the
// allgather.
Stepped step_model(const Variant& variant, plugin::Communicator& communicator, int rank, int size,
                   int steps) {
  auto model = small_model();
  std::vector<at::Tensor> parameters = model->parameters();
  ReducerOptions options;
  options.fusion_bytes = variant.fusion_bytes;
  options.overlap = variant.overlap;
  options.sharded = variant.sharded;
  options.rank = rank;
  options.size = size;
  GradientReducer reducer(parameters, options, communicator, nullptr);
  std::optional<ShardedParameters> sharded;
  if (variant.sharded) sharded.emplace(reducer, communicator, rank);
  OptimizerSettings settings;
  settings.kind = variant.optimizer;
  settings.weight_decay = 0.01;
  auto optimizer = make_optimizer(settings, sharded ? sharded->master_shards() : parameters, 0.01);
  for (int step = 0; step < steps; ++step) {
    torch::manual_seed(1000 + 17 * step + rank);
    const auto batch = torch::randn({8, 20});
    const auto loss = model->forward(batch).pow(2).mean();
    if (reducer.zeroes_gradients())
      reducer.zero_gradients();
    else
      optimizer->zero_grad();
    reducer.begin_step(loss);
    loss.backward();
    reducer.finish_step();
    optimizer->step();
    if (sharded) sharded->gather();
  }
  std::vector<at::Tensor> flat;
  for (const auto& p : parameters) flat.push_back(p.detach().reshape({-1}).clone());
  return {torch::cat(flat), optimizer_state_bytes(*optimizer)};
}

class ShardedTraining : public ::testing::TestWithParam<const char*> {
 protected:
  // The backend on the first `world` ranks (null on the others and when it declines).
  std::shared_ptr<plugin::Communicator> join(MPI_Comm group) {
    TrialContext context;
    context.comm = group;
    MPI_Comm_rank(group, &context.rank);
    MPI_Comm_size(group, &context.size);
    context.plugins = &plugins_;
    const JoinedBackend joined =
        join_backend(context, GetParam(), Json::object(), plugin::DType::kFloat32, false);
    EXPECT_FALSE(joined.problem.any()) << joined.problem.reason;
    return joined.communicator;
  }

  // Whether every rank of `group` holds the same `values`.
  static bool replicas_agree(const at::Tensor& values, MPI_Comm group) {
    const double sum = values.sum().item<double>(),
                 weighted = (values * values).sum().item<double>();
    double local[2] = {sum, weighted}, low[2], high[2];
    MPI_Allreduce(local, low, 2, MPI_DOUBLE, MPI_MIN, group);
    MPI_Allreduce(local, high, 2, MPI_DOUBLE, MPI_MAX, group);
    return low[0] == high[0] && low[1] == high[1];
  }

  PluginRegistry plugins_ = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  DataCache data_;
};

TEST_P(ShardedTraining, StepsTheSameParametersAsDdpWithAShardOfTheOptimizerState) {
  std::vector<int> worlds = {1, 2, world_size()};
  worlds.erase(std::unique(worlds.begin(), worlds.end()), worlds.end());
  for (const int world : worlds) {
    MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, world, nullptr);
    if (group != MPI_COMM_NULL) {
      const auto communicator = join(group);
      int rank = 0;
      MPI_Comm_rank(group, &rank);
      for (const OptimizerKind optimizer : {OptimizerKind::kAdam, OptimizerKind::kSgd})
        for (const std::size_t fusion_bytes : {std::size_t{0}, std::size_t{64} << 20})
          for (const bool overlap : {false, true}) {
            const std::string what = std::string(GetParam()) + " world " + std::to_string(world) +
                                     " fusion " + std::to_string(fusion_bytes) +
                                     (overlap ? " overlap" : "") +
                                     (optimizer == OptimizerKind::kSgd ? " sgd" : " adam");
            const Variant ddp{false, overlap, fusion_bytes, optimizer};
            Variant sharded = ddp;
            sharded.sharded = true;
            const Stepped a = step_model(ddp, *communicator, rank, world, 6);
            const Stepped b = step_model(sharded, *communicator, rank, world, 6);
            EXPECT_TRUE(replicas_agree(b.parameters, group)) << what;
            const double gap = (a.parameters - b.parameters).abs().max().item<double>();
            // A sum of two values does not depend on its order; with more, the backend's
            // reduce-scatter may add in another order than its allreduce.
            if (world <= 2)
              EXPECT_EQ(gap, 0.0) << what;
            else
              EXPECT_LT(gap, 1e-5) << what;
            // Each rank's shard of the state: 1/world of the model's, its padding aside.
            const double share = static_cast<double>(b.optimizer_state_bytes) * world /
                                 static_cast<double>(a.optimizer_state_bytes);
            EXPECT_GE(share, 1.0) << what;
            EXPECT_LT(share, 1.0 + 4.0 * world / 233) << what;
          }
      MPI_Comm_free(&group);
    }
    sleeping_barrier(MPI_COMM_WORLD);
  }
}

// Whole trials: the strategy's record, consistent replicas, the loss curve of ddp.
TEST_P(ShardedTraining, ATrainTrialWithStrategyShardedRecordsItsMemory) {
  for (const char* more : {"", R"(, "overlap": true, "fusion_bytes": 512)",
                           R"(, "compression": "fp16", "fusion_bytes": 512)"}) {
    const std::string base =
        std::string(R"({"backend": ")") + GetParam() + R"(", "max_steps": 20)" + more;
    const Json ddp = testing::run_training(world_size(), 5, base + "}", plugins_, data_);
    const Json sharded = testing::run_training(
        world_size(), 5, base + R"(, "strategy": "sharded"})", plugins_, data_);
    if (world_rank() != 0) continue;
    const std::string what = std::string(GetParam()) + more;
    ASSERT_EQ(sharded["status"], "ok") << what << ": " << sharded["reason"];
    EXPECT_EQ(sharded["params_consistent"], true) << what;
    const auto x = ddp["loss"]["per_step"].get<std::vector<double>>();
    const auto y = sharded["loss"]["per_step"].get<std::vector<double>>();
    ASSERT_EQ(x.size(), y.size()) << what;
    // Under ddp a compressed step's loss rides in its last bucket, rounded to fp16 (sharded
    // sends it in fp32): half an fp16 unit apart.
    const double tolerance = std::string(more).find("fp16") != std::string::npos ? 1e-3 : 1e-4;
    for (std::size_t i = 0; i < x.size(); ++i)
      EXPECT_NEAR(x[i], y[i], tolerance * std::abs(x[i])) << what << " step " << i;
    const auto& m = sharded["memory"];
    const auto& d = ddp["memory"];
    EXPECT_LT(m["optimizer_state_bytes"].get<double>() * world_size(),
              1.1 * d["optimizer_state_bytes"].get<double>())
        << what;
    EXPECT_GT(m["optimizer_state_bytes"].get<double>(), 0) << what;
    EXPECT_GT(m["parameter_bytes"].get<double>(), d["parameter_bytes"].get<double>()) << what;
  }
}

INSTANTIATE_TEST_SUITE_P(CpuBackends, ShardedTraining, ::testing::ValuesIn(kBackends));

}  // namespace
}  // namespace harness

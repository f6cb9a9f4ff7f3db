// The GradientReducer in one process, against a fake communicator that triples what it
// reduces: bucket plans, launch order, the communication thread, unpacking, the loss slot,
// compression, unused parameters and failures.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "harness/plugin/half_float.h"
#include "measurement/reduction_memory.h"
#include "train/flat_parameters.h"
#include "train/gradient_reducer.h"
#include "train/sharded_parameters.h"

namespace harness {
namespace {

// Triples fp32 buffers (so unpacking can be told from packing), leaves 16-bit ones alone, and
// records every call's element count and thread.
class TriplingCommunicator final : public plugin::Communicator {
 public:
  plugin::Status init(const plugin::GroupInit&) noexcept override { return {}; }
  plugin::Status allreduce(plugin::BufferView buffer,
                           const plugin::AllreduceOptions&) noexcept override {
    std::lock_guard<std::mutex> lock(mutex);
    counts.push_back(buffer.count);
    dtypes.push_back(buffer.dtype);
    threads.push_back(std::this_thread::get_id());
    if (fail) return plugin::Status::unavailable("link down");
    if (buffer.dtype == plugin::DType::kFloat32)
      for (std::size_t i = 0; i < buffer.count; ++i) static_cast<float*>(buffer.data)[i] *= 3;
    return {};
  }
  plugin::Status broadcast(plugin::BufferView, int) noexcept override { return {}; }
  plugin::Status barrier() noexcept override { return {}; }
  // As rank `rank` of a group whose other ranks hold the same: block `rank`, tripled.
  plugin::Status reduce_scatter(plugin::BufferView input, plugin::BufferView output,
                                const plugin::CollectiveOptions&) noexcept override {
    std::lock_guard<std::mutex> lock(mutex);
    counts.push_back(input.count);
    const auto* in = static_cast<const float*>(input.data) + rank * output.count;
    for (std::size_t i = 0; i < output.count; ++i) static_cast<float*>(output.data)[i] = 3 * in[i];
    return {};
  }
  // Block `rank` is this rank's input; the others' blocks read -1.
  plugin::Status allgather(plugin::BufferView input, plugin::BufferView output,
                           const plugin::CollectiveOptions&) noexcept override {
    auto* out = static_cast<float*>(output.data);
    for (std::size_t i = 0; i < output.count; ++i)
      out[i] = i / input.count == rank ? static_cast<const float*>(input.data)[i % input.count] : -1;
    return {};
  }

  std::size_t rank = 0;
  std::mutex mutex;
  std::vector<std::size_t> counts;
  std::vector<plugin::DType> dtypes;
  std::vector<std::thread::id> threads;
  bool fail = false;
};

// Parameters of 10, 20, 30 and 40 elements, registered in that order.
struct Toy {
  std::vector<at::Tensor> parameters;
  std::vector<at::Tensor> weights;  // loss = sum_i <parameter_i, weight_i>: gradient = weight

  Toy() {
    torch::manual_seed(3);
    for (int64_t n : {10, 20, 30, 40}) {
      parameters.push_back(torch::randn({n}, torch::requires_grad()));
      weights.push_back(torch::randn({n}) * 1.37);
    }
  }
  at::Tensor loss(std::size_t skip = 99) const {
    auto total = torch::zeros({});
    for (std::size_t i = 0; i < parameters.size(); ++i)
      if (i != skip) total = total + (parameters[i] * weights[i]).sum();
    return total;
  }
  void step(GradientReducer& reducer, const at::Tensor& loss) {
    for (auto& p : parameters)
      if (p.grad().defined()) p.mutable_grad().zero_();
    reducer.begin_step(loss);
    loss.backward();
    reducer.finish_step();
  }
};

ReducerOptions options(std::size_t fusion_bytes, bool overlap,
                       plugin::DType wire = plugin::DType::kFloat32) {
  return {fusion_bytes, overlap, wire};
}

TEST(GradientReducer, BucketsFillInReverseRegistrationOrderUpToTheCap) {
  Toy toy;
  TriplingCommunicator comm;
  // 40 floats = 160 B; 30 + 20 = 200 B fit a 200 B cap; 10 floats, the loss and the failure
  // flag are the last.
  EXPECT_EQ(GradientReducer(toy.parameters, options(200, false), comm, nullptr).bucket_wire_bytes(),
            (std::vector<std::size_t>{160, 200, 48}));
  EXPECT_EQ(GradientReducer(toy.parameters, options(0, false), comm, nullptr).bucket_wire_bytes(),
            (std::vector<std::size_t>{160, 120, 80, 48}));
  EXPECT_EQ(
      GradientReducer(toy.parameters, options(1 << 20, false), comm, nullptr).bucket_wire_bytes(),
      (std::vector<std::size_t>{408}));
  // A tensor above the cap still goes, alone.
  EXPECT_EQ(GradientReducer(toy.parameters, options(100, false), comm, nullptr).bucket_count(), 4u);
}

// DDP's gradient_as_bucket_view: without overlap backward writes into the buckets, so a
// bucket's parameters share its storage; with overlap each hook copies into a bucket instead.
TEST(GradientReducer, WithoutOverlapTheGradientsAreViewsIntoTheBuckets) {
  for (bool overlap : {false, true}) {
    Toy toy;
    TriplingCommunicator comm;
    GradientReducer reducer(toy.parameters, options(200, overlap), comm, nullptr);
    EXPECT_EQ(reducer.zeroes_gradients(), !overlap);
    toy.step(reducer, toy.loss());
    const auto storage = [&](std::size_t i) {
      return toy.parameters[i].grad().storage().data();
    };
    // 30 and 20 floats share the 200 B bucket; 40 floats have one of their own.
    EXPECT_EQ(storage(1) == storage(2), !overlap);
    EXPECT_NE(storage(3), storage(2));
  }
}

TEST(GradientReducer, EveryModeWritesTheReducedGradientsAndTheLoss) {
  for (bool overlap : {false, true}) {
    Toy toy;
    TriplingCommunicator comm;
    GradientReducer reducer(toy.parameters, options(200, overlap), comm, nullptr);
    const auto loss = toy.loss();
    toy.step(reducer, loss);
    for (std::size_t i = 0; i < toy.parameters.size(); ++i)
      EXPECT_TRUE(torch::allclose(toy.parameters[i].grad(), toy.weights[i] * 3)) << i;
    EXPECT_NEAR(reducer.global_loss(), 3 * loss.item<double>(),
                1e-4 * std::abs(loss.item<double>()));
    // Launched strictly in bucket order, on the communication thread only with overlap.
    EXPECT_EQ(comm.counts, (std::vector<std::size_t>{40, 50, 12}));
    for (const auto& id : comm.threads)
      EXPECT_EQ(id != std::this_thread::get_id(), overlap) << "overlap " << overlap;
  }
}

TEST(GradientReducer, CompressionSendsTheNarrowTypeAndRoundsTheGradients) {
  Toy toy;
  TriplingCommunicator comm;  // leaves 16-bit buffers as they are
  GradientReducer reducer(toy.parameters, options(200, true, plugin::DType::kFloat16), comm,
                          nullptr);
  EXPECT_EQ(reducer.wire_bytes_per_step(), 200u);  // the status goes apart, in fp32
  toy.step(reducer, toy.loss());
  ASSERT_EQ(comm.dtypes.size(), 4u);  // three buckets, then the status
  for (std::size_t i = 0; i + 1 < comm.dtypes.size(); ++i)
    EXPECT_EQ(comm.dtypes[i], plugin::DType::kFloat16);
  for (std::size_t i = 0; i < toy.parameters.size(); ++i)
    EXPECT_TRUE(
        torch::equal(toy.parameters[i].grad(), toy.weights[i].to(torch::kHalf).to(torch::kFloat)))
        << i;
}

// The recorded loss is the same figure under every strategy and compression: a compressed
// bucket would round it to 8 bits of mantissa (bf16), so under ddp with compression the loss
// and failure flag travel in an fp32 allreduce of their own, as they do when sharded.
TEST(GradientReducer, ACompressedStepReducesItsLossAtFullPrecision) {
  for (bool overlap : {false, true}) {
    Toy toy;
    TriplingCommunicator comm;  // triples fp32 buffers only
    GradientReducer reducer(toy.parameters, options(200, overlap, plugin::DType::kBFloat16), comm,
                            nullptr);
    const auto loss = toy.loss() + 0.001234567;  // not a bf16 number
    toy.step(reducer, loss);
    EXPECT_NEAR(reducer.global_loss(), 3 * loss.item<double>(),
                1e-6 * std::abs(loss.item<double>()))
        << "overlap " << overlap;
    ASSERT_FALSE(comm.dtypes.empty());
    EXPECT_EQ(comm.dtypes.back(), plugin::DType::kFloat32);
    EXPECT_EQ(comm.counts.back(), 2u);  // the loss and the failure flag
  }
}

TEST(GradientReducer, AParameterWithoutGradientStillLetsItsBucketGo) {
  Toy toy;
  TriplingCommunicator comm;
  GradientReducer reducer(toy.parameters, options(0, true), comm, nullptr);
  toy.step(reducer, toy.loss(/*skip=*/2));
  EXPECT_EQ(comm.counts.size(), 4u);
  EXPECT_TRUE(torch::equal(toy.parameters[2].grad(), torch::zeros({30})));
  EXPECT_TRUE(torch::allclose(toy.parameters[3].grad(), toy.weights[3] * 3));
}

// A rank whose call failed still makes the step's other calls (its peers wait in them), and
// its failure flag goes in the step's status; the failure is kept with its message.
TEST(GradientReducer, AFailedAllreduceIsKeptAndEveryBucketStillGoes) {
  for (bool overlap : {false, true}) {
    Toy toy;
    TriplingCommunicator comm;
    GradientReducer reducer(toy.parameters, options(0, overlap), comm, nullptr);
    comm.fail = true;
    toy.step(reducer, toy.loss());
    EXPECT_EQ(comm.counts.size(), 4u);
    EXPECT_TRUE(reducer.any_rank_failed());
    const GroupProblem problem = reducer.fault().problem();
    EXPECT_EQ(problem.status, TrialStatus::kFailed);
    EXPECT_NE(problem.reason.find("allreduce: link down"), std::string::npos) << problem.reason;
  }
}

// A failure in the call that carries the status (ddp's last bucket) is told in the next step's.
TEST(GradientReducer, AFailureAfterTheStatusWentIsToldInTheNextStep) {
  Toy toy;
  TriplingCommunicator comm;
  GradientReducer reducer(toy.parameters, options(0, false), comm, nullptr);
  toy.step(reducer, toy.loss());
  EXPECT_FALSE(reducer.any_rank_failed());
  reducer.fault().record(plugin::Status::internal("late"), "allreduce");
  toy.step(reducer, toy.loss());
  EXPECT_TRUE(reducer.any_rank_failed());
}

// A rank whose forward raised (before begin_step) or whose backward raised midway still sends
// every bucket, with zeros and its failure flag; the next step is an ordinary one.
TEST(GradientReducer, AFailedStepSendsZerosAndItsFlag) {
  for (bool overlap : {false, true})
    for (bool after_begin : {false, true}) {
      Toy toy;
      TriplingCommunicator comm;
      GradientReducer reducer(toy.parameters, options(0, overlap), comm, nullptr);
      toy.step(reducer, toy.loss());
      EXPECT_FALSE(reducer.any_rank_failed());
      comm.counts.clear();
      if (after_begin) reducer.begin_step(toy.loss());
      reducer.fail_step();
      reducer.finish_step();
      EXPECT_TRUE(reducer.any_rank_failed()) << overlap << after_begin;
      EXPECT_EQ(comm.counts.size(), 4u);
      for (const auto& parameter : toy.parameters)
        EXPECT_TRUE(torch::equal(parameter.grad(), torch::zeros_like(parameter)));
      toy.step(reducer, toy.loss());
      EXPECT_FALSE(reducer.any_rank_failed());
      EXPECT_TRUE(torch::allclose(toy.parameters[3].grad(), toy.weights[3] * 3));
    }
}

// Provides memory for buffers of at most 100 bytes, as shm does up to what /dev/shm holds.
class SmallMemoryCommunicator final : public plugin::Communicator {
 public:
  plugin::Status init(const plugin::GroupInit&) noexcept override { return {}; }
  plugin::Status allreduce(plugin::BufferView, const plugin::AllreduceOptions&) noexcept override {
    return {};
  }
  plugin::Status broadcast(plugin::BufferView, int) noexcept override { return {}; }
  plugin::Status barrier() noexcept override { return {}; }
  void* provide_memory(std::size_t bytes) noexcept override {
    return bytes <= 100 ? std::malloc(bytes) : nullptr;
  }
  void release_memory(void* memory) noexcept override { std::free(memory); }
};

// The record says where each buffer lies: all in the communicator's memory, none, or how many
// of each when the communicator could not provide some.
TEST(ReductionMemory, SaysWhereEveryBufferLies) {
  auto communicator = std::make_shared<SmallMemoryCommunicator>();
  const auto fp32 = torch::TensorOptions().dtype(torch::kFloat32);
  EXPECT_EQ(ReductionMemory(nullptr).describe(), "host");
  ReductionMemory all_small(communicator);
  all_small.zeros(10, fp32);
  EXPECT_EQ(all_small.describe(), "communicator");
  ReductionMemory mixed(communicator);
  mixed.zeros(10, fp32);
  mixed.zeros(1000, fp32);
  EXPECT_EQ(mixed.describe(),
            "mixed: communicator for 1 of 2 buffers (40 B), host for 1 (3.91 KB, which the "
            "communicator could not provide)");
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

// Sharded, as rank 1 of 3: buckets of 40, 30 + 20 and 10 floats padded to 42, 51 and 12, each
// reduce-scattered into its 14, 17 and 4 element block, the loss in an allreduce of its own;
// the master shards start as the parameters' block and gather back into the parameters.
TEST(GradientReducer, ShardedBucketsAreReduceScatteredIntoBlocks) {
  for (bool overlap : {false, true}) {
    Toy toy;
    TriplingCommunicator comm;
    comm.rank = 1;
    ReducerOptions sharded = options(200, overlap);
    sharded.sharded = true;
    sharded.rank = 1;
    sharded.size = 3;
    GradientReducer reducer(toy.parameters, sharded, comm, nullptr);
    EXPECT_TRUE(reducer.zeroes_gradients());
    ShardedParameters parameters(reducer, comm, 1);
    const auto flat = [&](std::vector<std::size_t> order) {
      std::vector<at::Tensor> pieces;
      for (std::size_t i : order) pieces.push_back(toy.weights[i]);
      return torch::cat(pieces);
    };
    const auto loss = toy.loss();
    reducer.zero_gradients();
    reducer.begin_step(loss);
    loss.backward();
    reducer.finish_step();
    EXPECT_EQ(comm.counts, (std::vector<std::size_t>{42, 51, 12, 2}));
    EXPECT_TRUE(torch::allclose(reducer.gradient_shard(0), 3 * flat({3}).narrow(0, 14, 14)));
    EXPECT_TRUE(torch::allclose(reducer.gradient_shard(1), 3 * flat({2, 1}).narrow(0, 17, 17)));
    EXPECT_TRUE(torch::allclose(reducer.gradient_shard(2), 3 * flat({0}).narrow(0, 4, 4)));
    EXPECT_NEAR(reducer.global_loss(), 3 * loss.item<double>(), 1e-4 * std::abs(loss.item<double>()));

    const auto shards = parameters.master_shards();
    ASSERT_EQ(shards.size(), 3u);
    EXPECT_TRUE(torch::equal(shards[0].detach(), toy.parameters[3].detach().narrow(0, 14, 14)));
    EXPECT_EQ(shards[0].grad().data_ptr(), reducer.gradient_shard(0).data_ptr());
    shards[0].detach().fill_(5);
    parameters.gather();
    EXPECT_TRUE(torch::equal(toy.parameters[3].detach().narrow(0, 14, 14), torch::full({14}, 5.0f)));
    EXPECT_TRUE(torch::equal(toy.parameters[3].detach().narrow(0, 0, 14), torch::full({14}, -1.0f)));
  }
}

// A shard larger than one optimizer piece is stepped as pieces, views of it whose gradients
// are the same pieces of the gradient shard.
TEST(ShardedParameters, ALargeShardIsSteppedInPieces) {
  auto big = torch::zeros({2 * kOptimizerPieceElements + 10}, torch::requires_grad());
  TriplingCommunicator comm;
  ReducerOptions sharded = options(0, false);
  sharded.sharded = true;
  GradientReducer reducer({big}, sharded, comm, nullptr);
  ShardedParameters parameters(reducer, comm, 0);
  const auto pieces = parameters.master_shards();
  ASSERT_EQ(pieces.size(), 3u);
  EXPECT_EQ(pieces[2].numel(), 10);
  EXPECT_EQ(pieces[1].grad().data_ptr<float>(),
            reducer.gradient_shard(0).data_ptr<float>() + kOptimizerPieceElements);
  pieces[2].detach().fill_(4);
  parameters.gather();
  EXPECT_EQ(big[2 * kOptimizerPieceElements + 9].item<float>(), 4.0f);
}

}  // namespace
}  // namespace harness

namespace harness {
namespace {

// Under ddp without overlap the optimizer steps each bucket's parameters as flat pieces whose
// gradients are the reduced bucket: the same update as stepping every parameter on its own,
// element for element, and the parameters stay views into one buffer per bucket.
TEST(FlatParameters, AdamOnTheBucketsStepsAsAdamOnEachParameter) {
  Toy each, flat;
  TriplingCommunicator comm_each, comm_flat;
  GradientReducer reducer_each(each.parameters, options(200, false), comm_each, nullptr);
  GradientReducer reducer_flat(flat.parameters, options(200, false), comm_flat, nullptr);
  FlatParameters pieces(reducer_flat);
  ASSERT_EQ(pieces.pieces().size(), reducer_flat.bucket_count());
  EXPECT_EQ(pieces.pieces()[0].grad().data_ptr(), reducer_flat.bucket_gradient(0).data_ptr());
  EXPECT_EQ(flat.parameters[1].storage().data(), flat.parameters[2].storage().data());
  const auto adam = [](const std::vector<at::Tensor>& tensors) {
    return torch::optim::Adam(tensors, torch::optim::AdamOptions(0.01).weight_decay(0.1));
  };
  torch::optim::Adam on_each = adam(each.parameters), on_flat = adam(pieces.pieces());
  for (int step = 0; step < 5; ++step) {
    each.step(reducer_each, each.loss());
    flat.step(reducer_flat, flat.loss());
    on_each.step();
    on_flat.step();
  }
  for (std::size_t i = 0; i < each.parameters.size(); ++i)
    EXPECT_TRUE(torch::equal(each.parameters[i], flat.parameters[i])) << "parameter " << i;
  EXPECT_FALSE(torch::equal(each.parameters[0], Toy().parameters[0]));  // it did step
}

}  // namespace
}  // namespace harness

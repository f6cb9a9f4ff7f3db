// One conformance suite for every communicator plugin found in the plugin directory: in-place
// allreduce (sum, avg; fp32, fp64; 0, 1, 7 and 1 Mi elements) on the whole job and on every
// sub-group of its first ranks, broadcast, and invalid arguments.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "communicator_factory.h"
#include "mpi_runtime.h"
#include "plugin_registry.h"

namespace harness {
namespace {

const PluginRegistry& registry() {
  static const PluginRegistry plugins = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  return plugins;
}

std::vector<std::string> communicator_names() {
  std::vector<std::string> names;
  for (const auto& name : registry().names(plugin::PluginKind::kCommunicator)) names.push_back(name);
  return names;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int world_size() {
  int size = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  return size;
}

// Rank r's element i: small integers, exact in every dtype.
double element(int rank, std::size_t i) { return static_cast<double>((rank + 1) * (i % 11 + 1)); }

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    handle_ = registry().find(plugin::PluginKind::kCommunicator, GetParam());
    ASSERT_NE(handle_, nullptr);
    const auto capabilities = communicator_capabilities(*handle_);
    if (!capabilities.unavailable_reason.empty()) GTEST_SKIP() << capabilities.unavailable_reason;
    if (!capabilities.host_buffers) GTEST_SKIP() << GetParam() << " takes device buffers only";
  }

  template <class T>
  void check_allreduce(MPI_Comm comm, plugin::DType dtype, plugin::ReduceOp op) {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    auto communicator = join_group(*handle_, Json::object(), comm);
    for (std::size_t count : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{1} << 20}) {
      std::vector<T> data(count);
      for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<T>(element(rank, i));
      const plugin::Status status =
          communicator->allreduce({count ? data.data() : nullptr, count, dtype}, {op, nullptr});
      ASSERT_TRUE(status.is_ok()) << status.message();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < count; ++i) {
        double expected = 0;
        for (int r = 0; r < size; ++r) expected += element(r, i);
        if (op == plugin::ReduceOp::kAvg) expected /= size;
        if (std::abs(static_cast<double>(data[i]) - expected) > 1e-6 * std::abs(expected)) ++wrong;
      }
      EXPECT_EQ(wrong, 0u) << GetParam() << " " << plugin::dtype_name(dtype) << " "
                           << plugin::reduce_op_name(op) << " count " << count << " group of "
                           << size;
    }
  }

  // On the whole job and on each group of the first k ranks (k >= 2).
  template <class T>
  void check_all_groups(plugin::DType dtype, plugin::ReduceOp op) {
    for (int k = 2; k <= world_size(); ++k) {
      MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, k);
      if (group != MPI_COMM_NULL) {
        check_allreduce<T>(group, dtype, op);
        MPI_Comm_free(&group);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }

  const PluginHandle* handle_ = nullptr;
};

TEST_P(Conformance, AllreduceSumFloat32) { check_all_groups<float>(plugin::DType::kFloat32, plugin::ReduceOp::kSum); }
TEST_P(Conformance, AllreduceAvgFloat32) { check_all_groups<float>(plugin::DType::kFloat32, plugin::ReduceOp::kAvg); }
TEST_P(Conformance, AllreduceSumFloat64) { check_all_groups<double>(plugin::DType::kFloat64, plugin::ReduceOp::kSum); }
TEST_P(Conformance, AllreduceAvgFloat64) { check_all_groups<double>(plugin::DType::kFloat64, plugin::ReduceOp::kAvg); }

TEST_P(Conformance, BroadcastFromEveryRoot) {
  auto communicator = join_group(*handle_, Json::object(), MPI_COMM_WORLD);
  for (int root = 0; root < world_size(); ++root) {
    std::vector<double> data(1000, world_rank() == root ? 3.5 + root : -1.0);
    ASSERT_TRUE(communicator->broadcast({data.data(), data.size(), plugin::DType::kFloat64}, root).is_ok());
    for (double v : data) ASSERT_EQ(v, 3.5 + root);
  }
  ASSERT_TRUE(communicator->barrier().is_ok());
}

TEST_P(Conformance, InvalidArgumentsGiveErrorsNotCrashes) {
  auto communicator = join_group(*handle_, Json::object(), MPI_COMM_WORLD);
  const plugin::Status null_data =
      communicator->allreduce({nullptr, 5, plugin::DType::kFloat32}, {});
  EXPECT_FALSE(null_data.is_ok());
  EXPECT_FALSE(null_data.message().empty());
  float value = 1;
  EXPECT_FALSE(communicator->broadcast({&value, 1, plugin::DType::kFloat32}, world_size()).is_ok());
  EXPECT_FALSE(communicator->broadcast({&value, 1, plugin::DType::kFloat32}, -1).is_ok());
  const auto capabilities = communicator_capabilities(*handle_);
  for (auto dtype : {plugin::DType::kFloat16, plugin::DType::kBFloat16})
    if (std::find(capabilities.dtypes.begin(), capabilities.dtypes.end(), dtype) == capabilities.dtypes.end()) {
      const plugin::Status s = communicator->allreduce({&value, 1, dtype}, {});
      EXPECT_EQ(s.code(), plugin::StatusCode::kUnsupported) << s.message();
    }
  if (!capabilities.cuda_buffers)
    EXPECT_EQ(communicator->allreduce({&value, 1, plugin::DType::kFloat32, plugin::DeviceKind::kCuda}, {}).code(),
              plugin::StatusCode::kUnsupported);
}

TEST_P(Conformance, UninitialisedCommunicatorRefusesWork) {
  auto communicator = create_communicator(*handle_, Json::object());
  float value = 1;
  EXPECT_FALSE(communicator->allreduce({&value, 1, plugin::DType::kFloat32}, {}).is_ok());
}

INSTANTIATE_TEST_SUITE_P(EveryCommunicator, Conformance, ::testing::ValuesIn(communicator_names()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace harness

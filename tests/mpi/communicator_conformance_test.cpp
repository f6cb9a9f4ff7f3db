// One conformance suite for every communicator plugin found in the plugin directory: in-place
// allreduce (sum, avg; fp32, fp64; 0, 1, 7 and 1 Mi elements) on the whole job and on every
// sub-group of its first ranks, in host memory and in memory the communicator provides,
// broadcast, invalid arguments, and the collectives of API 4 (reduce_scatter, allgather,
// alltoall) wherever a plugin lists them, exactly, on every sub-group and for odd block sizes;
// a plugin that does not list one says so when asked.
#include <gtest/gtest.h>

#include <c10/util/BFloat16.h>
#include <c10/util/Half.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <vector>

#include "common/element_check.h"
#include "common/hashing.h"
#include "common/random.h"
#include "loader/communicator_factory.h"
#include "loader/plugin_capabilities.h"
#include "loader/plugin_registry.h"
#include "mpi/trial_groups.h"
#include "mpi_test_util.h"
#include "test_support.h"
#include "trial/backend_join.h"
#include "trial/composed_backend.h"
#include "trial/hierarchical_backend.h"  // the composition every composed backend test runs

namespace harness {
namespace {

const PluginRegistry& registry() {
  static const PluginRegistry plugins = PluginRegistry::discover({HARNESS_PLUGIN_DIR});
  return plugins;
}

// A plugin and one configuration of it: every gloo algorithm is its own implementation.
struct Variant {
  std::string name;
  std::string params;
  // The largest buffer each dtype's check reduces. 1 KiB chunks reach many chunks per buffer
  // at 2^16 elements already; at 2^20 each call would make thousands of hand-overs, and with
  // more ranks than cores each one waits for the scheduler (minutes per run, no more checked).
  std::size_t largest_count = std::size_t{1} << 20;
};

constexpr std::size_t kManySmallChunks = std::size_t{1} << 16;

std::vector<Variant> communicator_variants() {
  std::vector<Variant> variants;
  for (const auto& name : registry().names(plugin::PluginKind::kCommunicator)) {
    if (name == "gloo") {
      for (const char* algorithm : {"ring", "ring_chunked", "halving_doubling", "bcube"})
        variants.push_back({name, std::string(R"({"algorithm": ")") + algorithm + "\"}"});
      // gloo's sync mode: the caller reads the sockets (another receive path in gloo).
      for (const char* receive : {"blocking", "busy_poll", "auto"})
        variants.push_back(
            {name, std::string(R"({"algorithm": "ring", "receive": ")") + receive + "\"}"});
    } else if (name == "ring" || name == "shm") {
      variants.push_back({name, "{}"});
      variants.push_back({name, R"({"chunk_bytes": 1024})", kManySmallChunks});
      if (name == "shm") {
        // shm's cross-memory attach for large buffers in the host's memory (staged by default).
        variants.push_back({name, R"({"cross_memory": true})"});
        // Provided memory reduced in place (staged by default); its largest buffers take 16
        // chunks.
        variants.push_back({name, R"({"in_place": true})"});
        // Waiting ranks that sleep on the segment's futex at once (no spinning, no yielding):
        // every meeting goes through a wake, many small chunks make many meetings.
        variants.push_back(
            {name, R"({"idle": "sleep", "spin_us": 0, "yield_us": 0, "chunk_bytes": 1024})",
             kManySmallChunks});
      }
    } else {
      variants.push_back({name, "{}"});
    }
  }
  // The composition: shm within the host, another backend across (on one host a level of
  // one rank each; across the test bed's hosts, both levels at work).
  if (registry().find(plugin::PluginKind::kCommunicator, "shm"))
    for (const char* inter :
         {R"({"inter": "mpi"})", R"({"inter": "ring", "intra_params": {"chunk_bytes": 1024}})",
          R"({"inter": "gloo", "inter_params": {"algorithm": "halving_doubling"}})"})
      if (registry().find(
              plugin::PluginKind::kCommunicator,
              communicator_plugins(hierarchical_backend().name, Json::parse(inter)).back()))
        variants.push_back({hierarchical_backend().name, inter,
                            std::string(inter).find("chunk_bytes") != std::string::npos
                                ? kManySmallChunks
                                : std::size_t{1} << 20});
  return variants;
}

std::string variant_label(const Variant& v) {
  std::string label = v.name;
  for (char c : v.params)
    if (std::isalnum(static_cast<unsigned char>(c))) label += c;
  return label;
}

using testing::world_rank;
using testing::world_size;

// `count` elements of T for a communicator to reduce, `lead` elements into the allocation: in
// memory the communicator provides (collective) when `provided` and it offers some, else in
// host memory.
template <class T>
class TestBuffer {
 public:
  TestBuffer(plugin::Communicator& communicator, std::size_t count, bool provided,
             std::size_t lead = 0)
      : communicator_(communicator) {
    if (provided) memory_ = communicator.provide_memory((lead + count) * sizeof(T));
    if (!memory_) host_.resize(lead + count);
    data_ = (memory_ ? static_cast<T*>(memory_) : host_.data()) + lead;
  }
  ~TestBuffer() {
    if (memory_) communicator_.release_memory(memory_);
  }
  TestBuffer(const TestBuffer&) = delete;
  TestBuffer& operator=(const TestBuffer&) = delete;

  T* data() const { return data_; }
  bool provided() const { return memory_ != nullptr; }

 private:
  plugin::Communicator& communicator_;
  void* memory_ = nullptr;
  std::vector<T> host_;
  T* data_ = nullptr;
};

// Rank r's element i: small integers, exact in every dtype.
double element(int rank, std::size_t i) { return static_cast<double>((rank + 1) * (i % 11 + 1)); }

class Conformance : public ::testing::TestWithParam<Variant> {
 protected:
  void SetUp() override {
    params_ = Json::parse(GetParam().params);
    // A composed backend: the capabilities that matter are those of its level across hosts.
    handle_ = registry().find(plugin::PluginKind::kCommunicator,
                              communicator_plugins(GetParam().name, params_).back());
    ASSERT_NE(handle_, nullptr);
    const auto capabilities = communicator_capabilities(*handle_);
    if (!capabilities.unavailable_reason.empty()) GTEST_SKIP() << capabilities.unavailable_reason;
    if (!capabilities.host_buffers) GTEST_SKIP() << GetParam().name << " takes device buffers only";
  }

  template <class T>
  void check_allreduce(MPI_Comm comm, plugin::DType dtype, plugin::ReduceOp op) {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    auto communicator = join_or_decline(comm);
    if (!communicator) return;
    for (std::size_t count :
         {std::size_t{0}, std::size_t{1}, std::size_t{7}, GetParam().largest_count}) {
      TestBuffer<T> buffer(*communicator, count, provided_memory_, /*lead=*/3);
      T* data = buffer.data();
      for (std::size_t i = 0; i < count; ++i) data[i] = static_cast<T>(element(rank, i));
      const plugin::Status status =
          communicator->allreduce({count ? data : nullptr, count, dtype}, {op, nullptr});
      ASSERT_TRUE(status.is_ok()) << status.message();
      std::size_t wrong = 0;
      for (std::size_t i = 0; i < count; ++i) {
        double expected = 0;
        for (int r = 0; r < size; ++r) expected += element(r, i);
        if (op == plugin::ReduceOp::kAvg) expected /= size;
        if (element_wrong(static_cast<double>(static_cast<float>(data[i])), expected,
                          tolerance(dtype)))
          ++wrong;
      }
      EXPECT_EQ(wrong, 0u) << variant_label(GetParam()) << " " << plugin::dtype_name(dtype) << " "
                           << plugin::reduce_op_name(op) << " count " << count << " group of "
                           << size << (buffer.provided() ? " in provided memory" : "");
    }
  }

  // On the whole job and on each group of the first k ranks (k >= 2).
  template <class T>
  void check_all_groups(plugin::DType dtype, plugin::ReduceOp op) {
    for (int k = 2; k <= world_size(); ++k) {
      MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, k, nullptr);
      if (group != MPI_COMM_NULL) {
        check_allreduce<T>(group, dtype, op);
        MPI_Comm_free(&group);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }

  // A backend may decline a group size it cannot do right (gloo bcube off a power of its
  // base); it must say so at init, not miscompute. Returns nullptr when declined.
  std::shared_ptr<plugin::Communicator> join_or_decline(MPI_Comm comm) {
    TrialContext context;
    context.comm = comm;
    MPI_Comm_rank(comm, &context.rank);
    MPI_Comm_size(comm, &context.size);
    context.plugins = &registry();
    // Every rank of the group gets the same answer, so all take the same branch.
    const JoinedBackend joined =
        join_backend(context, GetParam().name, params_, plugin::DType::kFloat32, false);
    if (!joined.problem.any()) return joined.communicator;
    EXPECT_EQ(joined.problem.status, TrialStatus::kSkipped) << joined.problem.reason;
    if (world_rank() == 0)
      std::printf("  %s declines a group of %d: %s\n", variant_label(GetParam()).c_str(),
                  context.size, joined.problem.reason.c_str());
    return nullptr;
  }

  static double tolerance(plugin::DType dtype) {
    return dtype == plugin::DType::kFloat16    ? 1e-3
           : dtype == plugin::DType::kBFloat16 ? 1e-2
                                               : 1e-6;
  }

  bool offers(plugin::Collective collective) const {
    if (find_composed_backend(GetParam().name)) return false;  // allreduce and broadcast only
    const auto collectives = communicator_capabilities(*handle_).collectives;
    return std::find(collectives.begin(), collectives.end(), collective) != collectives.end();
  }

  // One call of a collective of API 4 by `communicator`, joined over `comm`, blocks of `block`
  // elements, checked element by element against what every rank's input makes; the wrong ones
  // are counted.
  template <class T>
  void check_split(plugin::Communicator& communicator, MPI_Comm comm, plugin::Collective collective,
                   plugin::DType dtype, std::size_t block,
                   plugin::ReduceOp op = plugin::ReduceOp::kSum) {
    int rank = 0, size = 0;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    const std::size_t whole = block * static_cast<std::size_t>(size);
    const bool gathers = collective == plugin::Collective::kAllgather;
    const bool scatters = collective == plugin::Collective::kReduceScatter;
    std::vector<T> input(gathers ? block : whole), output(scatters ? block : whole, T(-7));
    for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<T>(element(rank, i));
    const plugin::BufferView in{input.data(), input.size(), dtype};
    const plugin::BufferView out{output.data(), output.size(), dtype};
    const plugin::Status status = scatters  ? communicator.reduce_scatter(in, out, {op, nullptr})
                                  : gathers ? communicator.allgather(in, out, {})
                                            : communicator.alltoall(in, out, {});
    // A plugin may decline a collective in one of its modes (gloo's alltoall outside its loop
    // thread), saying so, as join_or_decline allows for a group size.
    if (status.code() == plugin::StatusCode::kUnsupported &&
        status.message().find("does not support") != std::string::npos) {
      if (rank == 0)
        std::printf("  %s declines: %s\n", variant_label(GetParam()).c_str(),
                    status.message().c_str());
      return;
    }
    ASSERT_TRUE(status.is_ok()) << status.message();
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < output.size(); ++i) {
      double expected = 0;
      if (scatters) {
        for (int r = 0; r < size; ++r) expected += element(r, rank * block + i);
        if (op == plugin::ReduceOp::kAvg) expected /= size;
      } else if (gathers) {
        expected = element(static_cast<int>(i / block), i % block);
      } else {  // block i / block of the output is block `rank` of that rank's input
        expected = element(static_cast<int>(i / block), rank * block + i % block);
      }
      if (element_wrong(static_cast<double>(static_cast<float>(output[i])), expected,
                        tolerance(dtype)))
        ++wrong;
    }
    EXPECT_EQ(wrong, 0u) << variant_label(GetParam()) << " " << plugin::collective_name(collective)
                         << " " << plugin::dtype_name(dtype) << " block " << block << " group of "
                         << size;
  }

  // Every collective of API 4 the plugin lists, each dtype it lists, on the whole job and each
  // group of its first ranks, blocks of 1, 7 and 1001 elements (odd: no even split to hide in).
  template <class T>
  void check_split_collectives(plugin::DType dtype) {
    if (!supports(dtype)) return;
    for (int k = 2; k <= world_size(); ++k) {
      MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, k, nullptr);
      if (group != MPI_COMM_NULL) {
        // One communicator per group makes every call, the collectives in turn: joining one per
        // call made most of this test's time (gloo connects every pair anew).
        if (auto communicator = join_or_decline(group)) {
          for (const auto collective :
               {plugin::Collective::kReduceScatter, plugin::Collective::kAllgather,
                plugin::Collective::kAlltoall})
            if (offers(collective))
              for (const std::size_t block : {std::size_t{1}, std::size_t{7}, std::size_t{1001}})
                check_split<T>(*communicator, group, collective, dtype, block);
          if (offers(plugin::Collective::kReduceScatter))
            check_split<T>(*communicator, group, plugin::Collective::kReduceScatter, dtype, 7,
                           plugin::ReduceOp::kAvg);
        }
        MPI_Comm_free(&group);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    }
  }

  bool supports(plugin::DType dtype) const {
    const auto dtypes = communicator_capabilities(*handle_).dtypes;
    return std::find(dtypes.begin(), dtypes.end(), dtype) != dtypes.end();
  }

  const PluginHandle* handle_ = nullptr;
  Json params_;
  bool provided_memory_ = false;  // buffers in memory the communicator provides, if it does
};

TEST_P(Conformance, AllreduceSumFloat32) {
  check_all_groups<float>(plugin::DType::kFloat32, plugin::ReduceOp::kSum);
}
TEST_P(Conformance, AllreduceAvgFloat32) {
  check_all_groups<float>(plugin::DType::kFloat32, plugin::ReduceOp::kAvg);
}
TEST_P(Conformance, AllreduceSumFloat64) {
  check_all_groups<double>(plugin::DType::kFloat64, plugin::ReduceOp::kSum);
}
TEST_P(Conformance, AllreduceAvgFloat64) {
  check_all_groups<double>(plugin::DType::kFloat64, plugin::ReduceOp::kAvg);
}

TEST_P(Conformance, AllreduceHalfPrecisionWhereSupported) {
  if (!supports(plugin::DType::kFloat16) && !supports(plugin::DType::kBFloat16))
    GTEST_SKIP() << GetParam().name << " lists no 16-bit float type";
  if (supports(plugin::DType::kFloat16)) {
    check_all_groups<c10::Half>(plugin::DType::kFloat16, plugin::ReduceOp::kSum);
    check_all_groups<c10::Half>(plugin::DType::kFloat16, plugin::ReduceOp::kAvg);
  }
  if (supports(plugin::DType::kBFloat16))
    check_all_groups<c10::BFloat16>(plugin::DType::kBFloat16, plugin::ReduceOp::kSum);
}

// The same sums in memory the communicator provides, where it offers some.
TEST_P(Conformance, AllreduceInProvidedMemory) {
  if (auto communicator = join_or_decline(MPI_COMM_WORLD)) {
    TestBuffer<float> probe(*communicator, 16, /*provided=*/true);
    if (!probe.provided()) GTEST_SKIP() << GetParam().name << " provides no memory";
  } else {
    GTEST_SKIP() << "declined this group size";
  }
  provided_memory_ = true;
  check_all_groups<float>(plugin::DType::kFloat32, plugin::ReduceOp::kSum);
  check_all_groups<double>(plugin::DType::kFloat64, plugin::ReduceOp::kAvg);
  if (supports(plugin::DType::kFloat16))
    check_all_groups<c10::Half>(plugin::DType::kFloat16, plugin::ReduceOp::kSum);
  if (supports(plugin::DType::kBFloat16))
    check_all_groups<c10::BFloat16>(plugin::DType::kBFloat16, plugin::ReduceOp::kSum);
}

// Provided memory is offered on every rank or on none, and ranks that do not pass matching
// buffers there (one in it, the others not; other places in it) fail alike or sum right (a
// path that reads any memory, such as staging, has nothing to refuse), never hang.
TEST_P(Conformance, ProvidedMemoryMismatchFailsOnEveryRankOrSumsRight) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  constexpr std::size_t kCount = 300000;  // larger than a chunk: reduced in place, if at all
  TestBuffer<float> shared(*communicator, kCount + 8, /*provided=*/true);
  int provided = shared.provided() ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&provided, &everywhere, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int anywhere = 0;
  MPI_Allreduce(&provided, &anywhere, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  ASSERT_EQ(everywhere, anywhere) << "provided memory on some ranks only";
  if (!provided) GTEST_SKIP() << GetParam().name << " provides no memory";
  // Even ranks one way, odd ones the other: every host of the test bed holds both, so each
  // host's ranks disagree (a host whose ranks agreed would go on to the level across hosts).
  const bool even = world_rank() % 2 == 0;
  std::vector<float> host(kCount, 1.0f);
  const auto refused_or_right = [&](float* data) {
    std::fill(shared.data(), shared.data() + kCount + 8, 1.0f);
    std::fill(host.begin(), host.end(), 1.0f);
    const plugin::Status status =
        communicator->allreduce({data, kCount, plugin::DType::kFloat32}, {});
    int ok = status.is_ok() ? 1 : 0, every = 0, any = 0;
    MPI_Allreduce(&ok, &every, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce(&ok, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    ASSERT_EQ(every, any) << "refused on some ranks only: " << status.message();
    if (!ok) return;
    EXPECT_EQ(std::count(data, data + kCount, static_cast<float>(world_size())),
              static_cast<std::ptrdiff_t>(kCount));
  };
  refused_or_right(even ? shared.data() : host.data());
  refused_or_right(shared.data() + (even ? 8 : 0));
  // And the communicator still works afterwards.
  std::fill(shared.data(), shared.data() + kCount, 1.0f);
  ASSERT_TRUE(
      communicator->allreduce({shared.data(), kCount, plugin::DType::kFloat32}, {}).is_ok());
  EXPECT_EQ(shared.data()[kCount - 1], static_cast<float>(world_size()));
}

// shm takes a path by size (one meeting for small buffers, staged chunks beyond): ranks whose
// counts differ — on one path or across two — fail alike, never hang or read a stale call, and
// the communicator then sums right on both paths.
TEST_P(Conformance, ShmCountsThatDifferFailOnEveryRankAcrossPaths) {
  if (GetParam().name != "shm") GTEST_SKIP() << "shm's own paths";
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  const bool even = world_rank() % 2 == 0;
  std::vector<float> data(std::size_t{1} << 17, 1.0f);
  const auto allreduce = [&](std::size_t count) {
    std::fill(data.begin(), data.end(), 1.0f);
    return communicator->allreduce({data.data(), count, plugin::DType::kFloat32}, {});
  };
  const auto sums_right = [&](std::size_t count) {
    ASSERT_TRUE(allreduce(count).is_ok()) << count;
    EXPECT_EQ(std::count(data.begin(), data.begin() + static_cast<std::ptrdiff_t>(count),
                         static_cast<float>(world_size())),
              static_cast<std::ptrdiff_t>(count));
  };
  // Calls of 8 elements on both halves of the slots first: what they left there (the same
  // count) must not pass for a peer's agreement later.
  for (const std::size_t count : {std::size_t{8}, std::size_t{8}}) sums_right(count);
  // One-shot against staged, then one-shot sizes both (a few elements), twice each.
  for (const std::size_t odd_count : {data.size(), data.size(), std::size_t{16}, std::size_t{16}})
    EXPECT_FALSE(allreduce(even ? 8 : odd_count).is_ok()) << "odd ranks " << odd_count;
  for (const std::size_t count : {std::size_t{8}, std::size_t{9}, data.size(), std::size_t{8}})
    sums_right(count);
}

TEST_P(Conformance, ReduceScatterAllgatherAlltoallWhereListed) {
  check_split_collectives<float>(plugin::DType::kFloat32);
  check_split_collectives<double>(plugin::DType::kFloat64);
  check_split_collectives<c10::Half>(plugin::DType::kFloat16);
  check_split_collectives<c10::BFloat16>(plugin::DType::kBFloat16);
}

// c10d's ProcessGroup answers a collective it lacks with an error naming it; so does a plugin.
TEST_P(Conformance, ACollectiveNotListedIsRefusedByName) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  std::vector<float> input(4 * world_size(), 1.0f), output(4 * world_size(), 0.0f);
  const plugin::BufferView in{input.data(), input.size(), plugin::DType::kFloat32};
  const plugin::BufferView out{output.data(), output.size(), plugin::DType::kFloat32};
  for (const auto collective : {plugin::Collective::kAllgather, plugin::Collective::kAlltoall}) {
    if (offers(collective)) continue;  // the composed backend's, among the built-in ones
    const plugin::BufferView small{input.data(), 4, plugin::DType::kFloat32};
    const plugin::Status status = collective == plugin::Collective::kAllgather
                                      ? communicator->allgather(small, out, {})
                                      : communicator->alltoall(in, out, {});
    EXPECT_EQ(status.code(), plugin::StatusCode::kUnsupported) << status.message();
    EXPECT_NE(status.message().find(std::string("does not support ") +
                                    plugin::collective_name(collective)),
              std::string::npos)
        << status.message();
  }
  ASSERT_TRUE(communicator->barrier().is_ok());
}

TEST_P(Conformance, BroadcastFromEveryRoot) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  for (int root = 0; root < world_size(); ++root) {
    std::vector<double> data(1000, world_rank() == root ? 3.5 + root : -1.0);
    ASSERT_TRUE(
        communicator->broadcast({data.data(), data.size(), plugin::DType::kFloat64}, root).is_ok());
    for (double v : data) ASSERT_EQ(v, 3.5 + root);
  }
  ASSERT_TRUE(communicator->barrier().is_ok());
}

TEST_P(Conformance, InvalidArgumentsGiveErrorsNotCrashes) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  const plugin::Status null_data =
      communicator->allreduce({nullptr, 5, plugin::DType::kFloat32}, {});
  EXPECT_FALSE(null_data.is_ok());
  EXPECT_FALSE(null_data.message().empty());
  float value = 1;
  EXPECT_FALSE(communicator->broadcast({&value, 1, plugin::DType::kFloat32}, world_size()).is_ok());
  EXPECT_FALSE(communicator->broadcast({&value, 1, plugin::DType::kFloat32}, -1).is_ok());
  const auto capabilities = communicator_capabilities(*handle_);
  for (auto dtype : {plugin::DType::kFloat16, plugin::DType::kBFloat16})
    if (std::find(capabilities.dtypes.begin(), capabilities.dtypes.end(), dtype) ==
        capabilities.dtypes.end()) {
      const plugin::Status s = communicator->allreduce({&value, 1, dtype}, {});
      EXPECT_EQ(s.code(), plugin::StatusCode::kUnsupported) << s.message();
    }
  if (!capabilities.cuda_buffers) {
    EXPECT_EQ(
        communicator->allreduce({&value, 1, plugin::DType::kFloat32, plugin::DeviceKind::kCuda}, {})
            .code(),
        plugin::StatusCode::kUnsupported);
  }
}

// Ranks reduce buffers whose addresses differ from rank to rank and call to call (a benchmark
// reallocating per size, buckets): rank 0 reuses one buffer, the others take a new one each
// call. A backend that caches per-buffer state by address must still make matching calls.
TEST_P(Conformance, BuffersAtDifferentAddressesOnEachRank) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  const int rank = world_rank();
  constexpr std::size_t kCount = 64;
  std::vector<float> reused(kCount);
  std::vector<std::vector<float>> fresh;
  for (int call = 0; call < 4; ++call) {
    fresh.emplace_back(kCount);
    std::vector<float>& data = rank == 0 ? reused : fresh.back();
    std::fill(data.begin(), data.end(), static_cast<float>(rank + call));
    const plugin::Status status =
        communicator->allreduce({data.data(), kCount, plugin::DType::kFloat32}, {});
    ASSERT_TRUE(status.is_ok()) << status.message();
    float expected = 0;
    for (int r = 0; r < world_size(); ++r) expected += static_cast<float>(r + call);
    EXPECT_EQ(data.front(), expected) << "call " << call;
    EXPECT_EQ(data.back(), expected) << "call " << call;
  }
}

// Sums of inexact values depend on their order: every rank must still get the same bits (the
// replicas of a data-parallel model would drift apart otherwise). Sizes cross chunk borders.
TEST_P(Conformance, EveryRankGetsTheSameBits) {
  if (GetParam().name == "gloo" && params_.value("algorithm", "") == "ring" && world_size() > 2)
    GTEST_SKIP() << "gloo's ring sums in a different order on each rank (docs/plugins.md)";
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  for (const std::size_t count : {std::size_t{1000}, std::size_t{300000}}) {
    // In host memory, then in provided memory: the same bits on every rank, and both ways.
    std::vector<std::uint64_t> hashes;
    for (const bool provided : {false, true}) {
      TestBuffer<float> buffer(*communicator, count, provided);
      SplitMix64 rng(static_cast<std::uint64_t>(world_rank()) * 7919 + count);
      for (std::size_t i = 0; i < count; ++i)
        buffer.data()[i] = static_cast<float>(rng.normal() * 1e3);
      const plugin::Status status =
          communicator->allreduce({buffer.data(), count, plugin::DType::kFloat32}, {});
      ASSERT_TRUE(status.is_ok()) << status.message();
      hashes.push_back(fnv1a64(buffer.data(), count * sizeof(float)));
    }
    EXPECT_EQ(hashes[0], hashes[1])
        << variant_label(GetParam()) << ": provided memory sums "
        << "differently on rank " << world_rank() << ", count " << count;
    std::vector<std::uint64_t> all(static_cast<std::size_t>(world_size()));
    MPI_Allgather(&hashes[0], 1, MPI_UINT64_T, all.data(), 1, MPI_UINT64_T, MPI_COMM_WORLD);
    for (std::size_t r = 1; r < all.size(); ++r)
      EXPECT_EQ(all[r], all[0]) << variant_label(GetParam()) << ": rank " << r << " differs, count "
                                << count;
  }
}

// 200 allreduces in a row, call k of count_of(k) elements: exact small integers, different in
// each call, so any element taken from the wrong call shows. The elements wrong on this rank.
std::size_t wrong_over_calls(plugin::Communicator& communicator,
                             const std::function<std::size_t(int)>& count_of) {
  constexpr int kCalls = 200;
  std::size_t wrong = 0;
  std::vector<float> data;
  for (int call = 0; call < kCalls; ++call) {
    const std::size_t count = count_of(call);
    const double scale = call % 7 + 1;
    data.resize(std::max(data.size(), count));
    for (std::size_t i = 0; i < count; ++i)
      data[i] = static_cast<float>(element(world_rank(), i) * scale);
    const plugin::Status status =
        communicator.allreduce({data.data(), count, plugin::DType::kFloat32}, {});
    EXPECT_TRUE(status.is_ok()) << status.message();
    if (!status.is_ok()) return count;
    for (std::size_t i = 0; i < count; ++i) {
      double expected = 0;
      for (int r = 0; r < world_size(); ++r) expected += element(r, i) * scale;
      wrong += static_cast<double>(data[i]) == expected ? 0 : 1;
    }
  }
  return wrong;
}

// Calls of one size follow each other as training steps do: a peer already in its next call
// must not overwrite what a slower rank has yet to read of the last one.
TEST_P(Conformance, BackToBackCallsOfOneSizeStayRight) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  EXPECT_EQ(wrong_over_calls(*communicator, [](int) { return std::size_t{1000}; }), 0u)
      << variant_label(GetParam()) << ": elements wrong over calls of 1000 on rank "
      << world_rank();
}

// Calls of a small and a larger size in turn (a bucket and the status of a training step; a
// backend may take another path for each): a rank already in the next call, on the other path,
// must not overwrite what a slower rank has yet to read of the last one.
TEST_P(Conformance, CallsOfTwoSizesInTurnStayRight) {
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  const auto in_turn = [](int call) {
    return call % 2 ? std::size_t{70000} : std::size_t{1000};
  };
  EXPECT_EQ(wrong_over_calls(*communicator, in_turn), 0u)
      << variant_label(GetParam())
      << ": elements wrong over calls of 1000 and 70000 in turn on rank " << world_rank();
}

// Sharded training's calls, step after step: a reduce-scatter of each bucket (blocks of a few
// elements: buckets of a few hundred bytes), the status allreduce, an allgather of each bucket
// (and an alltoall, where offered); every call's input differs from the last. Exact small integers, so an element taken from
// another call, or a block sent to the wrong rank, shows. The elements wrong on this rank.
std::size_t wrong_over_sharded_steps(plugin::Communicator& communicator, bool scatters,
                                     bool gathers, bool exchanges) {
  constexpr int kSteps = 60;
  const std::size_t ranks = static_cast<std::size_t>(world_size());
  const int rank = world_rank();
  std::size_t wrong = 0;
  const auto check = [&](const std::vector<float>& got, const std::function<double(std::size_t)>& expected) {
    for (std::size_t i = 0; i < got.size(); ++i)
      wrong += element_wrong(got[i], expected(i), 0.0) ? 1 : 0;
  };
  for (int step = 0; step < kSteps; ++step) {
    for (const std::size_t block : {std::size_t{25}, std::size_t{3}, std::size_t{67}}) {
      const double scale = (step * 3 + static_cast<int>(block)) % 7 + 1;
      const auto input_of = [&](int r, std::size_t i) { return element(r, i) * scale; };
      if (scatters) {
        std::vector<float> input(block * ranks), output(block, -7.0f);
        for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(input_of(rank, i));
        const plugin::Status status = communicator.reduce_scatter(
            {input.data(), input.size(), plugin::DType::kFloat32},
            {output.data(), output.size(), plugin::DType::kFloat32}, {});
        EXPECT_TRUE(status.is_ok()) << status.message();
        if (!status.is_ok()) return block;
        check(output, [&](std::size_t i) {
          double sum = 0;
          for (int r = 0; r < world_size(); ++r) sum += input_of(r, rank * block + i);
          return sum;
        });
      }
      std::vector<float> status_values{static_cast<float>(rank + step), 1.0f};
      EXPECT_TRUE(communicator
                      .allreduce({status_values.data(), 2, plugin::DType::kFloat32}, {})
                      .is_ok());
      if (gathers) {
        std::vector<float> input(block), output(block * ranks, -7.0f);
        for (std::size_t i = 0; i < block; ++i) input[i] = static_cast<float>(input_of(rank, i));
        const plugin::Status status = communicator.allgather(
            {input.data(), input.size(), plugin::DType::kFloat32},
            {output.data(), output.size(), plugin::DType::kFloat32}, {});
        EXPECT_TRUE(status.is_ok()) << status.message();
        if (!status.is_ok()) return block;
        check(output, [&](std::size_t i) { return input_of(static_cast<int>(i / block), i % block); });
      }
      if (exchanges) {  // alltoall: block j of the output is block `rank` of rank j's input
        std::vector<float> input(block * ranks), output(block * ranks, -7.0f);
        for (std::size_t i = 0; i < input.size(); ++i) input[i] = static_cast<float>(input_of(rank, i));
        const plugin::Status status = communicator.alltoall(
            {input.data(), input.size(), plugin::DType::kFloat32},
            {output.data(), output.size(), plugin::DType::kFloat32}, {});
        if (status.code() == plugin::StatusCode::kUnsupported) continue;  // declined in this mode
        EXPECT_TRUE(status.is_ok()) << status.message();
        if (!status.is_ok()) return block;
        check(output, [&](std::size_t i) {
          return input_of(static_cast<int>(i / block), rank * block + i % block);
        });
      }
    }
  }
  return wrong;
}

// Sharded training repeats reduce-scatters and allgathers of a few sizes with new data every
// step; one call of each (above) cannot show a rank that overwrites what a slower one has yet
// to read of the last call. Run at 3 ranks too, where blocks split unevenly over algorithms
// built for powers of two.
TEST_P(Conformance, ShardedStepsOfReduceScatterAndAllgatherStayRight) {
  const bool scatters = offers(plugin::Collective::kReduceScatter);
  const bool gathers = offers(plugin::Collective::kAllgather);
  const bool exchanges = offers(plugin::Collective::kAlltoall);
  if (!scatters && !gathers && !exchanges) GTEST_SKIP() << GetParam().name << " lists none";
  auto communicator = join_or_decline(MPI_COMM_WORLD);
  if (!communicator) GTEST_SKIP() << "declined this group size";
  EXPECT_EQ(wrong_over_sharded_steps(*communicator, scatters, gathers, exchanges), 0u)
      << variant_label(GetParam()) << ": elements wrong over sharded steps on rank "
      << world_rank() << " of " << world_size();
}

TEST_P(Conformance, UninitialisedCommunicatorRefusesWork) {
  std::shared_ptr<plugin::Communicator> communicator;
  if (const ComposedBackend* composed = find_composed_backend(GetParam().name)) {
    std::vector<std::shared_ptr<plugin::Communicator>> levels;
    for (const ComposedLevel& level : composed_levels(*composed, params_))
      levels.push_back(create_communicator(
          *registry().find(plugin::PluginKind::kCommunicator, level.plugin), level.params));
    communicator = composed->compose(std::move(levels), params_);
  } else {
    communicator = create_communicator(*handle_, params_);
  }
  float value = 1;
  EXPECT_FALSE(communicator->allreduce({&value, 1, plugin::DType::kFloat32}, {}).is_ok());
}

INSTANTIATE_TEST_SUITE_P(EveryCommunicator, Conformance,
                         ::testing::ValuesIn(communicator_variants()),
                         [](const auto& test) { return variant_label(test.param); });

}  // namespace
}  // namespace harness

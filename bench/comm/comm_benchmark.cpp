// Allreduce through each communicator plugin, and the same library called directly (an
// MPI_Allreduce loop; a gloo AllreduceRing loop on the plugin's device and rendezvous), fp32
// sum, 4 B to 64 MB; reduce_scatter, allgather, broadcast and alltoall through every plugin
// that offers them, and through MPI directly (MPI_Reduce_scatter_block, MPI_Allgather,
// MPI_Bcast, MPI_Alltoall), sizes as nccl-tests gives them (the whole buffer). Runs under mpirun
// (scripts/benchmark comm); every rank makes the same calls (collective_benchmark.h) and rank 0
// reports. After Google Benchmark's table, the plugin/direct time ratio per size with its
// uncertainty and the latency the plugin adds. The shm backend also reduces buffers in the memory
// it provides, staged and in place, beside one thread's memcpy of the same bytes (the memory
// system's yardstick).
#include <mpi.h>

#include <gloo/allreduce_ring.h>
#include <gloo/rendezvous/context.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "collective_benchmark.h"
#include "loader/plugin_call.h"
#include "loader/plugin_registry.h"
#include "mpi_store.h"
#include "paired_ratio_reporter.h"
#include "trial/backend_join.h"

namespace {

using harness::bench::CollectiveState;
using harness::plugin::BufferView;
using harness::plugin::Collective;
using harness::plugin::DType;

constexpr std::int64_t kMinBytes = 4;
constexpr std::int64_t kMaxBytes = std::int64_t{64} << 20;

struct World {
  int rank = 0;
  int size = 1;
};

World world() {
  World w;
  MPI_Comm_rank(MPI_COMM_WORLD, &w.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &w.size);
  return w;
}

// Communicators are joined once, on first use (every rank runs the body at the same time),
// and closed before MPI_Finalize.
class Backends {
 public:
  Backends() : registry_(harness::PluginRegistry::discover(harness::plugin_search_path({}))) {}

  // nullptr with `why` set when the backend cannot run here (e.g. NCCL without a GPU).
  harness::plugin::Communicator* get(const std::string& name, const harness::Json& params,
                                     std::string* why) {
    const std::string key = name + params.dump();
    auto it = joined_.find(key);
    if (it == joined_.end()) {
      const World w = world();
      harness::TrialContext job{MPI_COMM_WORLD, w.rank, w.size, &registry_, nullptr};
      it = joined_
               .emplace(key, harness::join_backend(job, name, params, DType::kFloat32,
                                                   /*cuda_available=*/false))
               .first;
    }
    *why = it->second.problem.reason;
    return it->second.problem.any() ? nullptr : it->second.communicator.get();
  }

  std::shared_ptr<gloo::rendezvous::Context> gloo_context() {
    if (gloo_context_) return gloo_context_;
    const World w = world();
    gloo::transport::tcp::attr attr;
    attr.hostname = "127.0.0.1";
    auto device = gloo::transport::tcp::CreateDevice(attr);
    gloo_context_ = std::make_shared<gloo::rendezvous::Context>(w.rank, w.size);
    harness::plugins::MpiStore store(MPI_COMM_WORLD, std::chrono::seconds(30));
    gloo_context_->connectFullMesh(store, device);
    store.finish();
    return gloo_context_;
  }

  void close() {
    joined_.clear();
    gloo_context_.reset();
  }

 private:
  harness::PluginRegistry registry_;
  std::map<std::string, harness::JoinedBackend> joined_;
  std::shared_ptr<gloo::rendezvous::Context> gloo_context_;
};

Backends& backends() {
  static Backends instance;
  return instance;
}

// nccl-tests' bus bandwidth factor: what each link carries, comparable across world sizes.
double bus_factor(Collective collective, int size) {
  if (size < 2 || collective == Collective::kBroadcast) return 1.0;
  return (collective == Collective::kAllreduce ? 2.0 : 1.0) * (size - 1) / size;
}

void report(CollectiveState& state, std::int64_t bytes,
            Collective collective = Collective::kAllreduce) {
  const double factor = bus_factor(collective, world().size);
  state.set_bytes_processed(bytes);
  state.set_counter("busbw", static_cast<double>(bytes) * factor, /*per_second=*/true);
}

std::vector<float> message(std::int64_t bytes) {
  return std::vector<float>(static_cast<std::size_t>(bytes) / sizeof(float), 1.0f);
}

void plugin_allreduce(CollectiveState& state, const std::string& backend,
                      const harness::Json& params) {
  std::string why;
  auto* communicator = backends().get(backend, params, &why);
  if (!communicator) return state.skip(why);
  auto buffer = message(state.arg());
  const BufferView view{buffer.data(), buffer.size(), DType::kFloat32};
  state.loop([&] { harness::throw_if_failed(communicator->allreduce(view, {}), "allreduce"); });
  report(state, state.arg());
}

// The buffer in memory the communicator provides (every rank asks for the same bytes).
void provided_allreduce(CollectiveState& state, const std::string& backend,
                        const harness::Json& params) {
  std::string why;
  auto* communicator = backends().get(backend, params, &why);
  if (!communicator) return state.skip(why);
  const auto bytes = static_cast<std::size_t>(state.arg());
  void* memory = communicator->provide_memory(bytes);
  if (!memory) return state.skip(backend + " provides no memory here");
  std::fill_n(static_cast<float*>(memory), bytes / sizeof(float), 1.0f);
  const BufferView view{memory, bytes / sizeof(float), DType::kFloat32};
  state.loop([&] { harness::throw_if_failed(communicator->allreduce(view, {}), "allreduce"); });
  communicator->release_memory(memory);
  report(state, state.arg());
}

// One thread's memcpy of the message, on rank 0 while the others wait: at world size 2 its
// time over the allreduce's is the allreduce's busbw as a share of one thread's copy speed.
void one_thread_memcpy(CollectiveState& state) {
  if (!state.leader()) return state.loop([] {});
  auto from = message(state.arg()), to = message(state.arg());
  state.loop([&] {
    std::memcpy(to.data(), from.data(), from.size() * sizeof(float));
    benchmark::ClobberMemory();
  });
  state.set_bytes_processed(state.arg());
}

void direct_mpi_allreduce(CollectiveState& state) {
  auto buffer = message(state.arg());
  state.loop([&] {
    MPI_Allreduce(MPI_IN_PLACE, buffer.data(), static_cast<int>(buffer.size()), MPI_FLOAT, MPI_SUM,
                  MPI_COMM_WORLD);
  });
  report(state, state.arg());
}

void direct_gloo_ring(CollectiveState& state) {
  auto buffer = message(state.arg());
  gloo::AllreduceRing<float> ring(backends().gloo_context(), {buffer.data()},
                                  static_cast<int>(buffer.size()));
  state.loop([&] { ring.run(); });
  report(state, state.arg());
}

// The two buffers of a collective of `bytes` in all, each rank's block bytes / size: what
// allreduce's and broadcast's one buffer is, reduce_scatter's input, allgather's output.
struct Buffers {
  std::vector<float> input, output;
  BufferView in() { return {input.data(), input.size(), DType::kFloat32}; }
  BufferView out() { return {output.data(), output.size(), DType::kFloat32}; }
  // What the message holds once split into whole blocks: what busbw is computed from.
  std::int64_t message_bytes() const {
    return static_cast<std::int64_t>(std::max(input.size(), output.size()) * sizeof(float));
  }
};

Buffers buffers_for(Collective collective, std::int64_t bytes) {
  const auto ranks = static_cast<std::size_t>(world().size);
  const std::size_t whole =
      std::max<std::size_t>(ranks, static_cast<std::size_t>(bytes) / 4 / ranks * ranks);
  const std::size_t block = whole / ranks;
  Buffers b;
  b.input.assign(collective == Collective::kAllgather ? block : whole, 1.0f);
  b.output.assign(collective == Collective::kReduceScatter ? block : whole, 0.0f);
  return b;
}

harness::plugin::Status call(harness::plugin::Communicator& c, Collective collective, Buffers& b) {
  switch (collective) {
    case Collective::kReduceScatter: return c.reduce_scatter(b.in(), b.out(), {});
    case Collective::kAllgather: return c.allgather(b.in(), b.out(), {});
    case Collective::kAlltoall: return c.alltoall(b.in(), b.out(), {});
    case Collective::kBroadcast: return c.broadcast(b.in(), 0);
    case Collective::kAllreduce: break;
  }
  return c.allreduce(b.in(), {});
}

void plugin_collective(CollectiveState& state, Collective collective, const std::string& backend,
                       const harness::Json& params) {
  std::string why;
  auto* communicator = backends().get(backend, params, &why);
  if (!communicator) return state.skip(why);
  Buffers b = buffers_for(collective, state.arg());
  state.loop([&] {
    harness::throw_if_failed(call(*communicator, collective, b),
                             harness::plugin::collective_name(collective));
  });
  report(state, b.message_bytes(), collective);
}

void direct_mpi(CollectiveState& state, Collective collective) {
  Buffers b = buffers_for(collective, state.arg());
  const int block = static_cast<int>(b.output.size() / static_cast<std::size_t>(world().size));
  state.loop([&] {
    switch (collective) {
      case Collective::kReduceScatter:
        MPI_Reduce_scatter_block(b.input.data(), b.output.data(), static_cast<int>(b.output.size()),
                                 MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
        break;
      case Collective::kAllgather:
        MPI_Allgather(b.input.data(), static_cast<int>(b.input.size()), MPI_FLOAT, b.output.data(),
                      static_cast<int>(b.input.size()), MPI_FLOAT, MPI_COMM_WORLD);
        break;
      case Collective::kAlltoall:
        MPI_Alltoall(b.input.data(), block, MPI_FLOAT, b.output.data(), block, MPI_FLOAT,
                     MPI_COMM_WORLD);
        break;
      default:  // broadcast, as the plugin sends it: bytes
        MPI_Bcast(b.input.data(), static_cast<int>(b.input.size() * sizeof(float)), MPI_BYTE, 0,
                  MPI_COMM_WORLD);
    }
  });
  report(state, b.message_bytes(), collective);
}

void register_sizes(benchmark::internal::Benchmark* benchmark) {
  benchmark->RangeMultiplier(16)
      ->Range(kMinBytes, kMaxBytes)
      ->UseRealTime()
      ->Unit(benchmark::kMicrosecond);
}

void register_benchmarks() {
  using harness::Json;
  using harness::bench::register_collective;
  const auto plugin = [](const char* name, const char* backend, Json params) {
    register_sizes(register_collective(name, [backend, params](CollectiveState& state) {
      plugin_allreduce(state, backend, params);
    }));
  };
  register_sizes(register_collective("allreduce/mpi/direct", direct_mpi_allreduce));
  plugin("allreduce/mpi/plugin", "mpi", Json::object());
  register_sizes(register_collective("allreduce/gloo_ring/direct", direct_gloo_ring));
  plugin("allreduce/gloo_ring/plugin", "gloo", Json{{"algorithm", "ring"}});
  plugin("allreduce/gloo_halving_doubling/plugin", "gloo", Json{{"algorithm", "halving_doubling"}});
  plugin("allreduce/ring/plugin", "ring", Json::object());
  plugin("allreduce/shm/plugin", "shm", Json::object());
  register_sizes(register_collective("allreduce/shm/provided", [](CollectiveState& state) {
    provided_allreduce(state, "shm", Json::object());
  }));
  register_sizes(register_collective("allreduce/shm/in_place", [](CollectiveState& state) {
    provided_allreduce(state, "shm", Json{{"in_place", true}});
  }));
  register_sizes(register_collective("allreduce/shm/memcpy", one_thread_memcpy));
  plugin("allreduce/nccl/plugin", "nccl", Json::object());
  for (const Collective collective : {Collective::kReduceScatter, Collective::kAllgather,
                                      Collective::kBroadcast, Collective::kAlltoall}) {
    const std::string name = harness::plugin::collective_name(collective);
    register_sizes(register_collective(name + "/mpi/direct", [collective](CollectiveState& state) {
      direct_mpi(state, collective);
    }));
    for (const auto& [label, backend, params] :
         {std::tuple<const char*, const char*, Json>{"mpi", "mpi", Json::object()},
          {"ring", "ring", Json::object()},
          {"gloo", "gloo", Json::object()},
          {"shm", "shm", Json::object()}})
      register_sizes(register_collective(
          name + "/" + label + "/plugin",
          [collective, backend = std::string(backend), params = params](CollectiveState& state) {
            plugin_collective(state, collective, backend, params);
          }));
  }
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  benchmark::Initialize(&argc, argv);
  register_benchmarks();
  harness::bench::PairedRatioReporter reporter(
      {{"plugin", "direct", "targets: ratio <= 1.05, added <= 1 us at 4 B"},
       {"provided", "plugin",
        "shm with buffers in the memory it provides against buffers in the host's memory"},
       {"in_place", "provided",
        "shm reducing buffers in the memory it provides in place against staging them"},
       {"provided", "memcpy",
        "shm in provided memory against one thread's memcpy of the message: at world size 2, "
        "1 / ratio = busbw as a share of the copy's speed"}});
  harness::bench::run_collective_benchmarks(&reporter);
  backends().close();
  MPI_Finalize();
  return 0;
}

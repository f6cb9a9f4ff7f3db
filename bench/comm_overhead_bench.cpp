// Overhead of the plugin layer: in one run, each plugin's allreduce bus bandwidth beside the
// same library called directly (an MPI_Allreduce loop; a gloo AllreduceRing loop), at 1 KB,
// 1 MB and 64 MB, and the small-message latency the plugin layer adds. Blocks of direct and
// plugin iterations alternate so both see the same machine noise; the time of a block is the
// slowest rank's. Run under mpirun (scripts/overhead_benchmark).
#include <mpi.h>

#include <gloo/allreduce_ring.h>
#include <gloo/rendezvous/context.h>
#include <gloo/transport/tcp/device.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "loader/plugin_registry.h"
#include "mpi_store.h"
#include "trial/backend_join.h"

namespace {

using Clock = std::chrono::steady_clock;
using harness::Json;

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// Seconds per call of body(), slowest rank, for `iterations` calls.
double time_block(const std::function<void()>& body, int iterations) {
  MPI_Barrier(MPI_COMM_WORLD);
  const auto start = Clock::now();
  for (int i = 0; i < iterations; ++i) body();
  double seconds = std::chrono::duration<double>(Clock::now() - start).count() / iterations;
  double slowest = 0;
  MPI_Allreduce(&seconds, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return slowest;
}

struct Pair {
  double direct;  // median seconds per call
  double plugin;
};

Pair compare(const std::function<void()>& direct, const std::function<void()>& plugin, int blocks,
             int iterations) {
  std::vector<double> d, p;
  direct();
  plugin();  // warm-up: connections, algorithm caches
  for (int b = 0; b < blocks; ++b) {
    d.push_back(time_block(direct, iterations));
    p.push_back(time_block(plugin, iterations));
  }
  return {median(d), median(p)};
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const auto registry = harness::PluginRegistry::discover(harness::plugin_search_path({}));
  const auto* mpi_plugin = registry.find(harness::plugin::PluginKind::kCommunicator, "mpi");
  const auto* gloo_plugin = registry.find(harness::plugin::PluginKind::kCommunicator, "gloo");
  if (!mpi_plugin || !gloo_plugin) {
    if (rank == 0) std::fprintf(stderr, "needs the mpi and gloo plugins in build/plugins\n");
    MPI_Finalize();
    return 1;
  }
  harness::TrialContext whole_job{MPI_COMM_WORLD, rank, size, &registry, nullptr};
  const auto join = [&](const char* name, const Json& params) {
    auto joined =
        harness::join_backend(whole_job, name, params, harness::plugin::DType::kFloat32, false);
    if (joined.problem.any()) throw std::runtime_error(joined.problem.reason);
    return joined.communicator;
  };
  auto mpi_comm = join("mpi", Json::object());
  auto gloo_comm = join("gloo", Json{{"algorithm", "ring"}});

  // gloo called directly: the same device, rendezvous and algorithm the plugin uses.
  gloo::transport::tcp::attr attr;
  attr.hostname = "127.0.0.1";
  auto device = gloo::transport::tcp::CreateDevice(attr);
  auto context = std::make_shared<gloo::rendezvous::Context>(rank, size);
  {
    harness::plugins::MpiStore store(MPI_COMM_WORLD, std::chrono::seconds(30));
    context->connectFullMesh(store, device);
    store.finish();
  }

  const double bus_factor = size > 1 ? 2.0 * (size - 1) / size : 1.0;
  if (rank == 0) {
    std::printf("world %d; busbw = bytes / time * 2(n-1)/n, GB/s; median of alternating blocks\n",
                size);
    std::printf("%-6s %10s %14s %14s %8s\n", "lib", "size", "direct busbw", "plugin busbw",
                "ratio");
  }
  for (std::size_t bytes : {std::size_t{1} << 10, std::size_t{1} << 20, std::size_t{64} << 20}) {
    const std::size_t count = bytes / sizeof(float);
    std::vector<float> direct_buffer(count, 1.0f), plugin_buffer(count, 1.0f);
    const int iterations = bytes >= (std::size_t{64} << 20) ? 3 : (bytes >= (1u << 20) ? 20 : 500);
    const int blocks = bytes >= (std::size_t{64} << 20) ? 5 : 9;
    const harness::plugin::BufferView view{plugin_buffer.data(), count,
                                           harness::plugin::DType::kFloat32};

    const Pair mpi = compare(
        [&] {
          MPI_Allreduce(MPI_IN_PLACE, direct_buffer.data(), static_cast<int>(count), MPI_FLOAT,
                        MPI_SUM, MPI_COMM_WORLD);
        },
        [&] { mpi_comm->allreduce(view, {}); }, blocks, iterations);
    gloo::AllreduceRing<float> direct_ring(context, {direct_buffer.data()},
                                           static_cast<int>(count));
    const Pair gloo_pair = compare([&] { direct_ring.run(); },
                                   [&] { gloo_comm->allreduce(view, {}); }, blocks, iterations);
    if (rank == 0)
      for (const auto& [name, pair] :
           {std::pair<const char*, Pair>{"mpi", mpi}, {"gloo", gloo_pair}}) {
        const double direct_bw = bytes / pair.direct / 1e9 * bus_factor;
        const double plugin_bw = bytes / pair.plugin / 1e9 * bus_factor;
        std::printf("%-6s %10zu %14.3f %14.3f %8.3f\n", name, bytes, direct_bw, plugin_bw,
                    plugin_bw / direct_bw);
      }
  }

  // Small-message latency: one float, many short alternating blocks.
  float direct_value = 1, plugin_value = 1;
  const harness::plugin::BufferView one{&plugin_value, 1, harness::plugin::DType::kFloat32};
  const Pair latency = compare(
      [&] { MPI_Allreduce(MPI_IN_PLACE, &direct_value, 1, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD); },
      [&] { mpi_comm->allreduce(one, {}); }, 41, 2000);
  gloo::AllreduceRing<float> direct_small(context, {&direct_value}, 1);
  const Pair gloo_latency =
      compare([&] { direct_small.run(); }, [&] { gloo_comm->allreduce(one, {}); }, 21, 200);
  if (rank == 0) {
    std::printf(
        "\nsmall-message (4 B) latency, us: %-6s direct %8.3f  plugin %8.3f  added %+7.3f\n", "mpi",
        latency.direct * 1e6, latency.plugin * 1e6, (latency.plugin - latency.direct) * 1e6);
    std::printf("small-message (4 B) latency, us: %-6s direct %8.3f  plugin %8.3f  added %+7.3f\n",
                "gloo", gloo_latency.direct * 1e6, gloo_latency.plugin * 1e6,
                (gloo_latency.plugin - gloo_latency.direct) * 1e6);
    std::printf("targets: ratio >= 0.95, added latency <= 1 us\n");
  }
  MPI_Finalize();
  return 0;
}

// Accuracy of the collective benchmark's loop timing: the harness's measurement of the mpi
// backend beside a plain MPI_Allreduce loop written here (in place, like the plugin; and out
// of place, as IMB times it), per message size, in interleaved rounds. Prints the median
// ratio harness / plain with its range over rounds; the target is within 10% at every size.
//   mpirun --bind-to none -np 2 ./build/timing_agreement [rounds]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <vector>

#include "collective/collective_ops.h"
#include "collective/element_types.h"
#include "collective/point_measurement.h"
#include "loader/plugin_registry.h"
#include "metrics/statistics.h"
#include "trial/backend_join.h"

namespace {

using Clock = std::chrono::steady_clock;

// A plain loop, IMB-style: barrier, n calls, divide; the slowest rank's median over samples.
double plain_loop_us(std::vector<float>& send, std::vector<float>& receive, bool in_place,
                     double min_time_s) {
  const int count = static_cast<int>(receive.size());
  auto once = [&] {
    if (in_place)
      MPI_Allreduce(MPI_IN_PLACE, receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
    else
      MPI_Allreduce(send.data(), receive.data(), count, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
  };
  for (int i = 0; i < 3; ++i) once();  // warm-up
  MPI_Barrier(MPI_COMM_WORLD);
  auto t0 = Clock::now();
  once();
  double estimate = std::chrono::duration<double>(Clock::now() - t0).count();
  MPI_Allreduce(MPI_IN_PLACE, &estimate, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  const int calls = std::max(1, static_cast<int>(1e-3 / std::max(estimate, 1e-9)));
  const int samples = std::max(10, static_cast<int>(min_time_s / (estimate * calls)));
  std::vector<double> seconds;
  for (int s = 0; s < samples; ++s) {
    MPI_Barrier(MPI_COMM_WORLD);
    t0 = Clock::now();
    for (int i = 0; i < calls; ++i) once();
    seconds.push_back(std::chrono::duration<double>(Clock::now() - t0).count() / calls);
  }
  MPI_Allreduce(MPI_IN_PLACE, seconds.data(), samples, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return harness::percentile(seconds, 50) * 1e6;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const auto registry = harness::PluginRegistry::discover(harness::plugin_search_path({}));
  harness::TrialContext context{MPI_COMM_WORLD, rank, size, &registry, nullptr};
  const auto joined = harness::join_backend(context, "mpi", harness::Json::object(),
                                            harness::plugin::DType::kFloat32, false);
  if (joined.problem.any()) {
    if (rank == 0) std::fprintf(stderr, "mpi backend: %s\n", joined.problem.reason.c_str());
    MPI_Finalize();
    return 1;
  }
  harness::CollectiveSettings settings;
  settings.timing = harness::CollectiveTiming::kLoop;
  settings.iters = 10;
  settings.min_time_s = 0.1;
  settings.check = false;
  settings.quiet.wait_s = 0;  // the plain loop beside it does not wait for a quiet machine
  harness::QuietGate gate(settings.quiet, MPI_COMM_WORLD, nullptr);
  harness::ReductionMemory memory(joined.communicator);
  const harness::PointBenchmark benchmark{harness::collective_op(harness::plugin::Collective::kAllreduce),
                                          settings,
                                          harness::element_type(settings.dtype),
                                          *joined.communicator,
                                          false,
                                          context,
                                          gate,
                                          memory};
  if (rank == 0)
    std::printf("%10s %12s %12s %8s %15s %14s   %s\n", "bytes", "harness(us)", "plain(us)", "ratio",
                "ratio range", "out-of-place", "verdict (target: within 10%)");
  int outside = 0;
  for (std::uint64_t bytes = 4; bytes <= (64u << 20); bytes *= 4) {
    const std::size_t count = std::max<std::uint64_t>(1, bytes / 4);
    std::vector<float> send(count, 0.0f), receive(count, 0.0f);
    std::vector<double> ratios, harness_us, plain_us, separate_us;
    for (int r = 0; r < rounds; ++r) {  // interleaved: drift hits both alike
      harness_us.push_back(
          harness::measure_point(benchmark, static_cast<std::int64_t>(count)).p50_us);
      plain_us.push_back(plain_loop_us(send, receive, true, settings.min_time_s));
      separate_us.push_back(plain_loop_us(send, receive, false, settings.min_time_s));
      ratios.push_back(harness_us.back() / plain_us.back());
    }
    const double ratio = harness::percentile(ratios, 50);
    const bool ok = ratio >= 0.9 && ratio <= 1.1;
    outside += ok ? 0 : 1;
    if (rank == 0)
      std::printf("%10llu %12.3f %12.3f %8.3f   [%5.3f, %5.3f] %14.3f   %s\n",
                  static_cast<unsigned long long>(bytes), harness::percentile(harness_us, 50),
                  harness::percentile(plain_us, 50), ratio,
                  *std::min_element(ratios.begin(), ratios.end()),
                  *std::max_element(ratios.begin(), ratios.end()),
                  harness::percentile(separate_us, 50), ok ? "ok" : "OUTSIDE");
  }
  if (rank == 0)
    std::printf("%d size(s) outside 10%% (medians over %d interleaved rounds; world %d)\n", outside,
                rounds, size);
  MPI_Finalize();
  return 0;
}

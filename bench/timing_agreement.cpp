// Accuracy of the collective trial's timing: per message size, a real collective trial of
// the mpi backend, run by the harness's own path (its trial kind, its quiet-machine gate at
// the default settings, the watchdog watching it, its memory), beside a plain MPI_Allreduce
// loop written here (in place, like the plugin; and out of place, as IMB times it) in the same
// processes, in interleaved rounds; and the point measurement alone (no trial around it), which
// tells what the trial adds from what the measurement does. Prints the median ratio
// trial / plain with its range over rounds; the target is within 10% at every size.
//   mpirun --bind-to none -np 2 ./build/timing_agreement [rounds]
//   mpirun --bind-to none -np 2 ./build/timing_agreement --plain-only [--mpi-init]
#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "collective/collective_ops.h"
#include "collective/point_measurement.h"
#include "harness/plugin/torch_element_types.h"
#include "loader/plugin_registry.h"
#include "metrics/statistics.h"
#include "mpi/mpi_runtime.h"
#include "mpi/watchdog.h"
#include "record/record_json.h"
#include "run/trial_kinds.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "trial/backend_join.h"

namespace {

using Clock = std::chrono::steady_clock;
constexpr double kMinTimeS = 0.1;
constexpr std::uint64_t kLargest = 64u << 20;

std::vector<std::uint64_t> sizes() {
  std::vector<std::uint64_t> all;
  for (std::uint64_t bytes = 4; bytes <= kLargest; bytes *= 4) all.push_back(bytes);
  return all;
}

// A plain loop, IMB-style: barrier, n calls, divide; the slowest rank's median over samples.
double plain_loop_us(std::vector<float>& send, std::vector<float>& receive, bool in_place) {
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
  const int samples = std::max(10, static_cast<int>(kMinTimeS / (estimate * calls)));
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

// One collective trial over every size, as a sweep runs it: {bytes: p50 us} on rank 0.
std::map<std::uint64_t, double> trial_us(const harness::Trial& trial,
                                         const harness::TrialContext& context) {
  const harness::Json record =
      harness::to_json(harness::trial_kind(trial.kind).run(trial, context));
  std::map<std::uint64_t, double> p50;
  if (record.contains("points"))
    for (const auto& point : record["points"])
      p50[point["bytes"].get<std::uint64_t>()] = point["p50_us"].get<double>();
  return p50;
}

harness::Trial collective_trial(int world) {
  std::string sizes_json;
  for (std::uint64_t bytes : sizes())
    sizes_json += (sizes_json.empty() ? "" : ", ") + std::to_string(bytes);
  const std::string text = R"({"name": "timing_agreement", "kind": "collective", "settings": {)"
                           R"("backend": "mpi", "world_size": )" +
                           std::to_string(world) +
                           R"(, "timing": "loop", "iters": 10, "min_time_s": 0.1, "check": false,)"
                           R"( "sizes": [)" +
                           sizes_json + "]}}";
  return harness::expand_trials(
             harness::parse_experiment(text, "timing_agreement", {}, harness::trial_kind_schemas()))
      .at(0);
}

struct Row {
  std::vector<double> trial, point, plain, separate, ratios;
};

void print(const std::map<std::uint64_t, Row>& rows, int rounds, int size) {
  std::printf("%10s %10s %10s %10s %8s %15s %12s   %s\n", "bytes", "trial(us)", "point(us)",
              "plain(us)", "ratio", "ratio range", "out-of-place", "verdict (target: within 10%)");
  int outside = 0;
  for (const auto& [bytes, row] : rows) {
    const double ratio = harness::percentile(row.ratios, 50);
    const bool ok = ratio >= 0.9 && ratio <= 1.1;
    outside += ok ? 0 : 1;
    std::printf("%10llu %10.3f %10.3f %10.3f %8.3f   [%5.3f, %5.3f] %12.3f   %s\n",
                static_cast<unsigned long long>(bytes), harness::percentile(row.trial, 50),
                harness::percentile(row.point, 50), harness::percentile(row.plain, 50), ratio,
                *std::min_element(row.ratios.begin(), row.ratios.end()),
                *std::max_element(row.ratios.begin(), row.ratios.end()),
                harness::percentile(row.separate, 50), ok ? "ok" : "OUTSIDE");
  }
  std::printf(
      "%d size(s) outside 10%% (trial / plain in place: medians over %d interleaved "
      "rounds; world %d)\n",
      outside, rounds, size);
}

// --plain-only: the plain loop alone, per size up to 64 KB, "plain_us BYTES US" per line: what
// a process started as IMB starts (--mpi-init: MPI_Init) and one started as the harness starts
// give, compared by scripts/timing_agreement across alternating jobs.
int plain_only(int rank) {
  std::vector<float> warm_send(1), warm_receive(1);
  plain_loop_us(warm_send, warm_receive, false);  // the job's start is not the first size's
  for (std::uint64_t bytes = 4; bytes <= (64u << 10); bytes *= 4) {
    std::vector<float> send(bytes / 4, 0.0f), receive(bytes / 4, 0.0f);
    const double us = plain_loop_us(send, receive, false);
    if (rank == 0) std::printf("plain_us %llu %.4f\n", static_cast<unsigned long long>(bytes), us);
  }
  MPI_Finalize();
  return 0;
}

bool has_flag(int argc, char** argv, const std::string& flag) {
  return std::find(argv + 1, argv + argc, flag) != argv + argc;
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;
  if (has_flag(argc, argv, "--mpi-init"))
    MPI_Init(&argc, &argv);  // as IMB and OSU start
  else
    MPI_Init_thread(&argc, &argv, harness::kThreadLevelWithoutOverlap,
                    &provided);  // as the harness starts for a collective experiment
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (has_flag(argc, argv, "--plain-only")) return plain_only(rank);
  const int rounds = argc > 1 ? std::atoi(argv[1]) : 5;
  const auto registry = harness::PluginRegistry::discover(harness::plugin_search_path({}));
  std::map<std::uint64_t, Row> rows;
  {
    harness::Watchdog watchdog(MPI_COMM_WORLD, 300, [](const std::string&, bool) {});
    harness::TrialContext context{MPI_COMM_WORLD, rank, size, &registry, nullptr, &watchdog};
    const harness::Trial trial = collective_trial(size);
    // The measurement alone, on the same backend: no gate wait, no watchdog, host memory.
    const auto joined = harness::join_backend(context, "mpi", harness::Json::object(),
                                              harness::plugin::DType::kFloat32, false);
    if (joined.problem.any()) {  // e.g. no mpi plugin beside the binary (build/plugins)
      if (rank == 0) std::fprintf(stderr, "timing_agreement: %s\n", joined.problem.reason.c_str());
      MPI_Finalize();
      return 2;
    }
    harness::CollectiveSettings settings;
    settings.min_time_s = kMinTimeS;
    settings.check = false;
    settings.quiet.wait_s = 0;
    harness::TrialContext bare{MPI_COMM_WORLD, rank, size, &registry, nullptr};
    harness::QuietGate gate(settings.quiet, MPI_COMM_WORLD, nullptr);
    harness::ReductionMemory memory;
    harness::BackendFault fault(nullptr);
    const harness::PointBenchmark point{
        harness::collective_op(harness::plugin::Collective::kAllreduce),
        settings,
        harness::plugin::torch_element_type(settings.dtype),
        *joined.communicator,
        false,
        bare,
        gate,
        memory,
        fault};
    for (int r = 0; r < rounds; ++r) {  // interleaved: drift hits every instrument alike
      const auto measured = trial_us(trial, context);
      for (std::uint64_t bytes : sizes()) {
        const std::size_t count = bytes / 4;
        std::vector<float> send(count, 0.0f), receive(count, 0.0f);
        Row& row = rows[bytes];
        row.point.push_back(harness::measure_point(point, static_cast<std::int64_t>(count)).p50_us);
        row.plain.push_back(plain_loop_us(send, receive, true));
        row.separate.push_back(plain_loop_us(send, receive, false));
        const auto found = measured.find(bytes);
        row.trial.push_back(found == measured.end() ? 0.0 : found->second);
        row.ratios.push_back(row.trial.back() / row.plain.back());
      }
    }
  }
  if (rank == 0) print(rows, rounds, size);
  MPI_Finalize();
  return 0;
}

#include "collective_trial.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "collective_bandwidth.h"
#include "communicator_factory.h"
#include "detection_metrics.h"
#include "mpi_runtime.h"
#include "trial_record.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

struct DTypeInfo {
  plugin::DType dtype;
  torch::ScalarType scalar;
  double tolerance;  // relative, for the result check
};

DTypeInfo dtype_info(const std::string& name) {
  if (name == "fp64") return {plugin::DType::kFloat64, torch::kFloat64, 1e-12};
  if (name == "fp16") return {plugin::DType::kFloat16, torch::kFloat16, 1e-2};
  if (name == "bf16") return {plugin::DType::kBFloat16, torch::kBFloat16, 2e-2};
  return {plugin::DType::kFloat32, torch::kFloat32, 1e-6};
}

// Rank r's element i is ((r + 1) * (i % 13 + 1)) % 17: small integers, so every dtype
// represents the sums exactly and a wrong element cannot hide in rounding.
torch::Tensor rank_data(int64_t count, int rank, const torch::TensorOptions& options) {
  auto index = torch::arange(count, torch::TensorOptions().dtype(torch::kInt64));
  return (((index % 13) + 1) * (rank + 1) % 17).to(options);
}

torch::Tensor expected_result(int64_t count, int ranks, bool average,
                              const torch::TensorOptions& options) {
  auto sum = torch::zeros({count}, torch::kFloat64);
  for (int r = 0; r < ranks; ++r) sum += rank_data(count, r, torch::kFloat64);
  if (average) sum /= ranks;
  return sum.to(options.device());
}

void check(const plugin::Status& status, const char* what) {
  if (!status.is_ok()) throw std::runtime_error(std::string(what) + ": " + status.message());
}

}  // namespace

std::vector<std::uint64_t> message_sizes(const Json& settings) {
  std::vector<std::uint64_t> sizes;
  if (!settings["sizes"].empty()) {
    for (const auto& size : settings["sizes"]) sizes.push_back(size.get<std::uint64_t>());
    return sizes;
  }
  const auto max = settings["max_bytes"].get<std::uint64_t>();
  const auto factor = settings["step_factor"].get<std::uint64_t>();
  for (auto size = settings["min_bytes"].get<std::uint64_t>(); size <= max; size *= factor)
    sizes.push_back(size);
  return sizes;
}

Json run_collective_trial(const Trial& trial, const TrialContext& context) {
  const auto started = Clock::now();
  Json record = new_trial_record("collective", trial, context.size);
  const Json& s = trial.settings;
  const PluginHandle* backend =
      context.plugins->find(plugin::PluginKind::kCommunicator, s["backend"]);

  const DTypeInfo type = dtype_info(s["dtype"]);
  GroupProblem problem =
      agree_on_problem(context.comm, backend_problem(backend, torch::cuda::is_available(), type.dtype));
  if (!problem.status.empty()) return finish_record(record, problem.status, problem.reason, started);

  GroupProblem local;
  std::shared_ptr<plugin::Communicator> communicator;
  try {
    communicator = join_group(*backend, s["backend_params"], context.comm);
  } catch (const GroupJoinError& e) {
    local = {e.unsupported ? "skipped" : "failed", e.what()};
  } catch (const std::exception& e) {
    local = {"failed", e.what()};
  }
  problem = agree_on_problem(context.comm, local);
  if (!problem.status.empty()) return finish_record(record, problem.status, problem.reason, started);
  record["backend"] = {{"name", backend->name}, {"version", backend->version},
                       {"algorithm", communicator->describe()}};

  try {
    const bool on_gpu = communicator_capabilities(*backend).requires_cuda;
    const auto options = torch::TensorOptions().dtype(type.scalar).device(
        on_gpu ? torch::Device(torch::kCUDA, local_rank(context.comm)) : torch::Device(torch::kCPU));
    const bool average = s["op"] == "avg";
    const auto element = plugin::dtype_size(type.dtype);
    const int warmup = s["warmup_iters"].get<int>(), iterations = s["iters"].get<int>();
    const bool verify = s["check"].get<bool>();
    const double bus_factor = allreduce_bandwidth().bus_factor(context.size);
    Json points = Json::array();

    for (const std::uint64_t requested : message_sizes(s)) {
      const auto count = static_cast<int64_t>(std::max<std::uint64_t>(1, requested / element));
      const auto pristine = rank_data(count, context.rank, options);
      auto buffer = pristine.clone();
      plugin::BufferView view{buffer.data_ptr(), static_cast<std::size_t>(count), type.dtype,
                              on_gpu ? plugin::DeviceKind::kCuda : plugin::DeviceKind::kCpu,
                              on_gpu ? buffer.get_device() : 0};
      const plugin::AllreduceOptions reduce{average ? plugin::ReduceOp::kAvg : plugin::ReduceOp::kSum,
                                            nullptr};
      std::vector<double> seconds;
      for (int iteration = 0; iteration < warmup + iterations; ++iteration) {
        buffer.copy_(pristine);  // in place: start every iteration from the rank's data
        check(communicator->synchronize(), "synchronize");
        check_mpi(MPI_Barrier(context.comm), "MPI_Barrier");
        const auto t0 = Clock::now();
        check(communicator->allreduce(view, reduce), "allreduce");
        check(communicator->synchronize(), "synchronize");
        const auto t1 = Clock::now();
        if (iteration >= warmup) seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
      }
      // The slowest rank defines each iteration's time.
      std::vector<double> slowest(seconds.size());
      check_mpi(MPI_Allreduce(seconds.data(), slowest.data(), static_cast<int>(seconds.size()),
                              MPI_DOUBLE, MPI_MAX, context.comm),
                "MPI_Allreduce");
      long long wrong = 0;
      if (verify) {
        const auto expected = expected_result(count, context.size, average, options);
        const auto got = buffer.to(torch::kFloat64);
        const auto error = (got - expected).abs() > (expected.abs() * type.tolerance + 1e-9);
        wrong = error.sum().item<int64_t>();
      }
      long long total_wrong = 0;
      check_mpi(MPI_Reduce(&wrong, &total_wrong, 1, MPI_LONG_LONG, MPI_SUM, 0, context.comm),
                "MPI_Reduce");

      double mean = 0;
      for (double t : slowest) mean += t / slowest.size();
      double variance = 0;
      for (double t : slowest) variance += (t - mean) * (t - mean) / slowest.size();
      const double bytes = static_cast<double>(count) * element;
      const double algbw = bytes / mean / 1e9;
      points.push_back({{"bytes", static_cast<std::uint64_t>(bytes)},
                        {"count", count},
                        {"time_us", mean * 1e6},
                        {"min_us", *std::min_element(slowest.begin(), slowest.end()) * 1e6},
                        {"p50_us", percentile(slowest, 50) * 1e6},
                        {"p99_us", percentile(slowest, 99) * 1e6},
                        {"cv", mean > 0 ? std::sqrt(variance) / mean : 0.0},
                        {"algbw_gbps", algbw},
                        {"busbw_gbps", algbw * bus_factor},
                        {"wrong", verify ? Json(total_wrong) : Json()}});
    }
    record["points"] = points;
    long long wrong_total = 0;
    for (const auto& p : points) wrong_total += p["wrong"].is_null() ? 0 : p["wrong"].get<long long>();
    return finish_record(record, wrong_total ? "failed" : "ok",
                         wrong_total ? std::to_string(wrong_total) + " wrong elements" : "", started);
  } catch (const std::exception& e) {
    return finish_record(record, "failed", e.what(), started);
  }
}

}  // namespace harness

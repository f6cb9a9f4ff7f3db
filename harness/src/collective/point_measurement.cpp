#include "collective/point_measurement.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <vector>

#include "metrics/statistics.h"
#include "mpi/mpi_check.h"
#include "mpi/trial_groups.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

void check(const plugin::Status& status, const char* what) {
  if (!status.is_ok()) throw std::runtime_error(std::string(what) + ": " + status.message());
}

at::TensorOptions tensor_options(const PointBenchmark& b) {
  const auto device = b.on_cuda ? torch::Device(torch::kCUDA, local_rank(b.context.comm))
                                : torch::Device(torch::kCPU);
  return torch::TensorOptions().dtype(b.type.scalar).device(device);
}

plugin::BufferView view_of(at::Tensor& buffer, const PointBenchmark& b) {
  return {buffer.data_ptr(), static_cast<std::size_t>(buffer.numel()), b.type.dtype,
          b.on_cuda ? plugin::DeviceKind::kCuda : plugin::DeviceKind::kCpu,
          b.on_cuda ? static_cast<int>(buffer.get_device()) : 0};
}

// This rank's seconds per timed iteration; `buffer` ends holding the last result.
std::vector<double> time_iterations(const PointBenchmark& b, const at::Tensor& pristine,
                                    at::Tensor& buffer) {
  const plugin::BufferView view = view_of(buffer, b);
  std::vector<double> seconds;
  for (int iteration = 0; iteration < b.settings.warmup_iters + b.settings.iters; ++iteration) {
    buffer.copy_(pristine);  // in place: start every iteration from the rank's data
    check(b.communicator.synchronize(), "synchronize");
    check_mpi(MPI_Barrier(b.context.comm), "MPI_Barrier");
    const auto t0 = Clock::now();
    check(b.op.run(b.communicator, view, b.settings.reduce), b.op.name);
    check(b.communicator.synchronize(), "synchronize");
    const auto t1 = Clock::now();
    if (iteration >= b.settings.warmup_iters)
      seconds.push_back(std::chrono::duration<double>(t1 - t0).count());
  }
  return seconds;
}

// An iteration is as slow as its slowest rank.
std::vector<double> slowest_rank(const std::vector<double>& seconds, MPI_Comm comm) {
  std::vector<double> slowest(seconds.size());
  check_mpi(MPI_Allreduce(seconds.data(), slowest.data(), static_cast<int>(seconds.size()),
                          MPI_DOUBLE, MPI_MAX, comm),
            "MPI_Allreduce");
  return slowest;
}

// Wrong elements over all ranks (complete on rank 0).
long long count_wrong(const PointBenchmark& b, const at::Tensor& result) {
  const auto options = result.options();
  const auto expected = b.op.expected(result.numel(), b.context.size, b.settings.reduce, options);
  const auto got = result.to(torch::kFloat64);
  const auto error = (got - expected).abs() > (expected.abs() * b.type.tolerance + 1e-9);
  long long wrong = error.sum().item<int64_t>(), total = 0;
  check_mpi(MPI_Reduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, b.context.comm), "MPI_Reduce");
  return total;
}

CollectivePoint summarise(const PointBenchmark& b, std::uint64_t count,
                          const std::vector<double>& seconds) {
  CollectivePoint p;
  p.count = count;
  p.bytes = b.op.bytes_for_count(count, plugin::dtype_size(b.type.dtype), b.context.size);
  const double mean_s = mean(seconds);
  p.time_us = mean_s * 1e6;
  p.min_us = *std::min_element(seconds.begin(), seconds.end()) * 1e6;
  p.p50_us = percentile(seconds, 50) * 1e6;
  p.p99_us = percentile(seconds, 99) * 1e6;
  p.cv = coefficient_of_variation(seconds);
  p.algbw_gbps = static_cast<double>(p.bytes) / mean_s / 1e9;
  p.busbw_gbps = p.algbw_gbps * b.op.bus_factor(b.context.size);
  return p;
}

}  // namespace

CollectivePoint measure_point(const PointBenchmark& b, std::uint64_t requested_bytes) {
  const auto element = plugin::dtype_size(b.type.dtype);
  const auto count = std::max<std::uint64_t>(1, requested_bytes / element);
  const auto pristine =
      b.op.init_data(static_cast<int64_t>(count), b.context.rank, tensor_options(b));
  auto buffer = pristine.clone();
  const auto seconds = slowest_rank(time_iterations(b, pristine, buffer), b.context.comm);
  CollectivePoint point = summarise(b, count, seconds);
  if (b.settings.check) point.wrong = count_wrong(b, buffer);
  return point;
}

}  // namespace harness

#include "collective/point_measurement.h"

#include <torch/torch.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <vector>

#include "collective/wrong_elements.h"
#include "metrics/statistics.h"
#include "mpi/max_over_ranks.h"
#include "mpi/mpi_check.h"
#include "mpi/trial_groups.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

// A loop sample lasts about this long, so that the clock's resolution and the barrier
// before it are small beside it (IMB and OSU size their loops the same way).
constexpr double kLoopSampleSeconds = 1e-3;
constexpr int kMaxCallsPerSample = 1 << 20;
// Untimed back-to-back calls just before the samples, after the quiet gate's wait: the wait
// leaves the cores idle, and the first milliseconds of calls after it ran about 5–10% slower
// on a 4 B allreduce (only the first message size of a trial showed it). Calls that take
// longer than this get none.
constexpr double kSettleSeconds = 10e-3;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
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

CollectiveCall call_of(const PointBenchmark& b) {
  return {b.context.size, b.context.rank, b.settings.reduce, b.settings.root};
}

// One message size's buffers: this rank's data as made, the input the calls read and the
// output they write (the input itself for the in-place collectives).
struct Buffers {
  at::Tensor pristine, input, output;
  plugin::BufferView input_view, output_view;
};

Buffers buffers_for(const PointBenchmark& b, std::int64_t count) {
  Buffers buffers;
  buffers.pristine = b.op.init_data(count, call_of(b), tensor_options(b));
  buffers.input = b.memory.zeros(buffers.pristine.numel(), buffers.pristine.options());
  buffers.input.copy_(buffers.pristine);
  buffers.output = b.op.in_place ? buffers.input
                                 : b.memory.zeros(b.op.output_count(count, b.context.size),
                                                  buffers.pristine.options());
  buffers.input_view = view_of(buffers.input, b);
  buffers.output_view = view_of(buffers.output, b);
  return buffers;
}

// A failed call is kept, not thrown: this rank goes on making the calls its peers make until
// the next checkpoint, where they all leave together.
void call(const PointBenchmark& b, const Buffers& buffers) {
  b.fault.record(b.op.run(b.communicator, buffers.input_view, buffers.output_view, call_of(b)),
                 plugin::collective_name(b.op.collective));
}

void synchronize(const PointBenchmark& b) {
  b.fault.record(b.communicator.synchronize(), "synchronize");
}

// Where every rank meets (a barrier before each timed sample): any rank's failed call ends the
// trial on all of them here.
void checkpoint(const PointBenchmark& b) {
  leave_on_fault(b.context.comm, b.fault, b.context.watchdog);
}

// Warm-up calls; returns the slowest rank's median seconds per call (every rank the same).
double warm_up(const PointBenchmark& b, const Buffers& buffers) {
  std::vector<double> seconds;
  for (int i = 0; i < std::max(1, b.settings.warmup_iters); ++i) {
    WatchedOperation watched(b.context.watchdog, "collective warm-up call",
                             static_cast<std::uint64_t>(i), b.context.size);
    checkpoint(b);
    const auto t0 = Clock::now();
    call(b, buffers);
    synchronize(b);
    seconds.push_back(seconds_since(t0));
  }
  return max_over_ranks(percentile(seconds, 50), b.context.comm, b.context.watchdog);
}

// How many samples of how many calls: at least iters samples and min_time_s seconds, at
// most max_iters samples. Computed from the agreed estimate, so every rank makes the same
// number of calls.
struct SamplePlan {
  int calls_per_sample = 1;
  int samples = 1;
  int settle_calls = 0;  // untimed calls before the samples
};

SamplePlan plan_samples(const PointBenchmark& b, double seconds_per_call) {
  const double per_call = std::max(seconds_per_call, 1e-9);
  SamplePlan plan;
  if (b.settings.timing == CollectiveTiming::kLoop)
    plan.calls_per_sample = static_cast<int>(
        std::clamp(std::ceil(kLoopSampleSeconds / per_call), 1.0, double(kMaxCallsPerSample)));
  const double for_time = std::ceil(b.settings.min_time_s / (per_call * plan.calls_per_sample));
  plan.samples = static_cast<int>(
      std::clamp(std::max<double>(b.settings.iters, for_time), 1.0, double(b.settings.max_iters)));
  plan.settle_calls =
      static_cast<int>(std::min(std::floor(kSettleSeconds / per_call), double(kMaxCallsPerSample)));
  return plan;
}

// The plan's untimed calls, after one barrier (every rank makes the same number).
void settle(const PointBenchmark& b, const Buffers& buffers, SamplePlan plan) {
  if (plan.settle_calls == 0) return;
  WatchedOperation watched(b.context.watchdog, "collective settling calls", 0, b.context.size);
  checkpoint(b);
  for (int i = 0; i < plan.settle_calls; ++i) call(b, buffers);
  synchronize(b);
}

// Loop timing: back-to-back calls after one barrier, on zeros (a sum of zeros stays zero, so
// thousands of in-place calls never overflow). Seconds per call, one value per sample.
std::vector<double> time_loops(const PointBenchmark& b, Buffers& buffers, SamplePlan plan) {
  buffers.input.zero_();
  settle(b, buffers, plan);
  std::vector<double> seconds;
  for (int sample = 0; sample < plan.samples; ++sample) {
    // Watched per sample, not per call: a few atomic stores would show in a 4 B call.
    WatchedOperation watched(b.context.watchdog, "collective sample",
                             static_cast<std::uint64_t>(sample), b.context.size);
    checkpoint(b);
    const auto t0 = Clock::now();
    for (int i = 0; i < plan.calls_per_sample; ++i) call(b, buffers);
    synchronize(b);
    seconds.push_back(seconds_since(t0) / plan.calls_per_sample);
  }
  return seconds;
}

// Per-iteration timing: each call starts from the rank's data, after a barrier.
std::vector<double> time_iterations(const PointBenchmark& b, Buffers& buffers, SamplePlan plan) {
  buffers.input.zero_();  // settling sums zeros (no overflow); each sample copies its data in
  settle(b, buffers, plan);
  std::vector<double> seconds;
  for (int sample = 0; sample < plan.samples; ++sample) {
    WatchedOperation watched(b.context.watchdog, "collective sample",
                             static_cast<std::uint64_t>(sample), b.context.size);
    buffers.input.copy_(buffers.pristine);
    synchronize(b);
    checkpoint(b);
    const auto t0 = Clock::now();
    call(b, buffers);
    synchronize(b);
    seconds.push_back(seconds_since(t0));
  }
  return seconds;
}

// One call from every rank's data, its output compared with the expected one; wrong elements
// over all ranks (complete on rank 0).
long long count_wrong(const PointBenchmark& b, Buffers& buffers, std::int64_t count) {
  WatchedOperation watched(b.context.watchdog, "collective correctness check", 0, b.context.size);
  buffers.input.copy_(buffers.pristine);
  if (!b.op.in_place) buffers.output.zero_();
  call(b, buffers);
  synchronize(b);
  checkpoint(b);
  const auto expected = b.op.expected(count, call_of(b), buffers.output.options());
  const auto error = wrong_elements(buffers.output, expected, b.type.tolerance, 1e-9);
  long long wrong = error.sum().item<int64_t>(), total = 0;
  check_mpi(MPI_Reduce(&wrong, &total, 1, MPI_LONG_LONG, MPI_SUM, 0, b.context.comm), "MPI_Reduce");
  return total;
}

CollectivePoint summarise_point(const PointBenchmark& b, std::uint64_t count, SamplePlan plan,
                                const std::vector<double>& seconds) {
  const SampleSummary s = summarise(seconds);
  CollectivePoint p;
  p.count = count;
  p.bytes = count * plugin::dtype_size(b.type.dtype);
  p.iters = s.n;
  p.calls = s.n * static_cast<std::uint64_t>(plan.calls_per_sample);
  p.mean_us = s.mean * 1e6;
  p.min_us = s.min * 1e6;
  p.p50_us = s.median * 1e6;
  p.p99_us = s.p99 * 1e6;
  p.ci_low_us = s.median_ci.low * 1e6;
  p.ci_high_us = s.median_ci.high * 1e6;
  p.cv = s.cv;
  const double bytes = static_cast<double>(p.bytes), factor = b.op.bus_factor(b.context.size);
  p.algbw_gbps = bytes / s.median / 1e9;
  p.busbw_gbps = p.algbw_gbps * factor;
  p.busbw_ci_low_gbps = bytes / s.median_ci.high / 1e9 * factor;
  p.busbw_ci_high_gbps = bytes / s.median_ci.low / 1e9 * factor;
  p.noisy = s.cv > b.settings.noise_cv_threshold;
  return p;
}

}  // namespace

CollectivePoint measure_point(const PointBenchmark& b, std::int64_t count) {
  Buffers buffers = buffers_for(b, count);
  const SamplePlan plan = plan_samples(b, warm_up(b, buffers));
  const auto seconds = b.gate.measure([&] {
    return b.settings.timing == CollectiveTiming::kLoop ? time_loops(b, buffers, plan)
                                                        : time_iterations(b, buffers, plan);
  });
  CollectivePoint point =
      summarise_point(b, static_cast<std::uint64_t>(count), plan,
                      max_over_ranks(seconds, b.context.comm, b.context.watchdog));
  if (b.gate.active()) point.slowdown = b.gate.last_slowdown();
  point.noisy = point.noisy || !b.gate.last_quiet();
  if (b.settings.check) point.wrong = count_wrong(b, buffers, count);
  checkpoint(b);  // the last sample's calls, when nothing is checked
  return point;
}

}  // namespace harness

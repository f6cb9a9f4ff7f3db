#include "train/shard_check.h"

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

// How far a block's sum may be from the expected one, relative to the sum of its magnitudes
// over the ranks (summation order differs between the backend and this check).
double relative_tolerance(plugin::DType wire) {
  switch (wire) {
    case plugin::DType::kFloat16: return 4e-3;
    case plugin::DType::kBFloat16: return 3e-2;
    default: return 1e-4;
  }
}

// Per block r: this rank's input sum, its magnitude sum, (at r == rank) its shard's sum times
// the ranks (the shard is an average) and its non-finite elements.
struct BlockSums {
  explicit BlockSums(int group) : values(4 * static_cast<std::size_t>(group), 0.0), ranks(group) {}
  double& input(int r) { return values[static_cast<std::size_t>(r)]; }
  double& magnitude(int r) { return values[static_cast<std::size_t>(ranks + r)]; }
  double& shard(int r) { return values[static_cast<std::size_t>(2 * ranks + r)]; }
  double& non_finite(int r) { return values[static_cast<std::size_t>(3 * ranks + r)]; }
  std::vector<double> values;
  int ranks;
};

void add_bucket(const GradientReducer& reducer, std::size_t b, int rank, int ranks,
                BlockSums* sums) {
  const at::Tensor whole = reducer.bucket_values(b).to(torch::kFloat64);
  const int64_t block = whole.numel() / ranks;
  for (int r = 0; r < ranks; ++r) {
    const at::Tensor part = whole.narrow(0, r * block, block);
    sums->input(r) += part.sum().item<double>();
    sums->magnitude(r) += part.abs().sum().item<double>();
  }
  const at::Tensor shard = reducer.gradient_shard(b).to(torch::kFloat64);
  const at::Tensor finite = shard.isfinite();
  sums->non_finite(rank) += static_cast<double>(shard.numel() - finite.sum().item<int64_t>());
  sums->shard(rank) += shard.where(finite, torch::zeros({}, shard.options())).sum().item<double>() *
                       ranks;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

GroupProblem check_shards(const GradientReducer& reducer, MPI_Comm comm, Watchdog* watchdog,
                          std::uint64_t step) {
  int rank = 0, ranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &ranks);
  BlockSums sums(ranks);
  for (std::size_t b = 0; b < reducer.bucket_count(); ++b) add_bucket(reducer, b, rank, ranks, &sums);
  {
    WatchedOperation watched(watchdog, "shard check", step, ranks);
    check_mpi(MPI_Allreduce(MPI_IN_PLACE, sums.values.data(), static_cast<int>(sums.values.size()),
                            MPI_DOUBLE, MPI_SUM, comm),
              "MPI_Allreduce");
  }
  const double tolerance = relative_tolerance(reducer.wire_dtype());
  const std::string where = " (step " + std::to_string(step) + ")";
  for (int r = 0; r < ranks; ++r) {
    // Gradients that are not finite themselves are the model's (the loss tells that).
    if (!std::isfinite(sums.input(r)) || !std::isfinite(sums.magnitude(r))) continue;
    if (sums.non_finite(r) > 0)
      return {TrialStatus::kFailed,
              "rank " + std::to_string(r) + ": reduce_scatter returned " +
                  number(sums.non_finite(r)) +
                  " NaN or infinite element(s) in its shard from finite gradients" + where};
    const double off = std::abs(sums.shard(r) - sums.input(r));
    if (!(off <= tolerance * sums.magnitude(r) + 1e-12))
      return {TrialStatus::kFailed,
              "rank " + std::to_string(r) + ": reduce_scatter returned a wrong shard: its sum is " +
                  number(sums.shard(r) / ranks) + ", the ranks' gradients average to " +
                  number(sums.input(r) / ranks) + " there" + where};
  }
  return {};
}

}  // namespace harness

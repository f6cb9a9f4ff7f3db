#include "train/replica_check.h"

#include <torch/torch.h>

#include <vector>

#include "common/hashing.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

std::uint64_t bytes_hash(const at::Tensor& tensor, std::uint64_t seed) {
  const auto host = tensor.detach().to(torch::kCPU).contiguous();
  return fnv1a64(host.data_ptr(), static_cast<std::size_t>(host.numel()) * host.element_size(),
                 seed);
}

std::uint64_t state_hash(FusionBuffer& fusion, const std::vector<at::Tensor>& buffers) {
  fusion.pack_values();
  std::uint64_t hash = bytes_hash(
      fusion.flat().narrow(0, 0, static_cast<int64_t>(fusion.gradient_elements())), kFnv1a64Offset);
  for (const auto& buffer : buffers) hash = bytes_hash(buffer, hash);
  return hash;
}

}  // namespace

ReplicaCheck check_replicas(FusionBuffer& fusion, const std::vector<at::Tensor>& buffers,
                            MPI_Comm comm, Watchdog* watchdog) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  ReplicaCheck check;
  check.hash = state_hash(fusion, buffers);
  const auto parameters =
      fusion.flat().narrow(0, 0, static_cast<int64_t>(fusion.gradient_elements()));
  // Per rank: its fingerprint and whether its parameters are all finite.
  const std::uint64_t mine[2] = {check.hash, parameters.isfinite().all().item<bool>() ? 1u : 0u};
  std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(size));
  WatchedOperation watched(watchdog, "replica check", 0, size);
  check_mpi(MPI_Allgather(mine, 2, MPI_UINT64_T, all.data(), 2, MPI_UINT64_T, comm),
            "MPI_Allgather");
  for (int r = 0; r < size; ++r) {
    check.consistent = check.consistent && all[2 * static_cast<std::size_t>(r)] == all[0];
    if (check.non_finite_rank < 0 && all[2 * static_cast<std::size_t>(r) + 1] == 0)
      check.non_finite_rank = r;
  }
  return check;
}

}  // namespace harness

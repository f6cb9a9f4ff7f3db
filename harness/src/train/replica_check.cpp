#include "train/replica_check.h"

#include <torch/torch.h>

#include <vector>

#include "common/hashing.h"
#include "mpi/mpi_check.h"
#include "mpi/watchdog.h"

namespace harness {
namespace {

std::uint64_t parameter_hash(FusionBuffer& fusion) {
  fusion.pack_values();
  auto values = fusion.flat()
                    .narrow(0, 0, static_cast<int64_t>(fusion.gradient_elements()))
                    .to(torch::kCPU)
                    .contiguous();
  return fnv1a64(values.data_ptr(), static_cast<std::size_t>(values.numel()) * sizeof(float));
}

}  // namespace

ReplicaCheck check_replicas(FusionBuffer& fusion, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  ReplicaCheck check;
  check.hash = parameter_hash(fusion);
  std::vector<std::uint64_t> hashes(static_cast<std::size_t>(size));
  WatchedOperation watched("replica check", 0, size);
  check_mpi(MPI_Allgather(&check.hash, 1, MPI_UINT64_T, hashes.data(), 1, MPI_UINT64_T, comm),
            "MPI_Allgather");
  for (auto h : hashes) check.consistent = check.consistent && h == hashes[0];
  return check;
}

}  // namespace harness

// The bootstrap of a group the harness runs under MPI: its calls are MPI collectives over the
// group's communicator.
#pragma once

#include <mpi.h>

#include "harness/plugin/bootstrap.h"
#include "harness/plugin/mpi_status.h"

namespace harness::plugin {

class MpiBootstrap final : public Bootstrap {
 public:
  explicit MpiBootstrap(MPI_Comm comm) : comm_(comm) {
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  Status allgather(const void* mine, void* all, std::size_t bytes) noexcept override {
    return mpi_status(MPI_Allgather(mine, static_cast<int>(bytes), MPI_BYTE, all,
                                    static_cast<int>(bytes), MPI_BYTE, comm_),
                      "MPI_Allgather");
  }
  Status broadcast(void* data, std::size_t bytes, int root) noexcept override {
    return mpi_status(MPI_Bcast(data, static_cast<int>(bytes), MPI_BYTE, root, comm_),
                      "MPI_Bcast");
  }
  Status barrier() noexcept override { return mpi_status(MPI_Barrier(comm_), "MPI_Barrier"); }
  std::string describe() const override { return "MPI"; }

 private:
  MPI_Comm comm_;
  int rank_ = 0, size_ = 1;
};

}  // namespace harness::plugin

// The ring's links under the harness: MPI point-to-point on a private duplicate of the trial's
// communicator, each chunk its own non-blocking message.
#pragma once

#include <mpi.h>

#include "peer_links.h"

namespace harness::plugins {

class MpiLinks final : public PeerLinks {
 public:
  explicit MpiLinks(MPI_Comm group);
  ~MpiLinks() override;
  MpiLinks(const MpiLinks&) = delete;
  MpiLinks& operator=(const MpiLinks&) = delete;

  plugin::Status exchange(int to, const void* send, std::size_t send_bytes, int from, void* receive,
                          std::size_t receive_bytes, std::size_t chunk_bytes,
                          const Progress& progress) override;
  plugin::Status broadcast(void* data, std::size_t bytes, int root) override;
  plugin::Status barrier() override;
  std::string describe() const override { return "MPI point-to-point"; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace harness::plugins

// A shared-memory segment mapped by every rank of a group on one host. Its name is random
// (/dev/urandom), created with O_EXCL and mode 0600, so no other user can guess it or lay a
// file there first; it is unlinked as soon as every rank has mapped it, so however the job
// ends afterwards (SIGKILL included) nothing is left in /dev/shm.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>

namespace harness::plugins {

class SharedSegment {
 public:
  SharedSegment() = default;
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  // Collective over `comm` (every rank on this host): rank 0 creates `bytes`, the others map
  // it. Returns "" or the reason it failed (the same on every rank).
  std::string map(MPI_Comm comm, std::size_t bytes);

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace harness::plugins

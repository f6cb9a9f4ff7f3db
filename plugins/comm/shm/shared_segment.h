// A shared-memory segment every rank of a group on one host maps: an anonymous memory file
// (memfd) that rank 0 creates and the others open through /proc/<pid>/fd (which only the same
// user may), so it never has a name in /dev/shm and goes with the last mapping, however the job
// ends (SIGKILL included). Its pages are reserved up front (posix_fallocate), so a segment larger
// than memory allows is refused when it is made, not with SIGBUS at a first touch.
#pragma once

#include <cstddef>
#include <string>

#include "harness/plugin/bootstrap.h"

namespace harness::plugins {

class SharedSegment {
 public:
  SharedSegment() = default;
  ~SharedSegment();
  SharedSegment(const SharedSegment&) = delete;
  SharedSegment& operator=(const SharedSegment&) = delete;

  // Collective over `group` (every rank on this host): rank 0 creates `bytes`, the others map
  // it. Returns "" or the reason it failed (the same on every rank). With `per_rank_bytes`, rank
  // r reserves bytes [r * per_rank_bytes, (r + 1) * per_rank_bytes) itself before rank 0
  // reserves the rest: a page is placed on the memory node of the rank that uses it most.
  std::string map(plugin::Bootstrap& group, std::size_t bytes, std::size_t per_rank_bytes = 0);

  void* data() const { return data_; }
  std::size_t bytes() const { return bytes_; }

 private:
  void* data_ = nullptr;
  std::size_t bytes_ = 0;
};

}  // namespace harness::plugins

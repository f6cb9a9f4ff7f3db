#include "shared_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace harness::plugins {
namespace {

std::string system_error(const char* what, const std::string& name) {
  return std::string(what) + " " + name + ": " + std::strerror(errno);
}

// Rank 0: a fresh, empty memory file with no name; the descriptor, or -1 with `problem` set.
int create(std::string* problem) {
  const int fd = static_cast<int>(memfd_create("harness-shm", MFD_CLOEXEC));
  if (fd < 0) *problem = system_error("memfd_create", "harness-shm");
  return fd;
}

// The pages are reserved now: a segment larger than /dev/shm has room for is refused here
// rather than killing a rank with SIGBUS at its first touch of a page that is not there.
void reserve(int fd, std::size_t from, std::size_t bytes, std::string* problem) {
  if (bytes == 0) return;
  const int reserved = posix_fallocate(fd, static_cast<off_t>(from), static_cast<off_t>(bytes));
  if (reserved == 0) return;
  errno = reserved;
  *problem = system_error("posix_fallocate", "the segment") + " (is /dev/shm large enough?)";
}

// This rank's problem (or "") for everyone; any rank's problem fails the whole group.
std::string agreed_problem(const std::string& mine, plugin::Bootstrap& group) {
  if (!plugin::on_any_rank(group, !mine.empty())) return "";
  return mine.empty() ? "shm: another rank could not map the shared segment" : "shm: " + mine;
}

}  // namespace

std::string SharedSegment::map(plugin::Bootstrap& group, std::size_t bytes,
                               std::size_t per_rank_bytes) {
  const int rank = group.rank();
  std::string problem;
  int fd = rank == 0 ? create(&problem) : -1;
  // Where the other ranks open it: rank 0's descriptor, through /proc (same host, same user).
  long where[2] = {rank == 0 && fd >= 0 ? static_cast<long>(getpid()) : 0L, fd};
  if (plugin::Status s = group.broadcast(where, sizeof where, 0); !s.is_ok()) {
    if (fd >= 0) close(fd);
    return "shm: " + s.message();
  }
  const std::string path = "/proc/" + std::to_string(where[0]) + "/fd/" + std::to_string(where[1]);
  if (rank != 0 && where[0] != 0) {
    fd = open(path.c_str(), O_RDWR | O_CLOEXEC);
    if (fd < 0) problem = system_error("open", path + " (rank 0's shared segment)");
  }
  if (where[0] == 0 && problem.empty()) problem = "rank 0 could not create the shared segment";
  // Every rank has opened it (or failed) before any sizes it; every rank's own part is
  // reserved (the pages allocated where that rank runs) before rank 0 reserves the rest.
  group.barrier();
  const std::size_t own = std::min(bytes, per_rank_bytes * static_cast<std::size_t>(rank));
  if (fd >= 0) reserve(fd, own, std::min(per_rank_bytes, bytes - own), &problem);
  group.barrier();
  if (rank == 0 && fd >= 0) reserve(fd, 0, bytes, &problem);
  // No rank maps pages that were not reserved.
  std::string agreed = agreed_problem(problem, group);
  if (agreed.empty()) {
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
      problem = system_error("mmap", path);
    } else {
      data_ = mapped;
      bytes_ = bytes;
    }
    agreed = agreed_problem(problem, group);
  }
  if (fd >= 0) close(fd);
  return agreed;
}

SharedSegment::~SharedSegment() {
  if (data_) munmap(data_, bytes_);
}

}  // namespace harness::plugins

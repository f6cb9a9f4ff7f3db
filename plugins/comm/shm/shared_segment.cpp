#include "shared_segment.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>

namespace harness::plugins {
namespace {

// "/harness-shm-<32 hex digits>": 128 random bits.
std::string random_name() {
  std::ifstream urandom("/dev/urandom", std::ios::binary);
  std::uint64_t bits[2] = {};
  urandom.read(reinterpret_cast<char*>(bits), sizeof bits);
  char name[64];
  std::snprintf(name, sizeof name, "/harness-shm-%016llx%016llx",
                static_cast<unsigned long long>(bits[0]), static_cast<unsigned long long>(bits[1]));
  return urandom ? name : "";
}

std::string system_error(const char* what, const std::string& name) {
  return std::string(what) + " " + name + ": " + std::strerror(errno);
}

// Rank 0: a fresh, empty segment; the descriptor, or -1 with `problem` set.
int create(const std::string& name, std::string* problem) {
  if (name.empty()) {
    *problem = "cannot read /dev/urandom for the segment's name";
    return -1;
  }
  const int fd = shm_open(name.c_str(), O_CREAT | O_EXCL | O_RDWR | O_CLOEXEC, S_IRUSR | S_IWUSR);
  if (fd < 0) *problem = system_error("shm_open", name);
  return fd;
}

// The pages are reserved now: a segment larger than /dev/shm has room for is refused here
// rather than killing a rank with SIGBUS at its first touch of a page that is not there.
void reserve(int fd, std::size_t bytes, std::string* problem) {
  const int reserved = posix_fallocate(fd, 0, static_cast<off_t>(bytes));
  if (reserved == 0) return;
  errno = reserved;
  *problem = system_error("posix_fallocate", "the segment") + " (is /dev/shm large enough?)";
}

// Rank 0's problem (or "") for everyone; any rank's problem fails the whole group.
std::string agreed_problem(const std::string& mine, MPI_Comm comm) {
  int failed = mine.empty() ? 0 : 1, any = 0;
  MPI_Allreduce(&failed, &any, 1, MPI_INT, MPI_MAX, comm);
  if (!any) return "";
  return mine.empty() ? "shm: another rank could not map the shared segment" : "shm: " + mine;
}

}  // namespace

// The name lives only until every rank has opened the segment, before its pages are reserved
// (which takes a while for large ones): a job killed at any point after that leaves nothing in
// /dev/shm.
std::string SharedSegment::map(MPI_Comm comm, std::size_t bytes) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string problem;
  char name[64] = {};
  int fd = -1;
  if (rank == 0) {
    const std::string chosen = random_name();
    fd = create(chosen, &problem);
    if (fd >= 0) std::snprintf(name, sizeof name, "%s", chosen.c_str());
  }
  MPI_Bcast(name, sizeof name, MPI_CHAR, 0, comm);
  if (rank != 0 && name[0] != '\0') {
    fd = shm_open(name, O_RDWR | O_CLOEXEC, 0);
    if (fd < 0) problem = system_error("shm_open", name);
  }
  if (name[0] == '\0' && problem.empty()) problem = "rank 0 could not create the shared segment";
  // Every rank has opened it (or failed): the name goes, the descriptors stay.
  MPI_Barrier(comm);
  if (rank == 0 && name[0] != '\0') shm_unlink(name);
  if (rank == 0 && fd >= 0) reserve(fd, bytes, &problem);
  // No rank maps pages that were not reserved.
  std::string agreed = agreed_problem(problem, comm);
  if (agreed.empty()) {
    void* mapped = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (mapped == MAP_FAILED) {
      problem = system_error("mmap", name);
    } else {
      data_ = mapped;
      bytes_ = bytes;
    }
    agreed = agreed_problem(problem, comm);
  }
  if (fd >= 0) close(fd);
  return agreed;
}

SharedSegment::~SharedSegment() {
  if (data_) munmap(data_, bytes_);
}

}  // namespace harness::plugins

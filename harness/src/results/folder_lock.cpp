#include "results/folder_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <utility>

#include "common/brief.h"
#include "common/input_error.h"
#include "common/utc_time.h"

namespace harness {
namespace {

std::string this_host() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name;
}

std::string holder_text(const std::string& holder_file) {
  std::ifstream file(holder_file);
  std::string line;
  std::getline(file, line);
  return line.empty() ? "another harness job (it has not named itself yet)" : brief(line, 200);
}

// Best effort: a read-only folder cannot name its holder, and no other job can write it. Not
// through a link planted as .lock (results/folder_links.h).
void name_holder(const std::string& holder_file) {
  const int fd =
      ::open(holder_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0) return;
  const std::string text = "harness pid " + std::to_string(::getpid()) + " on host " +
                           this_host() + " since " + utc_now() + "\n";
  [[maybe_unused]] const ssize_t written = ::write(fd, text.data(), text.size());
  ::close(fd);
}

}  // namespace

FolderLock FolderLock::acquire(const std::string& directory) {
  FolderLock lock;
  lock.fd_ = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (lock.fd_ < 0)
    throw InputError(directory + ": cannot open the results folder: " + std::strerror(errno));
  lock.holder_file_ = directory + "/.lock";
  if (::flock(lock.fd_, LOCK_EX | LOCK_NB) != 0) {
    const int error = errno;
    if (error == EWOULDBLOCK)
      throw InputError(directory + ": in use by " + holder_text(lock.holder_file_) +
                       "; one job at a time may write a results folder: wait for that job "
                       "to end (the lock ends with its process, even one killed outright, so "
                       "a .lock file left behind blocks nothing), or start a new run");
    throw InputError(directory + ": cannot lock the results folder: " + std::strerror(error));
  }
  name_holder(lock.holder_file_);
  return lock;
}

FolderLock::~FolderLock() {
  if (fd_ < 0) return;
  ::unlink(holder_file_.c_str());  // before unlocking: a new holder's file is never removed
  ::close(fd_);
}

FolderLock::FolderLock(FolderLock&& other) noexcept
    : fd_(std::exchange(other.fd_, -1)), holder_file_(std::move(other.holder_file_)) {}

FolderLock& FolderLock::operator=(FolderLock&& other) noexcept {
  if (this != &other) {
    FolderLock gone(std::move(*this));
    fd_ = std::exchange(other.fd_, -1);
    holder_file_ = std::move(other.holder_file_);
  }
  return *this;
}

}  // namespace harness

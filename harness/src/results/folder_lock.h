// One job per results folder: two jobs resuming one folder at once would both run the missing
// trials and interleave their records. The lock is flock(2) on the folder itself, so it works
// on a read-only file system and is released by the kernel however the job ends; beside it,
// .lock names the holder (pid, host, start) for the message a second job gets.
#pragma once

#include <string>

namespace harness {

class FolderLock {
 public:
  FolderLock() = default;
  // Locks `directory` or throws InputError naming the job that holds it.
  static FolderLock acquire(const std::string& directory);
  ~FolderLock();
  FolderLock(FolderLock&& other) noexcept;
  FolderLock& operator=(FolderLock&& other) noexcept;
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
  std::string holder_file_;
};

}  // namespace harness

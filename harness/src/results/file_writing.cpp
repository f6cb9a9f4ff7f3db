#include "results/file_writing.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace harness {
namespace {

[[noreturn]] void fail(const std::string& path, const char* what, int error) {
  throw ResultsWriteError(path + ": " + what + ": " + std::strerror(error), error);
}

void write_all(int fd, const std::string& text, const std::string& path) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail(path, "write failed", errno);
    written += static_cast<std::size_t>(n);
  }
}

// A full disk can show only at fsync or close (delayed allocation), so both are checked.
// Messages name `shown`, the file the user knows (not its temporary).
void write_and_sync(const std::string& path, int flags, const std::string& text,
                    const std::string& shown) {
  // O_NOFOLLOW: a link planted in the results folder is not written through (folder_links.h).
  const int fd = ::open(path.c_str(), flags | O_WRONLY | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (fd < 0 && errno == ELOOP)
    fail(path, "is a symbolic link, not written through (the harness writes only files inside "
               "the results folder); remove it", ELOOP);
  if (fd < 0) fail(shown, "cannot open for writing", errno);
  const off_t size_before = ::lseek(fd, 0, SEEK_END);
  try {
    write_all(fd, text, shown);
    if (::fsync(fd) != 0) fail(shown, "write failed", errno);
  } catch (...) {
    // An append cut short would leave half a line; the file goes back to what it held.
    if (size_before >= 0 && ::ftruncate(fd, size_before) == 0) ::fsync(fd);
    ::close(fd);
    throw;
  }
  if (::close(fd) != 0) fail(shown, "write failed", errno);
}

}  // namespace

bool ResultsWriteError::out_of_space() const {
  return error_number_ == ENOSPC || error_number_ == EDQUOT;
}

void write_file_atomically(const std::string& path, const std::string& text) {
  const std::string temporary = path + ".tmp";
  try {
    write_and_sync(temporary, O_TRUNC, text, path);
  } catch (const ResultsWriteError&) {
    ::unlink(temporary.c_str());
    throw;
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    ::unlink(temporary.c_str());
    fail(path, "cannot rename into place", error);
  }
}

void append_durably(const std::string& path, const std::string& text) {
  write_and_sync(path, O_APPEND, text, path);
}

std::string csv_cell(const Json& value) {
  if (value.is_null()) return "";
  if (!value.is_string()) return value.dump();
  return csv_cell(value.get_ref<const std::string&>());
}

std::string csv_cell(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace harness

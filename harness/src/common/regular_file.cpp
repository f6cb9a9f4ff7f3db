#include "common/regular_file.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "common/input_error.h"

namespace harness {

std::string read_regular_file(const std::string& path, const std::string& expected) {
  struct stat status {};
  if (::stat(path.c_str(), &status) == 0) {
    if (S_ISDIR(status.st_mode)) throw InputError(path + ": is a folder, expected " + expected);
    if (!S_ISREG(status.st_mode))
      throw InputError(path + ": is no regular file, expected " + expected);
  }
  std::ifstream file(path, std::ios::binary);
  std::ostringstream bytes;
  if (file) bytes << file.rdbuf();
  if (!file || file.bad()) {
    const int error = errno;
    throw InputError(path + ": cannot be read (" + std::strerror(error) + "), expected " +
                     expected);
  }
  return bytes.str();
}

}  // namespace harness

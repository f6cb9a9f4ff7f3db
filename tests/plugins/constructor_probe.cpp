// Not a plugin: a shared library whose static constructor creates the file named by
// $HARNESS_CONSTRUCTOR_PROBE. Plugin discovery must never load it, whatever it is called.
#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

namespace {

struct Probe {
  Probe() {
    if (const char* path = std::getenv("HARNESS_CONSTRUCTOR_PROBE")) {
      const int fd = open(path, O_WRONLY | O_CREAT, 0644);
      if (fd >= 0) close(fd);
    }
  }
} probe;

}  // namespace

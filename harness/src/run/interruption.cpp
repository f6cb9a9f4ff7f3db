#include "run/interruption.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

namespace harness {
namespace {

// Rendered by arm(), read by the handler; never reallocated while armed.
struct Prepared {
  std::string meta_path;
  std::string temporary_path;
  std::string meta_text;
  std::string message;
};
Prepared* prepared = nullptr;

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return;
    done += static_cast<std::size_t>(n);
  }
}

extern "C" void mark_and_exit(int signal_number) {
  if (prepared) {
    const int fd = open(prepared->temporary_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      write_all(fd, prepared->meta_text);
      fsync(fd);
      close(fd);
      rename(prepared->temporary_path.c_str(), prepared->meta_path.c_str());
    }
    write_all(STDERR_FILENO, prepared->message);
  }
  _exit(128 + signal_number);
}

void set_handler(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

void arm_interruption_mark(const std::string& directory, const Json& meta) {
  Json marked = meta;
  marked["interrupted"] = {{"by", "SIGINT or SIGTERM (Ctrl-C, mpirun, a scheduler)"},
                           {"resume_with", "harness --resume " + directory}};
  static Prepared storage;
  set_handler(SIG_DFL);  // not while the strings change
  storage = {directory + "/meta.json", directory + "/meta.json.interrupted.tmp",
             marked.dump(2) + "\n",
             "\nharness: interrupted; finished trials are kept in " + directory +
                 "/trials.jsonl. Continue with: harness --resume " + directory + "\n"};
  prepared = &storage;
  set_handler(mark_and_exit);
}

void disarm_interruption_mark() {
  set_handler(SIG_DFL);
  prepared = nullptr;
}

}  // namespace harness

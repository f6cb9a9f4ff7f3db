#include "run/interruption.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <cstring>

#include "run/run_meta_json.h"

namespace harness {
namespace {

// Rendered by arm(), read by the handler; never reallocated while armed. Index 0: SIGINT,
// 1: SIGTERM.
struct Prepared {
  std::string meta_path;
  std::string temporary_path;
  std::string meta_text[2];
  std::string message[2];
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

// mpirun follows its SIGTERM with SIGKILL one second later, so the handler does the cheap,
// telling part first (the line that names the signal, which scripts/run reads for its exit
// status) and does not fsync: the rename is what must happen before the kill, and a process
// that dies leaves its written pages to the kernel. An fsync under disk load took longer than
// that second and lost both the line and the mark.
extern "C" void mark_and_exit(int signal_number) {
  if (prepared) {
    const int which = signal_number == SIGTERM ? 1 : 0;
    write_all(STDERR_FILENO, prepared->message[which]);
    const int fd = open(prepared->temporary_path.c_str(),
                        O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd >= 0) {
      write_all(fd, prepared->meta_text[which]);
      close(fd);
      rename(prepared->temporary_path.c_str(), prepared->meta_path.c_str());
    }
  }
  _exit(128 + signal_number);
}

// While the handler writes, the other signal waits (a second Ctrl-C, or mpirun's SIGTERM
// after it) instead of starting a second write of the same file.
void set_handler(void (*handler)(int)) {
  struct sigaction action {};
  action.sa_handler = handler;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, SIGINT);
  sigaddset(&action.sa_mask, SIGTERM);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

void arm_interruption_mark(const std::string& directory, const RunMeta& meta) {
  static Prepared storage;
  set_handler(SIG_DFL);  // not while the strings change
  storage.meta_path = directory + "/meta.json";
  storage.temporary_path = directory + "/meta.json.interrupted.tmp";
  const char* names[2] = {"SIGINT", "SIGTERM"};
  for (int which = 0; which < 2; ++which) {
    RunMeta marked = meta;
    marked.end.unfinished.reset();
    marked.end.interrupted = InterruptedMark{names[which], 128 + (which ? SIGTERM : SIGINT),
                                             "harness --resume " + directory};
    storage.meta_text[which] = to_json(marked).dump(2) + "\n";
    storage.message[which] = std::string("\nharness: interrupted (") + names[which] +
                             "); finished trials are kept in " + directory +
                             "/trials.jsonl. Continue with: harness --resume " + directory + "\n";
  }
  prepared = &storage;
  set_handler(mark_and_exit);
}

void disarm_interruption_mark() {
  set_handler(SIG_DFL);
  prepared = nullptr;
}

}  // namespace harness

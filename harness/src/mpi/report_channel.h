// The watchdog's line from every rank to rank 0, outside MPI: one TCP connection per rank,
// set up collectively over MPI from the main thread and then used only by the watchdog's
// thread. Keeping the watchdog off MPI lets a job run MPI at MPI_THREAD_SINGLE, the one level
// at which Open MPI takes no lock around each call (mpi/mpi_runtime.h). torch's watchdog keeps
// its store on TCP for the same reason: what watches the collectives must not share their
// library.
//
// Messages have one fixed size. Members send; rank 0 receives without ever blocking.
#pragma once

#include <mpi.h>

#include <cstddef>
#include <string>
#include <vector>

namespace harness {

class ReportChannel {
 public:
  // Collective over comm, main thread. Every rank learns whether every rank is connected;
  // when one is not, none is (open() is false everywhere) and problem() says why.
  ReportChannel(MPI_Comm comm, std::size_t message_bytes);
  ~ReportChannel();
  ReportChannel(const ReportChannel&) = delete;
  ReportChannel& operator=(const ReportChannel&) = delete;

  bool open() const { return problem_.empty(); }
  const std::string& problem() const { return problem_; }

  // A member: sends one message (message_bytes) to rank 0; false when rank 0 is gone.
  bool send(const void* message);
  // Rank 0: copies one whole message that has arrived into `message` and returns true;
  // false at once when none has.
  bool receive(void* message);

 private:
  struct Peer {
    int fd = -1;
    std::vector<char> pending;  // bytes of a message not yet whole
  };
  std::string listen_and_accept(MPI_Comm comm);
  std::string connect_to_leader(MPI_Comm comm);
  bool read_whole_message(Peer& peer, void* message);
  void close_all();

  int rank_ = 0;
  int size_ = 1;
  std::size_t message_bytes_;
  int leader_fd_ = -1;       // a member's connection to rank 0
  std::vector<Peer> peers_;  // rank 0's connections, by rank (its own slot unused)
  std::string problem_;
};

}  // namespace harness

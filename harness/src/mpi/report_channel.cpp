#include "mpi/report_channel.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "harness/plugin/peer_address.h"
#include "mpi/string_broadcast.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;
// Long enough for a loaded machine to schedule every rank's connect; only reached on failure.
constexpr auto kSetupTimeout = std::chrono::seconds(30);

std::string system_error(const char* what) {
  return std::string(what) + ": " + std::strerror(errno);
}

int milliseconds_left(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
  return left.count() > 0 ? static_cast<int>(left.count()) : 0;
}

// Waits until fd is ready for `events` or the deadline passes.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  pollfd watched{fd, events, 0};
  int ready;
  do {
    ready = poll(&watched, 1, milliseconds_left(deadline));
  } while (ready < 0 && errno == EINTR);
  return ready > 0;
}

bool write_all(int fd, const void* data, std::size_t bytes) {
  const char* next = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t sent = ::send(fd, next, bytes, MSG_NOSIGNAL);
    if (sent < 0 && errno == EINTR) continue;
    if (sent <= 0) return false;
    next += sent;
    bytes -= static_cast<std::size_t>(sent);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t bytes, Clock::time_point deadline) {
  char* next = static_cast<char*>(data);
  while (bytes > 0) {
    if (!wait_for(fd, POLLIN, deadline)) return false;
    const ssize_t got = ::recv(fd, next, bytes, 0);
    if (got < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (got <= 0) return false;
    next += got;
    bytes -= static_cast<std::size_t>(got);
  }
  return true;
}

sockaddr_in ipv4(const std::string& address, int port) {
  sockaddr_in endpoint{};
  endpoint.sin_family = AF_INET;
  endpoint.sin_port = htons(static_cast<std::uint16_t>(port));
  inet_pton(AF_INET, address.c_str(), &endpoint.sin_addr);
  return endpoint;
}

// A listening socket on address, any port: its descriptor and "address:port", or the reason.
std::string listen_on(const std::string& address, int backlog, int* listener, std::string* where) {
  *listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (*listener < 0) return system_error("socket");
  sockaddr_in endpoint = ipv4(address, 0);
  socklen_t length = sizeof endpoint;
  if (bind(*listener, reinterpret_cast<sockaddr*>(&endpoint), sizeof endpoint) != 0)
    return system_error(("bind to " + address).c_str());
  if (listen(*listener, backlog) != 0 ||
      getsockname(*listener, reinterpret_cast<sockaddr*>(&endpoint), &length) != 0)
    return system_error("listen");
  *where = address + ":" + std::to_string(ntohs(endpoint.sin_port));
  return {};
}

}  // namespace

ReportChannel::ReportChannel(MPI_Comm comm, std::size_t message_bytes)
    : message_bytes_(message_bytes) {
  MPI_Comm_rank(comm, &rank_);
  MPI_Comm_size(comm, &size_);
  if (size_ == 1) return;
  problem_ = rank_ == 0 ? listen_and_accept(comm) : connect_to_leader(comm);
  // Every rank leaves with the first failing rank's reason, or all are connected.
  int mine = problem_.empty() ? size_ : rank_, first = size_;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size_) return;
  const std::string reason = broadcast_string(problem_, first, comm);
  problem_ = "rank " + std::to_string(first) + " has no connection to rank 0: " + reason;
  close_all();
}

ReportChannel::~ReportChannel() { close_all(); }

void ReportChannel::close_all() {
  if (leader_fd_ >= 0) close(leader_fd_);
  leader_fd_ = -1;
  for (Peer& peer : peers_)
    if (peer.fd >= 0) close(peer.fd);
  peers_.clear();
}

// Rank 0: listens on an address every rank reaches, says where, and takes one connection from
// each other rank, which names itself first.
std::string ReportChannel::listen_and_accept(MPI_Comm comm) {
  std::string why, where;
  const std::string address = plugin::address_for_group(comm, &why);
  int listener = -1;
  if (!address.empty()) why = listen_on(address, size_, &listener, &where);
  broadcast_string(why.empty() ? where : "!" + why, 0, comm);
  peers_.resize(static_cast<std::size_t>(size_));
  const auto deadline = Clock::now() + kSetupTimeout;
  for (int connected = 1; why.empty() && connected < size_; ++connected) {
    const int fd = wait_for(listener, POLLIN, deadline)
                       ? accept4(listener, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK)
                       : -1;
    std::int32_t member = -1;
    if (fd < 0 || !read_all(fd, &member, sizeof member, deadline) || member <= 0 ||
        member >= size_ || peers_[static_cast<std::size_t>(member)].fd >= 0) {
      why = "only " + std::to_string(connected - 1) + " of " + std::to_string(size_ - 1) +
            " ranks connected to " + where + " within " + std::to_string(kSetupTimeout.count()) +
            " s";
      if (fd >= 0) close(fd);
      break;
    }
    peers_[static_cast<std::size_t>(member)].fd = fd;
  }
  if (listener >= 0) close(listener);
  return why;
}

// A member: connects to where rank 0 listens and names itself.
std::string ReportChannel::connect_to_leader(MPI_Comm comm) {
  std::string ignored;
  plugin::address_for_group(comm, &ignored);  // collective: rank 0's choice is the one that counts
  const std::string where = broadcast_string("", 0, comm);
  if (where.empty() || where[0] == '!') return "rank 0 could not listen: " + where.substr(1);
  const std::size_t colon = where.rfind(':');
  const sockaddr_in endpoint = ipv4(where.substr(0, colon), std::stoi(where.substr(colon + 1)));
  leader_fd_ = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (leader_fd_ < 0) return system_error("socket");
  const auto deadline = Clock::now() + kSetupTimeout;
  if (connect(leader_fd_, reinterpret_cast<const sockaddr*>(&endpoint), sizeof endpoint) != 0) {
    int error = errno;
    socklen_t length = sizeof error;
    if (error == EINPROGRESS && wait_for(leader_fd_, POLLOUT, deadline))
      getsockopt(leader_fd_, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0 && error != EINPROGRESS)
      return "connect to " + where + ": " + std::strerror(error);
    if (error == EINPROGRESS) return "connect to " + where + ": no answer within the setup time";
  }
  // Blocking from here: a report is a few dozen bytes, never more than the socket holds.
  fcntl(leader_fd_, F_SETFL, fcntl(leader_fd_, F_GETFL) & ~O_NONBLOCK);
  const std::int32_t me = rank_;
  if (!write_all(leader_fd_, &me, sizeof me)) return system_error(("send to " + where).c_str());
  return {};
}

bool ReportChannel::send(const void* message) {
  return leader_fd_ >= 0 && write_all(leader_fd_, message, message_bytes_);
}

bool ReportChannel::receive(void* message) {
  for (Peer& peer : peers_)
    if (peer.fd >= 0 && read_whole_message(peer, message)) return true;
  return false;
}

// Reads what has arrived from one member, without blocking; true with a whole message.
bool ReportChannel::read_whole_message(Peer& peer, void* message) {
  char buffer[256];
  while (peer.pending.size() < message_bytes_) {
    const std::size_t wanted = std::min(sizeof buffer, message_bytes_ - peer.pending.size());
    const ssize_t got = ::recv(peer.fd, buffer, wanted, 0);
    if (got < 0 && errno == EINTR) continue;
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EWOULDBLOCK)) {
      close(peer.fd);  // that rank's process is gone; its silence is how it is named
      peer.fd = -1;
      return false;
    }
    if (got < 0) return false;
    peer.pending.insert(peer.pending.end(), buffer, buffer + got);
  }
  std::memcpy(message, peer.pending.data(), message_bytes_);
  peer.pending.clear();
  return true;
}

}  // namespace harness

#include "tcp_links.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "harness/plugin/group_hosts.h"

namespace harness::plugins {
namespace {

using plugin::Status;

Status system_error(const std::string& what) {
  return Status::unavailable("ring (TCP): " + what + ": " + std::strerror(errno));
}

struct Endpoint {
  char address[16] = {0};
  std::uint16_t port = 0;
};

sockaddr_in socket_address(const char* address, std::uint16_t port) {
  sockaddr_in where{};
  where.sin_family = AF_INET;
  where.sin_port = htons(port);
  inet_pton(AF_INET, address, &where.sin_addr);
  return where;
}

// Blocking, whole: the connection set-up's few bytes.
bool write_all(int fd, const void* data, std::size_t bytes) {
  const auto* at = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::send(fd, at, bytes, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

bool read_all(int fd, void* data, std::size_t bytes) {
  auto* at = static_cast<char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::recv(fd, at, bytes, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    at += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

void tune(int fd) {
  const int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

}  // namespace

TcpLinks::~TcpLinks() {
  for (int fd : sockets_)
    if (fd >= 0) close(fd);
}

Status TcpLinks::connect(plugin::Bootstrap& group) {
  rank_ = group.rank();
  size_ = group.size();
  sockets_.assign(static_cast<std::size_t>(size_), -1);
  std::string why;
  address_ = plugin::address_for_group(group, &why);
  // Every rank goes through the same bootstrap calls whatever failed, so that none waits alone.
  Endpoint mine;
  std::string problem = address_.empty() ? why : "";
  const int listener = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (problem.empty() && listener >= 0) {
    sockaddr_in where = socket_address(address_.c_str(), 0);
    socklen_t length = sizeof where;
    if (bind(listener, reinterpret_cast<sockaddr*>(&where), sizeof where) != 0 ||
        listen(listener, size_) != 0 ||
        getsockname(listener, reinterpret_cast<sockaddr*>(&where), &length) != 0)
      problem = system_error("listen on " + address_).message();
    address_.copy(mine.address, sizeof mine.address - 1);
    mine.port = ntohs(where.sin_port);
  } else if (problem.empty()) {
    problem = system_error("socket").message();
  }
  std::vector<Endpoint> all(static_cast<std::size_t>(size_));
  Status gathered = group.allgather(&mine, all.data(), sizeof mine);
  if (gathered.is_ok() && plugin::on_any_rank(group, !problem.empty()))
    gathered = Status::unavailable(problem.empty() ? "ring (TCP): another rank could not listen"
                                                   : problem);
  if (!gathered.is_ok()) {
    if (listener >= 0) close(listener);
    return gathered;
  }
  // Connect to every lower rank (its backlog holds us until it accepts), then accept the higher.
  for (int peer = 0; peer < rank_ && problem.empty(); ++peer) {
    const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    const sockaddr_in where = socket_address(all[peer].address, all[peer].port);
    if (fd < 0 || ::connect(fd, reinterpret_cast<const sockaddr*>(&where), sizeof where) != 0 ||
        !write_all(fd, &rank_, sizeof rank_)) {
      problem = system_error("connect to rank " + std::to_string(peer) + " at " +
                             all[peer].address + ":" + std::to_string(all[peer].port))
                    .message();
      if (fd >= 0) close(fd);
      break;
    }
    sockets_[static_cast<std::size_t>(peer)] = fd;
  }
  for (int accepted = rank_ + 1; accepted < size_ && problem.empty(); ++accepted) {
    const int fd = accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
    int peer = -1;
    if (fd < 0 || !read_all(fd, &peer, sizeof peer) || peer <= rank_ || peer >= size_ ||
        sockets_[static_cast<std::size_t>(peer)] >= 0) {
      problem = system_error("accept a higher rank's connection").message();
      if (fd >= 0) close(fd);
      break;
    }
    sockets_[static_cast<std::size_t>(peer)] = fd;
  }
  close(listener);
  for (int fd : sockets_) {
    if (fd < 0) continue;
    tune(fd);
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  }
  if (plugin::on_any_rank(group, !problem.empty()))
    return Status::unavailable(problem.empty() ? "ring (TCP): another rank could not connect"
                                               : problem);
  return Status::ok();
}

// Every message leads with its length and, in the top byte, the element tag of a reduction, so
// that ranks whose calls disagree (another count, element size or type on one rank) fail with
// the two sizes instead of mixing one call's bytes into the next.
Status TcpLinks::exchange(int to, const void* send, std::size_t send_bytes, int from, void* receive,
                          std::size_t receive_bytes, std::size_t chunk_bytes,
                          const Progress& progress) {
  constexpr std::size_t kHeader = sizeof(std::uint64_t);
  constexpr int kTagShift = 56;  // lengths stay below 2^56 bytes
  const std::uint64_t tag = static_cast<std::uint64_t>(element_tag_) << kTagShift;
  const std::uint64_t expected = receive_bytes | tag;
  std::uint64_t header_out = send_bytes | tag, header_in = 0;
  const std::size_t sent_total = to < 0 ? 0 : kHeader + send_bytes;
  const std::size_t got_total = from < 0 ? 0 : kHeader + receive_bytes;
  const int out = to < 0 ? -1 : sockets_[static_cast<std::size_t>(to)];
  const int in = from < 0 ? -1 : sockets_[static_cast<std::size_t>(from)];
  const auto* send_at = static_cast<const char*>(send);
  auto* receive_at = static_cast<char*>(receive);
  std::size_t sent = 0, got = 0, reported = 0;
  const std::size_t step = std::max<std::size_t>(1, chunk_bytes);
  while (sent < sent_total || got < got_total) {
    pollfd watched[2];
    nfds_t count = 0;
    if (sent < sent_total) watched[count++] = {out, POLLOUT, 0};
    if (got < got_total) {
      if (count == 1 && watched[0].fd == in)
        watched[0].events |= POLLIN;
      else
        watched[count++] = {in, POLLIN, 0};
    }
    if (poll(watched, count, -1) < 0) {
      if (errno == EINTR) continue;
      return system_error("poll");
    }
    for (nfds_t i = 0; i < count; ++i) {
      if (watched[i].revents & (POLLERR | POLLNVAL))
        return Status::unavailable("ring (TCP): a peer's connection failed");
      if ((watched[i].revents & POLLOUT) && sent < sent_total) {
        ssize_t n;
        if (sent < kHeader) {  // the rest of the header, and the first data with it
          iovec parts[2] = {
              {reinterpret_cast<char*>(&header_out) + sent, kHeader - sent},
              {const_cast<char*>(send_at), std::min(step, send_bytes)}};
          msghdr message{};
          message.msg_iov = parts;
          message.msg_iovlen = 2;
          n = ::sendmsg(out, &message, MSG_NOSIGNAL | MSG_DONTWAIT);
        } else {
          n = ::send(out, send_at + (sent - kHeader), std::min(step, sent_total - sent),
                     MSG_NOSIGNAL | MSG_DONTWAIT);
        }
        if (n < 0 && errno != EAGAIN && errno != EINTR) return system_error("send");
        if (n > 0) sent += static_cast<std::size_t>(n);
      }
      if ((watched[i].revents & (POLLIN | POLLHUP)) && got < got_total) {
        const bool in_header = got < kHeader;
        const ssize_t n =
            in_header
                ? ::recv(in, reinterpret_cast<char*>(&header_in) + got, kHeader - got, MSG_DONTWAIT)
                : ::recv(in, receive_at + (got - kHeader), got_total - got, MSG_DONTWAIT);
        if (n == 0)
          return Status::unavailable("ring (TCP): rank " + std::to_string(from) +
                                     " closed its connection");
        if (n < 0 && errno != EAGAIN && errno != EINTR) return system_error("recv");
        if (n > 0) got += static_cast<std::size_t>(n);
        if (in_header && got >= kHeader && header_in != expected) {
          const std::uint64_t their_bytes = header_in & ((std::uint64_t{1} << kTagShift) - 1);
          const std::string types = (header_in >> kTagShift) == element_tag_
                                        ? ""
                                        : " of another element type than this rank's";
          return Status::invalid_argument(
              "ring (TCP): rank " + std::to_string(from) + " sent " + std::to_string(their_bytes) +
              " bytes" + types + " where this rank expected " + std::to_string(receive_bytes) +
              ": the ranks called the collective with different sizes or element types");
        }
      }
    }
    // Whole chunks to the caller as they complete (and the rest at the end).
    const std::size_t data_got = got > kHeader ? got - kHeader : 0;
    if (progress && (data_got - reported >= step ||
                     (got == got_total && data_got > reported))) {
      reported = got == got_total ? data_got : data_got / step * step;
      progress(reported);
    }
  }
  return Status::ok();
}

// From the root to each rank in turn: a ring plugin's broadcast is not its fast path.
Status TcpLinks::broadcast(void* data, std::size_t bytes, int root) {
  if (rank_ != root) return exchange(-1, nullptr, 0, root, data, bytes, bytes, nullptr);
  for (int peer = 0; peer < size_; ++peer) {
    if (peer == root) continue;
    if (Status s = exchange(peer, data, bytes, -1, nullptr, 0, bytes, nullptr); !s.is_ok())
      return s;
  }
  return Status::ok();
}

Status TcpLinks::barrier() {
  char token = 0, received = 0;
  for (int distance = 1; distance < size_; distance *= 2) {
    const int to = (rank_ + distance) % size_, from = (rank_ - distance + size_) % size_;
    if (Status s = exchange(to, &token, 1, from, &received, 1, 1, nullptr); !s.is_ok()) return s;
  }
  return Status::ok();
}

}  // namespace harness::plugins

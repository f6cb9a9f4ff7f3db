// The ring's links in a group without MPI (a PyTorch process group): a TCP connection between
// every pair of ranks, made at init through the group's bootstrap (each rank listens on an
// ephemeral port of the address its peers reach, group_hosts.h; the addresses are exchanged;
// each rank connects to the ranks below it and accepts the ranks above). An exchange moves both
// directions at once through non-blocking sockets, so that two ranks sending to each other never
// wait on each other's full buffers.
#pragma once

#include <string>
#include <vector>

#include "harness/plugin/bootstrap.h"
#include "peer_links.h"

namespace harness::plugins {

class TcpLinks final : public PeerLinks {
 public:
  TcpLinks() = default;
  ~TcpLinks() override;
  TcpLinks(const TcpLinks&) = delete;
  TcpLinks& operator=(const TcpLinks&) = delete;

  // Collective over the group.
  plugin::Status connect(plugin::Bootstrap& group);

  plugin::Status exchange(int to, const void* send, std::size_t send_bytes, int from, void* receive,
                          std::size_t receive_bytes, std::size_t chunk_bytes,
                          const Progress& progress) override;
  void set_element_tag(std::uint8_t tag) override { element_tag_ = tag; }
  // Dissemination barrier: log2(size) rounds of one byte.
  plugin::Status broadcast(void* data, std::size_t bytes, int root) override;
  plugin::Status barrier() override;
  std::string describe() const override { return "TCP (" + address_ + ")"; }

 private:
  int rank_ = 0, size_ = 1;
  std::string address_;
  std::vector<int> sockets_;  // by peer rank; -1 for this rank
  std::uint8_t element_tag_ = 0;  // in each header's top byte (set_element_tag)
};

}  // namespace harness::plugins

// Which of this host's addresses the other ranks of a group can reach, for anything that opens
// its own TCP connections beside MPI (gloo's transport, the host's watchdog). A host name says
// nothing about which of the host's addresses the other hosts can reach (on the test bed, and
// on clusters with a management and a data network, it resolves to the wrong one or to none),
// so the ranks exchange their IPv4 interface addresses and each picks one of its own on a
// subnet where every other rank has an address too. A group on one host uses loopback.
#pragma once

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <mpi.h>
#include <net/if.h>
#include <netinet/in.h>

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace harness::plugin {
namespace peer_address_detail {

constexpr int kMaxInterfaces = 16;

struct Interface {
  std::uint32_t address = 0;  // host byte order; 0 marks an unused slot
  std::uint32_t netmask = 0;
};
using Interfaces = std::array<Interface, kMaxInterfaces>;

// This host's IPv4 interfaces that are up, loopback excluded.
inline Interfaces local_interfaces() {
  Interfaces found{};
  ifaddrs* list = nullptr;
  if (getifaddrs(&list) != 0) return found;
  int count = 0;
  for (ifaddrs* entry = list; entry && count < kMaxInterfaces; entry = entry->ifa_next) {
    if (!entry->ifa_addr || !entry->ifa_netmask || entry->ifa_addr->sa_family != AF_INET) continue;
    if (!(entry->ifa_flags & IFF_UP) || (entry->ifa_flags & IFF_LOOPBACK)) continue;
    found[static_cast<std::size_t>(count++)] = {
        ntohl(reinterpret_cast<sockaddr_in*>(entry->ifa_addr)->sin_addr.s_addr),
        ntohl(reinterpret_cast<sockaddr_in*>(entry->ifa_netmask)->sin_addr.s_addr)};
  }
  freeifaddrs(list);
  return found;
}

inline bool has_address_in(const Interfaces& peer, const Interface& subnet) {
  for (const Interface& i : peer)
    if (i.address && (i.address & subnet.netmask) == (subnet.address & subnet.netmask)) return true;
  return false;
}

inline std::string dotted(std::uint32_t address) {
  in_addr raw{htonl(address)};
  char text[INET_ADDRSTRLEN] = {0};
  inet_ntop(AF_INET, &raw, text, sizeof text);
  return text;
}

}  // namespace peer_address_detail

// Collective over comm: how many of its ranks run on this host.
inline int ranks_on_this_host(MPI_Comm comm) {
  MPI_Comm node;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int node_size = 0;
  MPI_Comm_size(node, &node_size);
  MPI_Comm_free(&node);
  return node_size;
}

// Collective over comm: whether every rank of comm runs on this host.
inline bool whole_group_on_this_host(MPI_Comm comm) {
  int size = 0;
  MPI_Comm_size(comm, &size);
  int all_local = ranks_on_this_host(comm) == size ? 1 : 0, everywhere = 0;
  MPI_Allreduce(&all_local, &everywhere, 1, MPI_INT, MPI_MIN, comm);
  return everywhere == 1;
}

// Collective over comm. The chosen dotted address, or "" with the reason in *why.
inline std::string address_reaching_every_peer(MPI_Comm comm, std::string* why) {
  using namespace peer_address_detail;
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const Interfaces mine = local_interfaces();
  std::vector<Interfaces> all(static_cast<std::size_t>(size));
  MPI_Allgather(mine.data(), static_cast<int>(sizeof mine), MPI_BYTE, all.data(),
                static_cast<int>(sizeof mine), MPI_BYTE, comm);
  for (const Interface& candidate : mine) {
    if (!candidate.address) continue;
    bool reaches_all = true;
    for (int peer = 0; peer < size && reaches_all; ++peer)
      reaches_all = peer == rank || has_address_in(all[static_cast<std::size_t>(peer)], candidate);
    if (reaches_all) return dotted(candidate.address);
  }
  *why = "no IPv4 interface of this host shares a subnet with every other rank's host";
  return {};
}

// Collective over comm: where a rank of comm should listen for the others — loopback when the
// whole group is on this host, else an address every peer reaches; "" with *why when none.
constexpr const char* kLoopback = "127.0.0.1";
inline std::string address_for_group(MPI_Comm comm, std::string* why) {
  if (whole_group_on_this_host(comm)) return kLoopback;
  return address_reaching_every_peer(comm, why);
}

}  // namespace harness::plugin

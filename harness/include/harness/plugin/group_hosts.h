// Where a group's ranks run, learnt through its bootstrap (bootstrap.h), so that a plugin can
// tell without MPI whether the group is on one host and which of this host's addresses its
// peers reach (peer_address.h answers the same over an MPI communicator).
#pragma once

#include <unistd.h>

#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "harness/plugin/bootstrap.h"
#include "harness/plugin/peer_address.h"

namespace harness::plugin {

// A host is a host name on one boot of one kernel (Open MPI, too, tells hosts apart by name).
inline std::string host_identity() {
  char name[64] = {0};
  gethostname(name, sizeof name - 1);
  std::string boot;
  std::ifstream("/proc/sys/kernel/random/boot_id") >> boot;
  return std::string(name) + "/" + boot;
}

// Collective: whether every rank of the group runs on this host (the same answer everywhere).
inline Status whole_group_on_one_host(Bootstrap& group, bool* one_host) {
  constexpr std::size_t kIdentityBytes = 128;
  char mine[kIdentityBytes] = {0};
  host_identity().copy(mine, kIdentityBytes - 1);
  std::vector<char> all(kIdentityBytes * static_cast<std::size_t>(group.size()));
  if (Status s = group.allgather(mine, all.data(), kIdentityBytes); !s.is_ok()) return s;
  bool here = true;
  for (int r = 0; r < group.size(); ++r)
    here = here && std::memcmp(mine, all.data() + kIdentityBytes * static_cast<std::size_t>(r),
                               kIdentityBytes) == 0;
  *one_host = !on_any_rank(group, !here);
  return Status::ok();
}

// Collective: where a rank should listen for the others — loopback when the whole group is on
// this host, else an address on a subnet every peer has an address in; "" with *why when none.
inline std::string address_for_group(Bootstrap& group, std::string* why) {
  using namespace peer_address_detail;
  bool one_host = false;
  if (Status s = whole_group_on_one_host(group, &one_host); !s.is_ok()) {
    *why = s.message();
    return {};
  }
  if (one_host) return kLoopback;
  const Interfaces mine = local_interfaces();
  std::vector<Interfaces> all(static_cast<std::size_t>(group.size()));
  if (Status s = group.allgather(&mine, all.data(), sizeof mine); !s.is_ok()) {
    *why = s.message();
    return {};
  }
  for (const Interface& candidate : mine) {
    if (!candidate.address) continue;
    bool reaches_all = true;
    for (int peer = 0; peer < group.size() && reaches_all; ++peer)
      reaches_all =
          peer == group.rank() || has_address_in(all[static_cast<std::size_t>(peer)], candidate);
    if (reaches_all) return dotted(candidate.address);
  }
  *why = "no IPv4 interface of this host shares a subnet with every other rank's host";
  return {};
}

}  // namespace harness::plugin

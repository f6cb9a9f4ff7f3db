#include "hierarchical_communicator.h"

#include <algorithm>
#include <cstring>
#include <vector>

#include "harness/plugin/group_hosts.h"

namespace harness::torch_binding {

HierarchicalCommunicator::HierarchicalCommunicator(
    HierarchicalParams params, std::shared_ptr<plugin::Communicator> intra,
    std::shared_ptr<plugin::Communicator> inter, std::shared_ptr<plugin::Communicator> whole,
    SubgroupBootstrap subgroup_bootstrap)
    : params_(std::move(params)),
      subgroup_bootstrap_(std::move(subgroup_bootstrap)),
      intra_(std::move(intra)),
      inter_(std::move(inter)),
      whole_(std::move(whole)) {}

// The levels go before the bootstraps they joined through.
HierarchicalCommunicator::~HierarchicalCommunicator() {
  two_level_.reset();
  intra_.reset();
  inter_.reset();
  whole_.reset();
}

plugin::Status HierarchicalCommunicator::find_hosts(plugin::Bootstrap& group) {
  constexpr std::size_t kIdentityBytes = 128;
  char mine[kIdentityBytes] = {0};
  plugin::host_identity().copy(mine, kIdentityBytes - 1);
  const auto size = static_cast<std::size_t>(group.size());
  std::vector<char> all(kIdentityBytes * size);
  if (plugin::Status s = group.allgather(mine, all.data(), kIdentityBytes); !s.is_ok()) return s;
  std::vector<std::string> hosts;  // in the order of their first ranks
  std::vector<int> ranks_on;       // per host
  for (std::size_t r = 0; r < size; ++r) {
    const std::string identity(all.data() + kIdentityBytes * r);
    const auto found = std::find(hosts.begin(), hosts.end(), identity);
    const auto index = static_cast<std::size_t>(found - hosts.begin());
    if (found == hosts.end()) {
      hosts.push_back(identity);
      ranks_on.push_back(0);
    }
    if (static_cast<int>(r) == group.rank()) {
      host_ = static_cast<int>(index);
      local_rank_ = ranks_on[index];
    }
    ++ranks_on[index];
  }
  hosts_ = static_cast<int>(hosts.size());
  local_size_ = ranks_on[static_cast<std::size_t>(host_)];
  const auto [fewest, most] = std::minmax_element(ranks_on.begin(), ranks_on.end());
  if (*fewest != *most)
    return plugin::Status::unsupported("hierarchical: the hosts hold " + std::to_string(*fewest) +
                                       " to " + std::to_string(*most) +
                                       " ranks of the group; it needs the same number on each");
  return plugin::Status::ok();
}

plugin::Status HierarchicalCommunicator::join_level(plugin::Communicator& level,
                                                    const plugin::GroupInit& init,
                                                    plugin::Bootstrap& group,
                                                    const std::string& name) {
  const plugin::Status joined = level.init(init);
  if (!plugin::on_any_rank(group, !joined.is_ok())) return plugin::Status::ok();
  if (joined.is_ok())
    return plugin::Status::unavailable("hierarchical: " + name + " failed on another rank");
  return with_level_prefix(joined, name + ": ");
}

plugin::Status HierarchicalCommunicator::init(const plugin::GroupInit& group) noexcept {
  try {
    plugin::Bootstrap& everyone = *group.bootstrap;
    if (plugin::Status s = find_hosts(everyone); !s.is_ok()) return s;
    host_bootstrap_ = subgroup_bootstrap_("host" + std::to_string(host_), local_rank_, local_size_);
    across_bootstrap_ =
        subgroup_bootstrap_("across" + std::to_string(local_rank_), host_, hosts_);
    const plugin::GroupInit within{group.comm, local_rank_, local_size_, local_rank_,
                                   host_bootstrap_.get()};
    // The whole group's level joins through a scope of its own too: the group's bootstrap
    // keeps its calls, and so its keys, for the agreements between the levels.
    whole_bootstrap_ = subgroup_bootstrap_("whole", group.rank, group.size);
    const plugin::GroupInit across{group.comm, host_, hosts_, 0, across_bootstrap_.get()};
    const plugin::GroupInit whole{group.comm, group.rank, group.size, group.local_rank,
                                  whole_bootstrap_.get()};
    if (plugin::Status s = join_level(*intra_, within, everyone, params_.intra + " (within the host)");
        !s.is_ok())
      return s;
    if (plugin::Status s = join_level(*inter_, across, everyone, params_.inter + " (across hosts)");
        !s.is_ok())
      return s;
    if (plugin::Status s = join_level(*whole_, whole, everyone, params_.inter + " (the whole group)");
        !s.is_ok())
      return s;
    two_level_ = std::make_unique<TwoLevelAllreduce>(
        Levels{intra_.get(), inter_.get(), local_rank_, local_size_, group.size});
    return plugin::Status::ok();
  } catch (const std::exception& e) {
    return plugin::Status::internal(std::string("hierarchical: ") + e.what());
  }
}

std::string HierarchicalCommunicator::describe() const {
  return params_.intra + " within hosts (" + intra_->describe() + "; by " +
         (two_level_ ? two_level_->within_hosts() : std::string("allreduce")) + "), " +
         params_.inter + " across " + std::to_string(hosts_) + " hosts (" + inter_->describe() +
         ")";
}

}  // namespace harness::torch_binding

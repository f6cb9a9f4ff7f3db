// The "hierarchical" backend: a composition of two plugins, as NCCL and Horovod split an
// allreduce by level. Within each host the intra backend (shm by default) sums the buffer;
// across hosts the inter backend (mpi, gloo, ring, ...) sums one slice of it per local rank
// among the ranks with the same local rank; within each host the slices are shared again.
//   "backend": "hierarchical",
//   "backend_params": {"inter": "gloo", "inter_params": {...}, "intra": "shm", "intra_params": {}}
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/communicator.h"

namespace harness {

inline constexpr const char* kHierarchicalBackend = "hierarchical";

struct HierarchicalParams {
  std::string intra = "shm";
  Json intra_params = Json::object();
  std::string inter;
  Json inter_params = Json::object();
};

// Throws std::invalid_argument naming the field: unknown keys, a missing inter, wrong types,
// a nested hierarchical.
HierarchicalParams parse_hierarchical_params(const Json& params);

// The communicator plugins a backend setting loads: itself, or for hierarchical both its
// levels; throws std::invalid_argument as parse_hierarchical_params does.
std::vector<std::string> communicator_plugins(const std::string& backend, const Json& params);

// Takes the two (not yet initialised) communicators; init() splits the group by host and by
// local rank and initialises each on its level. A group whose hosts hold different numbers
// of ranks is declined (unsupported).
std::shared_ptr<plugin::Communicator> make_hierarchical(std::shared_ptr<plugin::Communicator> intra,
                                                        std::shared_ptr<plugin::Communicator> inter,
                                                        const HierarchicalParams& params);

}  // namespace harness

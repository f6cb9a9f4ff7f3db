// The parameters of the "hierarchical" backend (backend_params in an experiment file,
// HARNESS_BACKEND_PARAMS inside PyTorch), declared once:
//   {"inter": "ring", "inter_params": {...}, "intra": "shm", "intra_params": {...}}
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/status.h"

namespace harness {

struct HierarchicalParams {
  std::string intra = "shm";
  Json intra_params = Json::object();
  std::string inter;
  Json inter_params = Json::object();
};

// Throws std::invalid_argument naming the field: unknown keys, a missing inter, wrong types.
HierarchicalParams parse_hierarchical_params(const Json& params);

// A level's status with the level named first ("ring (across hosts): ...").
plugin::Status with_level_prefix(const plugin::Status& status, const std::string& prefix);

}  // namespace harness

// Backends the harness composes from communicator plugins instead of loading one (the
// hierarchical backend, trial/hierarchical_backend.h). A trial names one in "backend" like any
// plugin; joining (trial/backend_join.h), validation (trial/plugin_validation.h) and the list of
// plugins a trial needs look it up here first, and treat every composed backend alike.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/communicator.h"

namespace harness {

// One level of a composition: the communicator plugin it loads with its parameters, and the
// field of backend_params that names them (for messages: "intra").
struct ComposedLevel {
  std::string field;
  std::string plugin;
  Json params = Json::object();
};

// A composed backend's communicator: a plugin::Communicator that also says, once initialised,
// how its level within hosts runs (the record's backend.within_hosts).
class ComposedCommunicator : public plugin::Communicator {
 public:
  virtual std::string within_hosts() const = 0;
};

struct ComposedBackend {
  std::string name;
  // Its levels from backend_params, in the order compose() takes them; throws
  // std::invalid_argument naming the field ("/inter: ...").
  std::vector<ComposedLevel> (*levels)(const Json& params);
  // The communicator over the levels' (not yet initialised) communicators.
  std::shared_ptr<ComposedCommunicator> (*compose)(
      std::vector<std::shared_ptr<plugin::Communicator>> levels, const Json& params);
};

// The composed backend of this name, or nullptr for a plugin's name.
const ComposedBackend* find_composed_backend(const std::string& name);

// The levels, refusing a level that is itself composed (std::invalid_argument).
std::vector<ComposedLevel> composed_levels(const ComposedBackend& backend, const Json& params);

// The communicator plugins a backend setting loads: itself, or a composed backend's levels;
// throws std::invalid_argument as composed_levels does.
std::vector<std::string> communicator_plugins(const std::string& backend, const Json& params);

// A level's label in results: "gloo:ring" for gloo with params.algorithm "ring", "shm" for shm.
std::string level_label(const ComposedLevel& level);

}  // namespace harness

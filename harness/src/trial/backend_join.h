// Joining a trial's group to its communicator backend, the same way for every kind:
// a pre-flight every rank can judge alone (found, available, CUDA, element type), then the
// plugin's collective init, each followed by an agreement so that all ranks leave together.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "common/json.h"
#include "harness/plugin/communicator.h"
#include "loader/plugin_registry.h"
#include "record/record_parts.h"
#include "spec/plugin_join.h"
#include "trial/group_agreement.h"
#include "trial/trial_context.h"

namespace harness {

struct JoinedBackend {
  const PluginHandle* plugin = nullptr;  // composed: its outermost level (across hosts)
  std::string name, version;             // as recorded
  std::shared_ptr<plugin::Communicator> communicator;
  std::vector<std::string> levels;  // composed: each level's label, innermost first
  std::optional<std::string> within_hosts;  // composed: how its level within hosts runs
  bool on_cuda = false;  // the backend reduces device buffers
  GroupProblem problem;  // any(): the trial cannot run (the same on every rank)
};

// Why a trial cannot run on the backend plugin `name`: not built here (skipped) or not found
// on this rank (failed), unavailable, CUDA needed but absent, or an element type it does not
// support.
GroupProblem backend_problem(const PluginRegistry& plugins, const std::string& name,
                             bool cuda_available, plugin::DType dtype);

// Collective over context.comm. `join`: what the plugin is given to join (spec/plugin_join.h);
// a composition of the harness's (hierarchical) splits its group with MPI and always joins so.
JoinedBackend join_backend(const TrialContext& context, const std::string& backend,
                           const Json& params, plugin::DType dtype, bool cuda_available,
                           PluginJoin join = PluginJoin::kMpi);

// The record's "backend" object: name, version and the plugin's own description.
BackendRecord describe_backend(const JoinedBackend& backend);

}  // namespace harness

// Validation checks on plugin names and parameters, shared by the trial kinds.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/version.h"
#include "loader/plugin_registry.h"
#include "trial/validation_context.h"

namespace harness {

// The plugin named `name`, or nullptr after reporting it at `field` with a suggestion, the
// plugins available and the folders searched.
const PluginHandle* find_plugin_or_report(ValidationContext& context, plugin::PluginKind kind,
                                          const std::string& field, const std::string& name);

// The backend exists and accepts its parameters (created once per configuration); returns
// the communicators it runs (a hierarchical backend's two levels), each to be held to the
// same rules as that backend alone, or none when one was not found.
std::vector<const PluginHandle*> check_backend(ValidationContext& context,
                                               const std::string& backend, const Json& params);

}  // namespace harness

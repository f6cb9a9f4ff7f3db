// Validation checks on plugin names and parameters, shared by the trial kinds.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "harness/plugin/types.h"
#include "harness/plugin/version.h"
#include "loader/plugin_registry.h"
#include "spec/train_settings.h"
#include "trial/validation_context.h"

namespace harness {

// The plugin named `name`, or nullptr after reporting it at `field` with a suggestion, the
// plugins available and the folders searched; nullptr unreported for a plugin this build left
// out (PluginRegistry::not_built_reason), whose trials are skipped when they run.
const PluginHandle* find_plugin_or_report(ValidationContext& context, plugin::PluginKind kind,
                                          const std::string& field, const std::string& name);

// The backend exists and accepts its parameters (created once per configuration); returns
// the communicators it runs (a hierarchical backend's two levels), each to be held to the
// same rules as that backend alone, or none when one was not found or not built.
std::vector<const PluginHandle*> check_backend(ValidationContext& context,
                                               const std::string& backend, const Json& params);

// Reports at `field` each communicator (a composition's levels each as if it ran alone) that
// does not list `wire` among its element types: "...; <remedy> or a backend that lists <wire>".
void check_reduces(ValidationContext& context, const std::string& field,
                   const std::vector<const PluginHandle*>& communicators, plugin::DType wire,
                   const std::string& remedy);

// Compressed gradients are reduced in the narrow type, so each communicator must list it (a
// composition's levels each as if it ran alone); reported at "compression".
void check_compression(ValidationContext& context,
                       const std::vector<const PluginHandle*>& communicators,
                       Compression compression);

// What a backend offers: a composed backend allreduces and broadcasts (it runs the other
// collectives of none of its levels); a plugin lists its collectives in its capabilities.
std::vector<plugin::Collective> offered_collectives(
    const std::string& backend, const std::vector<const PluginHandle*>& communicators);

// Reports at `field` that backend "X" does not support a collective of `needed` (it offers
// ...), `why` appended; nothing when it offers them all or no communicator was found.
void check_offered(ValidationContext& context, const std::string& field,
                   const std::string& backend,
                   const std::vector<const PluginHandle*>& communicators,
                   const std::vector<plugin::Collective>& needed, const std::string& why = "");

}  // namespace harness

// model_params "attributes": values for a scripted module's own attributes (a noise level, a
// margin), set after loading so one exported file serves a sweep. Only int, float and bool
// attributes the module already has, with a value of the same type.
#pragma once

#include <torch/script.h>
#include <nlohmann/json.hpp>

namespace harness::plugins {

// Throws std::invalid_argument naming "/attributes/NAME" and what was expected.
void set_module_attributes(torch::jit::Module& module, const nlohmann::json& attributes);

}  // namespace harness::plugins

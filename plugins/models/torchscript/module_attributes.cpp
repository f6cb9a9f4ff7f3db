#include "module_attributes.h"

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace harness::plugins {
namespace {

// The module's settable attributes, for the error message.
std::string settable_attributes(const torch::jit::Module& module) {
  std::string names;
  for (const auto& attribute : module.named_attributes(/*recurse=*/false)) {
    const auto& value = attribute.value;
    if ((value.isInt() || value.isDouble() || value.isBool()) && attribute.name != "training")
      names += (names.empty() ? "" : ", ") + attribute.name;
  }
  return names.empty() ? "none" : names;
}

// TorchScript's int is 64-bit signed: a larger JSON integer would wrap around.
bool fits_int64(const nlohmann::json& value) {
  return !value.is_number_unsigned() ||
         value.get<std::uint64_t>() <=
             static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
}

c10::IValue typed_value(const c10::IValue& current, const nlohmann::json& value,
                        const std::string& pointer) {
  if (current.isBool() && value.is_boolean()) return value.get<bool>();
  if (current.isInt() && value.is_number_integer()) {
    if (!fits_int64(value))
      throw std::invalid_argument(pointer + ": " + value.dump() +
                                  " does not fit the attribute's type (TorchScript int, at most " +
                                  std::to_string(std::numeric_limits<std::int64_t>::max()) + ")");
    return value.get<std::int64_t>();
  }
  if (current.isDouble() && value.is_number()) return value.get<double>();
  const char* type = current.isBool() ? "a boolean" : current.isInt() ? "an integer" : "a number";
  throw std::invalid_argument(pointer + ": expected " + std::string(type) +
                              " (the attribute's type in the module), got " + value.dump());
}

}  // namespace

void set_module_attributes(torch::jit::Module& module, const nlohmann::json& attributes) {
  if (!attributes.is_object())
    throw std::invalid_argument("/attributes: expected an object of attribute values, got " +
                                attributes.dump());
  for (const auto& [name, value] : attributes.items()) {
    const std::string pointer = "/attributes/" + name;
    // The harness switches training and evaluation mode itself, per phase.
    if (name == "training")
      throw std::invalid_argument(pointer +
                                  ": the harness owns it (it sets training mode for training and "
                                  "evaluation mode for scoring); set only the module's own "
                                  "attributes (settable: " + settable_attributes(module) + ")");
    if (!module.hasattr(name))
      throw std::invalid_argument(pointer + ": the module has no such attribute (settable: " +
                                  settable_attributes(module) + ")");
    const c10::IValue current = module.attr(name);
    if (!current.isInt() && !current.isDouble() && !current.isBool())
      throw std::invalid_argument(pointer + ": only int, float and bool attributes can be set (" +
                                  "this one is " + current.tagKind() + ")");
    module.setattr(name, typed_value(current, value, pointer));
  }
}

}  // namespace harness::plugins

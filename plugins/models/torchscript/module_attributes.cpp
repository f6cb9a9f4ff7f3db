#include "module_attributes.h"

#include <stdexcept>
#include <string>

namespace harness::plugins {
namespace {

// The module's settable attributes, for the error message.
std::string settable_attributes(const torch::jit::Module& module) {
  std::string names;
  for (const auto& attribute : module.named_attributes(/*recurse=*/false)) {
    const auto& value = attribute.value;
    if (value.isInt() || value.isDouble() || value.isBool())
      names += (names.empty() ? "" : ", ") + attribute.name;
  }
  return names.empty() ? "none" : names;
}

c10::IValue typed_value(const c10::IValue& current, const nlohmann::json& value,
                        const std::string& pointer) {
  if (current.isBool() && value.is_boolean()) return value.get<bool>();
  if (current.isInt() && value.is_number_integer()) return value.get<std::int64_t>();
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

// Macros that export a plugin class through the versioned C entry points.
//
// A model plugin class needs:
//   static constexpr const char* kName, kVersion, kDescription;
//   static ModelCapabilities capabilities();
//   explicit Class(const nlohmann::json& params);   // throws std::invalid_argument on bad params
// A communicator plugin class needs the same with CommunicatorCapabilities.
//
// The host passes params as a JSON object text; it also injects the fields the host owns
// (for models: "input_dim", and "window" for sequence models).
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>

#include "harness/plugin/status.h"
#include "harness/plugin/version.h"

#define HARNESS_PLUGIN_EXPORT __attribute__((visibility("default")))

namespace harness::plugin::detail {

template <class Class, class Interface>
Interface* create_guarded(const char* params_json, Status* status) noexcept {
  Interface* created = nullptr;
  Status result = guarded([&] {
    auto params = nlohmann::json::parse(params_json ? params_json : "{}");
    if (!params.is_object()) return Status::invalid_argument("parameters must be a JSON object");
    try {
      created = new Class(params);
    } catch (const nlohmann::json::exception& e) {
      return Status::invalid_argument(e.what());
    } catch (const std::invalid_argument& e) {
      return Status::invalid_argument(e.what());
    }
    return Status::ok();
  });
  if (status) *status = result;
  return created;
}

template <class Capabilities, class Class>
void capabilities_guarded(Capabilities* out) noexcept {
  try {
    *out = Class::capabilities();
  } catch (...) {
    *out = Capabilities{};
  }
}

}  // namespace harness::plugin::detail

#define HARNESS_PLUGIN_INFO_(Class, Kind)                                           \
  extern "C" HARNESS_PLUGIN_EXPORT const ::harness::plugin::PluginInfo*             \
  harness_plugin_info_v1() noexcept {                                               \
    static const ::harness::plugin::PluginInfo info{::harness::plugin::kApiVersion, \
                                                    ::harness::plugin::kBuildId,    \
                                                    Class::kName,                   \
                                                    Kind,                           \
                                                    Class::kVersion,                \
                                                    Class::kDescription};           \
    return &info;                                                                   \
  }

#define HARNESS_REGISTER_MODEL(Class)                                                              \
  HARNESS_PLUGIN_INFO_(Class, ::harness::plugin::PluginKind::kModel)                               \
  extern "C" HARNESS_PLUGIN_EXPORT ::harness::plugin::Model* HARNESS_PLUGIN_SYMBOL(harness_create_model)( \
      const char* params_json, ::harness::plugin::Status* status) noexcept {                       \
    return ::harness::plugin::detail::create_guarded<Class, ::harness::plugin::Model>(params_json, \
                                                                                      status);     \
  }                                                                                                \
  extern "C" HARNESS_PLUGIN_EXPORT void HARNESS_PLUGIN_SYMBOL(harness_model_capabilities)(        \
      ::harness::plugin::ModelCapabilities* out) noexcept {                                        \
    ::harness::plugin::detail::capabilities_guarded<::harness::plugin::ModelCapabilities, Class>(  \
        out);                                                                                      \
  }

#define HARNESS_REGISTER_COMMUNICATOR(Class)                                                     \
  HARNESS_PLUGIN_INFO_(Class, ::harness::plugin::PluginKind::kCommunicator)                      \
  extern "C" HARNESS_PLUGIN_EXPORT ::harness::plugin::Communicator*                              \
  HARNESS_PLUGIN_SYMBOL(harness_create_communicator)(const char* params_json,                     \
                                 ::harness::plugin::Status* status) noexcept {                   \
    return ::harness::plugin::detail::create_guarded<Class, ::harness::plugin::Communicator>(    \
        params_json, status);                                                                    \
  }                                                                                              \
  extern "C" HARNESS_PLUGIN_EXPORT void HARNESS_PLUGIN_SYMBOL(harness_communicator_capabilities)( \
      ::harness::plugin::CommunicatorCapabilities* out) noexcept {                               \
    ::harness::plugin::detail::capabilities_guarded<::harness::plugin::CommunicatorCapabilities, \
                                                    Class>(out);                                 \
  }

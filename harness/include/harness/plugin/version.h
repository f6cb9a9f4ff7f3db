// API version and build id: the two values a plugin and the host must agree on.
#pragma once

#include <cstdint>

namespace harness::plugin {

// Bump when any header in harness/plugin/ changes in a way that breaks binary compatibility.
inline constexpr std::uint32_t kApiVersion = 3;

#ifndef HARNESS_BUILD_ID
#define HARNESS_BUILD_ID "unversioned"
#endif
#define HARNESS_PLUGIN_STR_(x) #x
#define HARNESS_PLUGIN_STR(x) HARNESS_PLUGIN_STR_(x)

// Compiler, project version and the libstdc++ ABI flag: C++ objects (std::string, tensors)
// cross the boundary, so both sides must be built alike.
inline constexpr const char* kBuildId =
    HARNESS_BUILD_ID "/cxx11abi=" HARNESS_PLUGIN_STR(_GLIBCXX_USE_CXX11_ABI);

enum class PluginKind : std::uint32_t { kModel = 1, kCommunicator = 2 };

inline const char* plugin_kind_name(PluginKind kind) noexcept {
  return kind == PluginKind::kModel ? "model" : "communicator";
}

// What harness_plugin_info_v1() returns. Plain data so it can be read before anything else
// about the plugin is trusted.
struct PluginInfo {
  std::uint32_t api_version;
  const char* build_id;
  const char* name;
  PluginKind kind;
  const char* version;
  const char* description;
};

// Exported symbol names, versioned so that a future v2 host can still look for v1.
inline constexpr const char* kInfoSymbol = "harness_plugin_info_v1";
inline constexpr const char* kCreateModelSymbol = "harness_create_model_v1";
inline constexpr const char* kModelCapabilitiesSymbol = "harness_model_capabilities_v1";
inline constexpr const char* kCreateCommunicatorSymbol = "harness_create_communicator_v1";
inline constexpr const char* kCommunicatorCapabilitiesSymbol =
    "harness_communicator_capabilities_v1";

}  // namespace harness::plugin

// API version and build id: the two values a plugin and the host must agree on.
#pragma once

#include <cstdint>

namespace harness::plugin {

// The API of these headers and of the host built with them; bump when any header in
// harness/plugin/ changes in a way that breaks binary compatibility.
#define HARNESS_PLUGIN_API_NEWEST 5
// The oldest API whose plugins this host still loads. API 4 appended the collectives
// (communicator.h); a plugin of API 3 offers allreduce and broadcast, as before. API 5 appended
// GroupInit::bootstrap (bootstrap.h), which the host of API 5 sets for plugins of every API.
#define HARNESS_PLUGIN_API_OLDEST 3

// A plugin is built for an older API the host still loads by defining HARNESS_PLUGIN_API_VERSION
// before including these headers (or with -DHARNESS_PLUGIN_API_VERSION=3): the registration
// macros (register.h) then export that version's entry points, and the structs that cross the
// boundary (CommunicatorCapabilities) take that version's layout.
#ifndef HARNESS_PLUGIN_API_VERSION
#define HARNESS_PLUGIN_API_VERSION HARNESS_PLUGIN_API_NEWEST
#endif
#if HARNESS_PLUGIN_API_VERSION < HARNESS_PLUGIN_API_OLDEST || \
    HARNESS_PLUGIN_API_VERSION > HARNESS_PLUGIN_API_NEWEST
#error "HARNESS_PLUGIN_API_VERSION: these headers build plugins for the APIs from HARNESS_PLUGIN_API_OLDEST to HARNESS_PLUGIN_API_NEWEST only"
#endif
inline constexpr std::uint32_t kApiVersion = HARNESS_PLUGIN_API_VERSION;
inline constexpr std::uint32_t kOldestApiVersion = HARNESS_PLUGIN_API_OLDEST;

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
// about the plugin is trusted. Its layout is version 1 of the entry point and never changes:
// every plugin, whatever API it was built for, exports it under that name, so that the host
// can read a plugin's api_version and refuse it by name rather than not find it.
struct PluginInfo {
  std::uint32_t api_version;
  const char* build_id;
  const char* name;
  PluginKind kind;
  const char* version;
  const char* description;
};

// The factories' exported names carry the API version they were built for
// (harness_create_model_v3): a host of another API finds none of them, never a mismatch.
#define HARNESS_PLUGIN_SYMBOL_(name, version) name##_v##version
#define HARNESS_PLUGIN_SYMBOL_AT_(name, version) HARNESS_PLUGIN_SYMBOL_(name, version)
#define HARNESS_PLUGIN_SYMBOL(name) HARNESS_PLUGIN_SYMBOL_AT_(name, HARNESS_PLUGIN_API_VERSION)

inline constexpr const char* kInfoSymbol = "harness_plugin_info_v1";
inline constexpr const char* kCreateModelSymbol =
    HARNESS_PLUGIN_STR(HARNESS_PLUGIN_SYMBOL(harness_create_model));
inline constexpr const char* kModelCapabilitiesSymbol =
    HARNESS_PLUGIN_STR(HARNESS_PLUGIN_SYMBOL(harness_model_capabilities));
inline constexpr const char* kCreateCommunicatorSymbol =
    HARNESS_PLUGIN_STR(HARNESS_PLUGIN_SYMBOL(harness_create_communicator));
inline constexpr const char* kCommunicatorCapabilitiesSymbol =
    HARNESS_PLUGIN_STR(HARNESS_PLUGIN_SYMBOL(harness_communicator_capabilities));

}  // namespace harness::plugin

// A plugin built "elsewhere": right API version, different build id.
#include "harness/plugin/register.h"

extern "C" HARNESS_PLUGIN_EXPORT const harness::plugin::PluginInfo*
harness_plugin_info_v1() noexcept {
  static const harness::plugin::PluginInfo info{harness::plugin::kApiVersion,
                                                "0.0.0/OtherCompiler-1.0/cxx11abi=0",
                                                "wrong_build",
                                                harness::plugin::PluginKind::kCommunicator,
                                                "0.0.1",
                                                "test plugin with a foreign build id"};
  return &info;
}

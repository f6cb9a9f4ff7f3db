// A plugin that claims a future API version; the loader must refuse it naming both versions.
#include "harness/plugin/register.h"

extern "C" HARNESS_PLUGIN_EXPORT const harness::plugin::PluginInfo*
harness_plugin_info_v1() noexcept {
  static const harness::plugin::PluginInfo info{
      999,         harness::plugin::kBuildId,
      "wrong_api", harness::plugin::PluginKind::kCommunicator,
      "0.0.1",     "test plugin with API version 999"};
  return &info;
}

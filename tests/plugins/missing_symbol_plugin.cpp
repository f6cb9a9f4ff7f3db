// A model plugin whose info is fine but which forgot to export its factory (harness_create_model_v<API>).
#include "harness/plugin/register.h"

extern "C" HARNESS_PLUGIN_EXPORT const harness::plugin::PluginInfo*
harness_plugin_info_v1() noexcept {
  static const harness::plugin::PluginInfo info{harness::plugin::kApiVersion,
                                                harness::plugin::kBuildId,
                                                "missing_symbol",
                                                harness::plugin::PluginKind::kModel,
                                                "0.0.1",
                                                "test plugin without a create symbol"};
  return &info;
}

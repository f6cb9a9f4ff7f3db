#include "spec/quiet_gate_settings.h"

namespace harness {

const SettingsTable<QuietGateSettings>& quiet_gate_settings_table() {
  using S = QuietGateSettings;
  static const auto table =
      SettingsTable<S>()
          .add("quiet_slowdown", &S::max_slowdown,
               "measure only while every rank's speed canary runs within this factor of the "
               "fastest it has read (after a spell: within half of it); readings before and "
               "after each measurement, recorded",
               {1, 100})
          .add("quiet_wait_s", &S::wait_s,
               "seconds a trial may spend waiting for a quiet machine and measuring again after "
               "a slow spell (0: read the canary, never wait); a measurement left unquiet is "
               "noisy",
               {0, 86400});
  return table;
}

}  // namespace harness

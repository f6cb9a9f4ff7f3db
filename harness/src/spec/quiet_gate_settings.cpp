#include "spec/quiet_gate_settings.h"

#include <limits>

namespace harness {

Schema with_quiet_gate(Schema own) {
  using T = FieldType;
  // clang-format off
  const Schema gate = {
      {"quiet_slowdown", T::kNumber, 1.25, 1, 100, false, {},
       "measure only while every rank's speed canary runs within this factor of the "
       "fastest it has read (after a spell: within half of it); readings before and after "
       "each measurement, recorded"},
      {"quiet_wait_s", T::kNumber, 2.0, 0, 86400, false, {},
       "seconds a trial may spend waiting for a quiet machine and measuring again after a "
       "slow spell (0: read the canary, never wait); a measurement left unquiet is noisy"},
  };
  // clang-format on
  own.insert(own.end(), gate.begin(), gate.end());
  return own;
}

QuietGateSettings parse_quiet_gate_settings(const Json& s) {
  return {s.at("quiet_slowdown").get<double>(), s.at("quiet_wait_s").get<double>()};
}

}  // namespace harness

// The quiet-machine gate's settings, the same for every kind that measures time: measure
// only while every rank's CPU runs near the fastest it has been seen to run
// (trial/quiet_gate.h says how).
#pragma once

#include "common/json.h"
#include "spec/schema.h"

namespace harness {

struct QuietGateSettings {
  double max_slowdown = 1.25;  // a canary reading above this x the rank's fastest: not quiet
  double wait_s = 2;           // a trial's budget for waiting and measuring again; 0: observe
};

// A kind's own schema rows followed by the gate's.
Schema with_quiet_gate(Schema own);

// From validated, defaults-filled settings.
QuietGateSettings parse_quiet_gate_settings(const Json& settings);

}  // namespace harness

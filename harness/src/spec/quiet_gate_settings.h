// The quiet-machine gate's settings, the same for every kind that measures time: measure
// only while every rank's CPU runs near the fastest it has been seen to run
// (trial/quiet_gate.h says how).
#pragma once

#include "spec/settings_table.h"

namespace harness {

struct QuietGateSettings {
  double max_slowdown = 1.25;  // a canary reading above this x the rank's fastest: not quiet
  double wait_s = 2;           // a trial's budget for waiting and measuring again; 0: observe
};

// The gate's rows, added at the top level of each timed kind's settings.
const SettingsTable<QuietGateSettings>& quiet_gate_settings_table();

}  // namespace harness

// Ctrl-C (SIGINT) or SIGTERM while a sweep runs: rank 0 marks meta.json "interrupted" and says
// how to resume, then exits; every finished trial is already fsynced in trials.jsonl. The
// handler may only make async-signal-safe calls, so the marked meta.json and the message are
// rendered in advance (arm) and the handler just writes, fsyncs and renames.
#pragma once

#include <string>

#include "run/run_meta.h"

namespace harness {

// Rank 0, once meta.json is written: installs the handlers for `directory`.
void arm_interruption_mark(const std::string& directory, const RunMeta& meta);
// Restores the default handlers (the sweep ended normally).
void disarm_interruption_mark();

}  // namespace harness

// What harness prints instead of running: the plugins found, the experiment field
// reference, and a dry run's trial table (whose last line scripts parse).
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "loader/plugin_registry.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

// "harness: error: ..." on stderr, the text made safe for the terminal.
void say(const char* level, const std::string& text);

// After printing a listing: its exit status. Output lost to a full disk or a closed pipe is a
// failure said on stderr, never a silent success.
int listing_written();

void print_plugins(const PluginRegistry& registry, std::FILE* out = stdout);
void print_field_reference(std::FILE* out = stdout);
// The plugins the trials name, one a line, sorted: "model:<name>" and "comm:<name>" (a
// hierarchical backend names the communicators of both its levels).
void print_plugins_needed(const std::vector<Trial>& trials, std::FILE* out = stdout);
// Ends with "<n> trial(s); run with mpirun -np <ranks>" (scripts/run reads it).
// With adaptive repetitions on, a line before the last says what may run after the table; a
// search says that it picks its trials from these configurations. A non-empty
// oversubscribed_note (run/oversubscribed_worlds.h) is said before the last line.
void print_trial_table(const std::vector<Trial>& trials, const Experiment& experiment,
                       const std::string& oversubscribed_note = "", std::FILE* out = stdout);

}  // namespace harness

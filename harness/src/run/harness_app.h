// The harness program after its command line is parsed: list, or load, validate and run.
#pragma once

#include "run/command_line.h"

namespace harness {

// Returns the process exit status (common/exit_codes.h).
int run_harness(const CommandLine& cli, int* argc, char*** argv);

}  // namespace harness

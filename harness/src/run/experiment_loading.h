// The experiment a run uses: the file named on the command line, or, for --resume without
// one, the experiment recorded in the folder's meta.json. Rank 0 reads it and every rank
// gets the text, so only the launching host needs the file.
#pragma once

#include "run/command_line.h"
#include "spec/experiment.h"

namespace harness {

// Collective over MPI_COMM_WORLD. Throws InputError.
Experiment load_for_run(const CommandLine& cli, int rank);

}  // namespace harness

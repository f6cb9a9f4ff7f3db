// The experiment a run uses: the file named on the command line, or, for --resume without
// one, the experiment recorded in the folder's meta.json. Rank 0 reads it and every rank
// gets the text, so only the launching host needs the file.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "run/command_line.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

// Collective over MPI_COMM_WORLD. Throws InputError.
Experiment load_for_run(const CommandLine& cli, int rank);

// The same experiment as this process alone can read it, before MPI starts (no MPI call):
// nullopt when it cannot (the file is only on rank 0's host, the folder elsewhere) or the
// experiment does not parse — load_for_run says why, the usual way, once MPI is up.
std::optional<Experiment> read_here_before_mpi(const CommandLine& cli);

// With --resume: the experiment (file and --set overrides applied) must be the one recorded in
// the folder's meta.json, and read the same model files, or results of two experiments would
// mix in one folder under the first one's description. Throws InputError saying what differs,
// unless cli.extend. Collective over MPI_COMM_WORLD.
void check_resumed_experiment(const CommandLine& cli, const Experiment& experiment,
                              const std::vector<Trial>& trials, int rank);

// Where two experiment documents differ (JSON pointers), at most `limit` of them; empty when
// they are the same up to key order.
std::vector<std::string> experiment_differences(const Json& recorded, const Json& current,
                                                std::size_t limit = 5);

}  // namespace harness

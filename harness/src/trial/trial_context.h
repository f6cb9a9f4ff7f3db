// What a trial runner gets from the sweep: its group, the job's watchdog, and the process's
// plugins and data.
#pragma once

#include <mpi.h>

#include <string>

namespace harness {

class PluginRegistry;
class DataCache;
class Watchdog;

struct TrialContext {
  MPI_Comm comm = MPI_COMM_NULL;  // the trial's group
  int rank = 0;
  int size = 1;
  const PluginRegistry* plugins = nullptr;
  DataCache* data = nullptr;
  Watchdog* watchdog = nullptr;  // every wait of the trial runs under it; nullptr: unwatched
  // Rank 0 of a sweep: the results folder, where a trial files what does not belong in its
  // one-line record (traces). "" elsewhere.
  std::string results_directory{};
  // Why the group is oversubscribed (mpi/cpu_crowding.h), "" when it is not: the record says so.
  std::string oversubscribed{};
};

}  // namespace harness

// What a trial runner gets from the sweep: its group, and the process's plugins and data.
#pragma once

#include <mpi.h>

namespace harness {

class PluginRegistry;
class DataCache;

struct TrialContext {
  MPI_Comm comm = MPI_COMM_NULL;  // the trial's group
  int rank = 0;
  int size = 1;
  const PluginRegistry* plugins = nullptr;
  DataCache* data = nullptr;
};

}  // namespace harness

// Whether a group of ranks has a CPU per rank on every host: the one definition of
// "oversubscribed". A host is crowded when more of the group's ranks run there than the CPUs
// those ranks may run on together (the union of their affinity masks), so ranks bound one to a
// core are not crowded and unbound ranks on a 2-CPU host are from the third on. Timings of a
// crowded group measure how the scheduler shares the CPUs, not the backend.
#pragma once

#include <mpi.h>
#include <sched.h>

#include <string>
#include <vector>

namespace harness {

// Where a rank runs: its host (the lowest rank of `comm` on it) and the CPUs it may use.
struct RankPlace {
  int host = 0;
  cpu_set_t cpus;
};

// Every rank's place, on every rank (collective over `comm`).
std::vector<RankPlace> every_rank_place(MPI_Comm comm);

struct Crowding {
  int ranks = 0;  // on the most crowded host
  int cpus = 0;   // that host's CPUs, as those ranks may use them
  bool crowded() const { return ranks > cpus; }
};

// The most crowded host among the first `ranks` of `places`; ranks beyond `places` (a dry run
// made without mpirun) count on the first rank's host, where mpirun -np N puts them.
Crowding crowding(const std::vector<RankPlace>& places, int ranks);

// "" when `comm`'s ranks have a CPU each on every host; else "4 ranks share 2 CPU(s) on a
// host". Collective over `comm`.
std::string group_crowding(MPI_Comm comm);

}  // namespace harness

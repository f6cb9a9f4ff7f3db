// Which world sizes of a sweep would put more ranks than CPUs on a host, and the experiment's
// rule for their points (Experiment::oversubscribed). Such a point's timings measure how the
// scheduler shares the CPUs, not the backend: the report never ranks it, so a run need not
// spend its repetitions there.
#pragma once

#include <string>
#include <vector>

#include <optional>

#include "run/run_meta.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

struct OversubscribedWorlds {
  std::vector<int> world_sizes;  // ascending
  std::string reason;            // for the largest: "4 ranks would share 2 CPUs on a host"
  bool contains(int world_size) const;
};

// Collective over MPI_COMM_WORLD. A world size w is oversubscribed when ranks 0..w-1 put more
// ranks on some host than the CPUs those ranks may run on there together. Ranks beyond this
// job's (a dry run made without mpirun) are counted on rank 0's host, where mpirun -np N puts
// them.
OversubscribedWorlds find_oversubscribed_worlds(const std::vector<Trial>& trials);

// The trials the rule keeps, renumbered: all (measure), repetition 0 alone of each
// oversubscribed point, marked measured_once (once), or none of them (leave_out).
std::vector<Trial> apply_oversubscribed_rule(std::vector<Trial> trials, OversubscribedPoints rule,
                                             const OversubscribedWorlds& worlds);

// What the dry run and the console say, e.g. "world size 4: 4 ranks would share 2 CPUs on a
// host: one repetition, to show that it works (oversubscribed: once)"; empty when none is.
std::string oversubscribed_note(OversubscribedPoints rule, const OversubscribedWorlds& worlds);

// meta.json's "oversubscribed"; unset when no world size is.
std::optional<OversubscribedMark> oversubscribed_mark(OversubscribedPoints rule,
                                                      const OversubscribedWorlds& worlds);

}  // namespace harness

// Where finished trial records go besides trials.jsonl (google/benchmark's reporters): the
// sweep hands each record, read once into its typed view (record/trial_run.h), to every sink,
// and each sink knows only its own format.
#pragma once

#include <vector>

#include "record/trial_run.h"

namespace harness {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // `record` has just been appended; `all` holds every record of the folder, it included.
  virtual void record_added(const TrialRun& run, const std::vector<TrialRun>& all) = 0;
  // The sweep is over (every trial run, or interrupted): `all` is every record of the folder.
  virtual void sweep_ended(const std::vector<TrialRun>& /*all*/) {}
};

}  // namespace harness

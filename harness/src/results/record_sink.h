// Where finished trial records go besides trials.jsonl (google/benchmark's reporters): the
// sweep hands each record to every sink, and each sink knows only its own format.
#pragma once

#include <vector>

#include "common/json.h"

namespace harness {

class RecordSink {
 public:
  virtual ~RecordSink() = default;
  // `record` has just been appended; `all` holds every record of the folder, it included.
  virtual void record_added(const Json& record, const std::vector<Json>& all) = 0;
  // The sweep is over (every trial run, or interrupted): `all` is every record of the folder.
  virtual void sweep_ended(const std::vector<Json>& /*all*/) {}
};

}  // namespace harness

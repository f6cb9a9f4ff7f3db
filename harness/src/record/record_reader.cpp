#include "record/record_reader.h"

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/input_error.h"
#include "common/type_traits.h"
#include "record/field_json_reader.h"
#include "record/record_declaration.h"

namespace harness {
namespace {

template <typename Record>
Record read_record(const Json& json) {
  if (!json.is_object()) throw InputError("a trial record is a JSON object, not " + json.dump());
  return read_declared<Record>(json);
}

}  // namespace

TrainRecord read_train_record(const Json& record) { return read_record<TrainRecord>(record); }

CollectiveRecord read_collective_record(const Json& record) {
  return read_record<CollectiveRecord>(record);
}

ReplayRecord read_replay_record(const Json& record) { return read_record<ReplayRecord>(record); }

CollectivePoint read_collective_point(const Json& point) {
  return read_record<CollectivePoint>(point);
}

}  // namespace harness

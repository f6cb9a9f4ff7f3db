#include "record/record_json.h"

#include "record/field_json_writer.h"
#include "record/record_declaration.h"

namespace harness {

Json to_json(const TrainRecord& record) { return written(record); }
Json to_json(const CollectiveRecord& record) { return written(record); }
Json to_json(const ReplayRecord& record) { return written(record); }
Json to_json(const TrialIdentity& identity, const TrialEnd& end) {
  return written(FrameRecord{identity, end});
}
Json to_json(const FrameRecord& record) { return written(record); }
Json to_json(const TrialResult& result) {
  return std::visit([](const auto& record) { return to_json(record); }, result);
}
Json to_json(const MachineSpeedRecord& speed) { return written(speed); }
Json to_json(const StepTimesRecord& step_times) { return written(step_times); }
Json to_json(const CollectivePoint& point) { return written(point); }

}  // namespace harness

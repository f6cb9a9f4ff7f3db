#include "record/trial_record.h"

#include "common/failure_text.h"

namespace harness {

Json new_trial_record(const Trial& trial, int world_size) {
  Json record{{"record_version", kRecordVersion},
              {"kind", trial.kind},
              {"part", trial.part},
              {"key", trial.key},
              {"point", trial.point},
              {"index", trial.index},
              {"repetition", trial.repetition},
              {"seed", trial.seed},
              {"world_size", world_size},
              {"status", "running"},
              {"reason", ""},
              {"axes", trial.axes},
              {"settings", trial.settings}};
  if (!trial.model_files.empty()) record["model_files"] = trial.model_files;
  return record;
}

int record_version_of(const Json& record) {
  if (record.contains("record_version"))
    return record["record_version"].is_number_integer() ? record["record_version"].get<int>() : -1;
  return record.contains("schema_version") ? 1 : 0;
}

Json finish_record(Json record, TrialStatus status, const std::string& reason,
                   std::chrono::steady_clock::time_point started) {
  record["status"] = trial_status_name(status);
  record["reason"] = failure_text(reason);  // one line, whatever the exception carried
  record["wall_time_s"] =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return record;
}

}  // namespace harness

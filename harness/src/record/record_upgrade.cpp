#include "record/record_upgrade.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <string>

#include "common/input_error.h"
#include "record/record_version.h"

namespace harness {
namespace {

Json* object_at(Json& record, const char* key) {
  const auto found = record.find(key);
  return found != record.end() && found->is_object() ? &*found : nullptr;
}

// Version 1 called the version field schema_version.
void to_version_2(Json& record) { record.erase("schema_version"); }

// Moves `from` to `to` within `object` unless `to` is already there.
void keep_as(Json& object, const char* from, const char* to) {
  if (!object.contains(from)) return;
  if (!object.contains(to)) object[to] = object[from];
  object.erase(from);
}

void step_times_to_version_3(Json& record) {
  Json* times = object_at(record, "step_time_ms");
  if (!times || times->empty()) {  // no step was timed
    record["step_time_ms"] = nullptr;
    return;
  }
  keep_as(*times, "total", "p50");
  // Records from before bucketed reduction had one "allreduce" figure, all of it exposed.
  if (times->contains("allreduce") && !times->contains("comm")) (*times)["comm"] = (*times)["allreduce"];
  keep_as(*times, "allreduce", "exposed_comm");
}

void train_parts_to_version_3(Json& record) {
  const auto erase_in = [&record](const char* part, const char* key) {
    if (Json* object = object_at(record, part)) object->erase(key);
  };
  erase_in("machine_speed", "max_slowdown");
  erase_in("machine_speed", "wait_s");
  erase_in("gradient_reduction", "fusion_bytes");
  erase_in("timing", "min_time_s");
  erase_in("slow_steps", "factor");
  erase_in("target", "loss");
  if (Json* target = object_at(record, "target");
      target && target->value("reached", Json(true)) == Json(false))
    (*target)["steps"] = nullptr;  // steps count only to a target reached
  erase_in("lr", "base");
  erase_in("detection", "threshold_percentile");
  erase_in("detection_points", "threshold_percentile");
  record.erase("exposed_comm_ms");
  record.erase("timed_steps");
  if (Json* throughput = object_at(record, "throughput"); throughput && (*throughput)["samples_per_s"].is_null())
    record["throughput"] = nullptr;  // no step was timed
  if (record.contains("stragglers") && record["stragglers"].is_null()) record.erase("stragglers");
  if (record.contains("throughput") || record.contains("step_time_ms")) step_times_to_version_3(record);
}

void points_to_version_3(Json& record) {
  const auto points = record.find("points");
  if (points == record.end() || !points->is_array()) return;
  Json* settings = object_at(record, "settings");
  for (Json& point : *points) {
    if (!point.is_object()) continue;
    keep_as(point, "time_us", "p50_us");
    // The setting the point copied, kept where the settings lack it.
    if (settings && point.contains("timing") && !settings->contains("timing"))
      (*settings)["timing"] = point["timing"];
    point.erase("timing");
  }
}

// Version 3 records each figure once: no copies of settings, of the median step or of the
// timed steps; and it states whether the trial's figures stand.
void to_version_3(Json& record) {
  // Records from before sweep points: each trial was its own point.
  if (!record.contains("point") && record.contains("key") && record["key"].is_string())
    record["point"] = record["key"];
  train_parts_to_version_3(record);
  points_to_version_3(record);
  const Json status = record.value("status", Json());
  record["measured"] = status == "ok" || status == "inconsistent";
  if (record.value("noisy", Json(false)) == Json(true) && !record.contains("noisy_because"))
    record["noisy_because"] = "noisy (records before record_version 3 do not say why)";
}

}  // namespace

int record_version_of(const Json& record) {
  if (record.contains("record_version")) {
    const Json& version = record["record_version"];
    if (!version.is_number_integer()) return -1;
    if (version.is_number_unsigned())  // beyond int: newer than any layout, not wrapped around
      return static_cast<int>(std::min<std::uint64_t>(version.get<std::uint64_t>(), INT_MAX));
    const long long value = version.get<long long>();
    return value < 0 ? -1 : static_cast<int>(std::min<long long>(value, INT_MAX));
  }
  return record.contains("schema_version") ? 1 : 0;
}

Json upgraded_record(Json record) {
  const int version = record_version_of(record);
  if (version < 0)
    throw InputError("record_version is " + record["record_version"].dump() +
                     ", expected an integer from 0 to " + std::to_string(kRecordVersion) +
                     " (the record layouts this harness reads)");
  if (version > kRecordVersion)
    throw InputError("record_version " + std::to_string(version) +
                     " is newer than this harness reads (up to " + std::to_string(kRecordVersion) +
                     "); continue the folder with the harness that wrote it");
  if (version < 2) to_version_2(record);
  if (version < 3) to_version_3(record);
  record["record_version"] = kRecordVersion;
  return record;
}

}  // namespace harness

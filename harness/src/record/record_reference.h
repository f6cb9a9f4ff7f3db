// Every field a trial record in trials.jsonl can carry: its path, JSON type, unit, the kinds
// that write it, when it is there and what it means. The results reference in docs/ is this
// table's Markdown (harness --record-fields), a unit test keeps the two in step, and an
// end-to-end test checks real records against it: a field written but not listed here, or
// listed as always there but missing, fails.
#pragma once

#include <string>
#include <vector>

namespace harness {

// Bumped when a field changes meaning, unit or type, or goes away; added fields keep it.
// Version 1 records called this field schema_version.
inline constexpr int kRecordVersion = 2;

enum class RecordKinds { kEvery, kTrain, kCollective };

struct RecordField {
  std::string path;  // dotted; "points[]." for each element of an array of objects
  std::string type;
  std::string unit;  // "" when the value has none
  RecordKinds kinds;
  std::string when;  // "": in every ok record of its kinds; else when it is there
  std::string meaning;
};

const std::vector<RecordField>& record_fields();

// The reference as Markdown: one table per kind of record.
std::string record_reference_markdown();

}  // namespace harness

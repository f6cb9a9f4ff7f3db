// Every field a trial record in trials.jsonl can carry — its path, JSON type, unit, the kinds
// that write it, when it is there and what it means — as the declaration names it
// (record/record_declaration.h). From these rows come the results reference in docs/
// (harness --record-fields, kept in step by a unit test) and the JSON Schema of a record
// (harness --record-schema, record/record_schema.h).
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "record/record_version.h"

namespace harness {

enum class RecordKinds { kEvery, kTrain, kCollective };

struct RecordField {
  std::string path;  // dotted; "points[]." for each element of an array of objects
  std::string type;  // as the reference says it: "number or null", "array of integers"
  std::string unit;  // "" when the value has none
  RecordKinds kinds;
  std::string when;  // "": in every ok record of its kinds; else when it is there
  std::string meaning;
  Json schema;          // the value's JSON Schema ({"type": ...}), null allowed where it may be
  bool required = true;  // there whenever its parent is (in an ok record, at the top)
  bool framed = false;    // in every record, whatever its status (the frame)
};

const std::vector<RecordField>& record_fields();

// The reference as Markdown: one table per kind of record.
std::string record_reference_markdown();

}  // namespace harness

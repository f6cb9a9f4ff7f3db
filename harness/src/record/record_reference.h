// Every field a trial record in trials.jsonl can carry — its path, JSON type, unit, the kinds
// that write it, when it is there and what it means — as the declaration names it
// (record/record_declaration.h). From these rows come the results reference in docs/
// (harness --record-fields, kept in step by a unit test) and the JSON Schema of a record
// (harness --record-schema, record/record_schema.h).
#pragma once

#include <string>
#include <vector>

#include "record/field_collector.h"
#include "record/record_version.h"

namespace harness {

// The kinds of record a field is in: a set of flags.
enum class RecordKinds : unsigned {
  kTrain = 1,
  kCollective = 2,
  kReplay = 4,
  kEvery = kTrain | kCollective | kReplay,
};

inline RecordKinds operator|(RecordKinds a, RecordKinds b) {
  return static_cast<RecordKinds>(static_cast<unsigned>(a) | static_cast<unsigned>(b));
}
// Whether a field in `kinds` is in records of kind `kind`.
inline bool includes(RecordKinds kinds, RecordKinds kind) {
  return (static_cast<unsigned>(kinds) & static_cast<unsigned>(kind)) != 0;
}

struct RecordField : DeclaredField {
  RecordKinds kinds = RecordKinds::kEvery;
  bool framed = false;  // in every record, whatever its status (the frame)
};

const std::vector<RecordField>& record_fields();

// The reference as Markdown: one table per kind of record, then search.json's.
std::string record_reference_markdown();

// A table of declared fields as Markdown: | field | type | unit | present | meaning |.
std::string fields_table(const std::vector<const DeclaredField*>& fields);

}  // namespace harness

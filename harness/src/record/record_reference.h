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

enum class RecordKinds { kEvery, kTrain, kCollective };

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

// The JSON Schema (draft 2020-12) of a trial record, built from the declared fields
// (record/record_reference.h): harness --record-schema prints it, and records are checked
// against it (common/json_schema_check.h) by harness --check-records and the tests.
#pragma once

#include "common/json.h"

namespace harness {

// Every record carries its frame; an ok record carries every field its kind always writes;
// no record carries a field its kind does not declare.
Json record_schema();

}  // namespace harness

// Checks a JSON value against a JSON Schema, for the schemas the harness itself publishes
// (harness --record-schema, --search-schema, --meta-schema): the keywords they use — type,
// const, enum, properties, required, additionalProperties (false), items, minItems, maxItems,
// allOf, if/then and $ref into "#/$defs/". Other keywords are refused, so that a schema never
// passes a value by a keyword this checker skipped.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"

namespace harness {

// What is checked: a document as the harness writes it now (every required field there, no
// undeclared one), or only the fields a document holds (their types and values), as a reader
// of older layouts needs; scripts/harness_analysis/record_schema.py has the same two.
enum class SchemaCheck { kComplete, kPresentFields };

// Each problem names the JSON pointer of the value ("/points/2/bytes") and what was expected;
// empty when the value conforms.
std::vector<std::string> schema_problems(const Json& schema, const Json& value,
                                         SchemaCheck check = SchemaCheck::kComplete);

}  // namespace harness

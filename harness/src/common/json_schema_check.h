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

// Each problem names the JSON pointer of the value ("/points/2/bytes") and what was expected;
// empty when the value conforms.
std::vector<std::string> schema_problems(const Json& schema, const Json& value);

}  // namespace harness

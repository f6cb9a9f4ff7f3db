// meta.json's text, read back, its reference and its JSON Schema, all from the one declaration
// of its fields (run/run_meta_declaration.h).
#pragma once

#include <string>

#include "common/json.h"
#include "run/run_meta.h"

namespace harness {

Json to_json(const RunMeta& meta);

// Lenient where a field is missing (it reads as unset); InputError when the document is not an
// object, a field it holds is not of its declared type, or its schema_version is newer than
// this harness knows.
RunMeta read_run_meta(const Json& document);

std::string meta_reference_markdown();

Json meta_json_schema();

}  // namespace harness

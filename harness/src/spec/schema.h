// A declarative description of an experiment file's fields: types, ranges, choices, defaults
// and help. One table drives validation, default filling and the printed field reference.
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "common/input_error.h"
#include "common/json.h"

namespace harness {

enum class FieldType {
  kInteger,
  kNumber,
  kNumberOrNull,
  kString,
  kBoolean,
  kStringList,
  kIntegerList,
  kFreeObject,  // an object whose contents someone else validates (plugin parameters)
  kObjectList,  // an array of objects validated by the caller
};

struct FieldSpec {
  std::string path;  // dotted, relative to the object the schema describes
  FieldType type = FieldType::kString;
  Json default_value;  // null: required (unless the type is kNumberOrNull)
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
  std::vector<std::string> choices;  // allowed strings, when the set is fixed
  std::string help;
};

using Schema = std::vector<FieldSpec>;

// Checks `value` (the object found at `pointer` in the file) against the fields of `schema`
// under `dotted_prefix` ("" for the whole schema): unknown keys (with a suggestion), types,
// ranges and choices. Missing required fields are reported too when check_required is set.
void validate_object(const Schema& schema, const std::string& dotted_prefix, const Json& value,
                     const std::string& pointer, bool check_required, ErrorList& errors);

// Checks a value for the field or object at dotted path `path` (used for sweep values).
// Paths inside a kFreeObject are accepted as they are.
void validate_value_at(const Schema& schema, const std::string& path, const Json& value,
                       const std::string& pointer, ErrorList& errors);

// True when path names a field, an object of fields, or a path inside a free object.
bool schema_has_path(const Schema& schema, const std::string& path);

// Every default of the schema merged under the user's values.
Json with_defaults(const Schema& schema, const Json& user_values);

// The field reference as a Markdown table.
std::string schema_reference_markdown(const Schema& schema);

// Recursively overlays `overlay` onto `base` (objects merge; anything else replaces).
void deep_merge(Json& base, const Json& overlay);

}  // namespace harness

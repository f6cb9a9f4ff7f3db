// The JSON Schema (draft 2020-12) of an object whose fields a declaration lists
// (record/field_collector.h): its declared keys with their types, nested objects and arrays of
// objects alike, and no other keys. A free object (one the declaration does not look into,
// such as a trial's settings) takes any keys.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"
#include "record/field_collector.h"

namespace harness {

// The object at `path` ("" the document, "points[]" each element of points).
Json object_schema(const std::vector<const DeclaredField*>& fields, const std::string& path = "");

// The schema of a whole document: `object_schema` with its title and the draft named.
Json document_schema(const std::vector<const DeclaredField*>& fields, const std::string& title,
                     const std::string& description);

}  // namespace harness

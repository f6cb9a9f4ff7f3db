#include "record/field_schema.h"

namespace harness {
namespace {

// The path's parent ("" at the top) and its last key; "points[].bytes" lies in "points[]".
std::string parent_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? "" : path.substr(0, dot);
}

std::string key_of(const std::string& path) {
  const auto dot = path.rfind('.');
  return dot == std::string::npos ? path : path.substr(dot + 1);
}

bool may_be(const Json& schema, const char* type) {
  const Json& types = schema["type"];
  if (types.is_string()) return types == type;
  for (const Json& one : types)
    if (one == type) return true;
  return false;
}

}  // namespace

Json object_schema(const std::vector<const DeclaredField*>& fields, const std::string& path) {
  Json properties = Json::object(), required = Json::array();
  for (const DeclaredField* field : fields) {
    if (parent_of(field->path) != path) continue;
    Json schema = field->schema;
    if (may_be(schema, "object")) {
      const Json declared_type = schema["type"];  // "object", or ["object", "null"]: kept
      schema.update(object_schema(fields, field->path));
      schema["type"] = declared_type;
    }
    if (may_be(schema, "array") && may_be(schema["items"], "object"))
      schema["items"] = object_schema(fields, field->path + "[]");
    properties[key_of(field->path)] = std::move(schema);
    if (field->required) required.push_back(key_of(field->path));
  }
  if (properties.empty()) return Json::object();  // free: what the experiment wrote
  return {{"type", "object"},
          {"properties", properties},
          {"additionalProperties", false},
          {"required", required}};
}

Json document_schema(const std::vector<const DeclaredField*>& fields, const std::string& title,
                     const std::string& description) {
  Json schema{{"$schema", "https://json-schema.org/draft/2020-12/schema"},
              {"title", title},
              {"description", description}};
  schema.update(object_schema(fields));
  return schema;
}

}  // namespace harness

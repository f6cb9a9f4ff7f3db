#include "record/record_schema.h"

#include <string>
#include <vector>

#include "record/record_reference.h"

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

bool in_kind(const RecordField& row, RecordKinds kind) {
  return row.kinds == RecordKinds::kEvery || row.kinds == kind;
}

// The schema of the object at `path` ("" the record, "points[]" a point): its declared keys
// and no others. A free object (axes, settings) has no declared keys and takes any.
Json object_schema(const std::string& path, RecordKinds kind, bool top) {
  Json properties = Json::object(), required = Json::array();
  for (const RecordField& row : record_fields()) {
    if (!in_kind(row, kind) || parent_of(row.path) != path) continue;
    Json schema = row.schema;
    const bool holds_object = schema["type"] == "object" ||
                              (schema["type"].is_array() && schema["type"][0] == "object");
    const bool array_of_objects = schema["type"] == "array" && schema["items"]["type"] == "object";
    if (holds_object) schema.update(object_schema(row.path, kind, false));
    if (array_of_objects) schema["items"] = object_schema(row.path + "[]", kind, false);
    properties[key_of(row.path)] = std::move(schema);
    if (row.required) required.push_back(key_of(row.path));
  }
  if (properties.empty()) return Json::object();  // free: what the experiment wrote
  Json schema{{"type", "object"}, {"properties", properties}, {"additionalProperties", false}};
  if (!top) {
    schema["required"] = required;
    return schema;
  }
  schema["if"] = {{"properties", {{"status", {{"const", "ok"}}}}}, {"required", {"status"}}};
  schema["then"] = {{"required", required}};
  return schema;
}

Json frame_required() {
  Json required = Json::array();
  for (const RecordField& row : record_fields())
    if (row.framed && row.required) required.push_back(row.path);
  return required;
}

Json kind_is(const char* kind) {
  return {{"properties", {{"kind", {{"const", kind}}}}}, {"required", {"kind"}}};
}

}  // namespace

Json record_schema() {
  Json schema{
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"title", "harness trial record, record_version " + std::to_string(kRecordVersion)},
      {"description", "One line of trials.jsonl; docs/results-reference.md explains each field."},
      {"type", "object"},
      {"required", frame_required()},
      {"properties", {{"kind", {{"enum", {"train", "collective"}}}},
                      {"record_version", {{"const", kRecordVersion}}}}},
      {"allOf", {{{"if", kind_is("train")}, {"then", {{"$ref", "#/$defs/train"}}}},
                 {{"if", kind_is("collective")}, {"then", {{"$ref", "#/$defs/collective"}}}}}},
      {"$defs", {{"train", object_schema("", RecordKinds::kTrain, true)},
                 {"collective", object_schema("", RecordKinds::kCollective, true)}}}};
  return schema;
}

}  // namespace harness

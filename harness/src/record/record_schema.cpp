#include "record/record_schema.h"

#include <string>
#include <vector>

#include "record/field_schema.h"
#include "record/record_reference.h"

namespace harness {
namespace {

std::vector<const DeclaredField*> fields_of(RecordKinds kind) {
  std::vector<const DeclaredField*> fields;
  for (const RecordField& field : record_fields())
    if (includes(field.kinds, kind)) fields.push_back(&field);
  return fields;
}

// A kind's record: its declared keys; an ok one carries every field its kind always writes.
Json kind_schema(RecordKinds kind) {
  Json schema = object_schema(fields_of(kind));
  const Json always = schema["required"];
  schema.erase("required");
  schema["if"] = {{"properties", {{"status", {{"const", "ok"}}}}}, {"required", {"status"}}};
  schema["then"] = {{"required", always}};
  return schema;
}

Json frame_required() {
  Json required = Json::array();
  for (const RecordField& field : record_fields())
    if (field.framed && field.required) required.push_back(field.path);
  return required;
}

Json kind_is(const char* kind) {
  return {{"properties", {{"kind", {{"const", kind}}}}}, {"required", {"kind"}}};
}

}  // namespace

Json record_schema() {
  return {{"$schema", "https://json-schema.org/draft/2020-12/schema"},
          {"title", "harness trial record, record_version " + std::to_string(kRecordVersion)},
          {"description", "One line of trials.jsonl; docs/results-reference.md explains each field."},
          {"type", "object"},
          {"required", frame_required()},
          {"properties", {{"kind", {{"enum", {"train", "collective", "replay"}}}},
                          {"record_version", {{"const", kRecordVersion}}}}},
          {"allOf", {{{"if", kind_is("train")}, {"then", {{"$ref", "#/$defs/train"}}}},
                     {{"if", kind_is("collective")}, {"then", {{"$ref", "#/$defs/collective"}}}},
                     {{"if", kind_is("replay")}, {"then", {{"$ref", "#/$defs/replay"}}}}}},
          {"$defs", {{"train", kind_schema(RecordKinds::kTrain)},
                     {"collective", kind_schema(RecordKinds::kCollective)},
                     {"replay", kind_schema(RecordKinds::kReplay)}}}};
}

}  // namespace harness

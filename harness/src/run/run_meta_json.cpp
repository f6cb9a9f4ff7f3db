#include "run/run_meta_json.h"

#include "common/brief.h"
#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "record/field_collector.h"
#include "record/field_json_reader.h"
#include "record/field_json_writer.h"
#include "record/field_schema.h"
#include "record/record_reference.h"
#include "run/run_meta_declaration.h"

namespace harness {

Json to_json(const RunMeta& meta) { return written(meta); }

RunMeta read_run_meta(const Json& document) {
  if (!document.is_object())
    throw InputError("expected a JSON object, not " + brief(document.dump()));
  const Json version = document.value("schema_version", Json());
  if (version.is_number_integer() && version.get<long long>() > kMetaVersion)
    throw InputError("schema_version " + version.dump() + " is newer than this harness reads (" +
                     std::to_string(kMetaVersion) + ")");
  // Each field it holds of its declared type, as the scripts read it (results.py, read_meta).
  const auto problems = schema_problems(meta_json_schema(), document, SchemaCheck::kPresentFields);
  if (!problems.empty())
    throw InputError(problems.front() + " (meta.json's schema: harness --meta-schema)");
  return read_declared<RunMeta>(document);
}

std::string meta_reference_markdown() {
  return "## meta.json (schema_version " + std::to_string(kMetaVersion) + ")\n\n" +
         fields_table(declared_rows<RunMeta>());
}

Json meta_json_schema() {
  return document_schema(declared_rows<RunMeta>(),
                         "harness meta.json, schema_version " + std::to_string(kMetaVersion),
                         "What a reader needs to trust or reproduce a results folder; "
                         "docs/results-reference.md explains each field.");
}

}  // namespace harness

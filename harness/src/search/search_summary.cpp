#include "search/search_summary.h"

#include "record/field_collector.h"
#include "record/field_json_writer.h"
#include "record/field_schema.h"
#include "record/record_reference.h"

namespace harness {
namespace {

const std::vector<DeclaredField>& search_fields() {
  static const std::vector<DeclaredField> fields = rows_of<SearchSummary>();
  return fields;
}

std::vector<const DeclaredField*> pointers(const std::vector<DeclaredField>& fields) {
  std::vector<const DeclaredField*> out;
  for (const DeclaredField& field : fields) out.push_back(&field);
  return out;
}

}  // namespace

Json to_json(const SearchSummary& summary) { return written(summary); }

std::string search_reference_markdown() {
  return "## search.json (search_version " + std::to_string(kSearchVersion) + ")\n\n" +
         fields_table(pointers(search_fields()));
}

Json search_json_schema() {
  return document_schema(pointers(search_fields()),
                         "harness search.json, search_version " + std::to_string(kSearchVersion),
                         "What a search decided; docs/results-reference.md explains each field.");
}

}  // namespace harness

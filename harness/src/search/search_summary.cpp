#include "search/search_summary.h"

#include "record/field_collector.h"
#include "record/field_json_writer.h"
#include "record/field_schema.h"
#include "record/record_reference.h"

namespace harness {

Json to_json(const SearchSummary& summary) { return written(summary); }

std::string search_reference_markdown() {
  return "## search.json (search_version " + std::to_string(kSearchVersion) + ")\n\n" +
         fields_table(declared_rows<SearchSummary>());
}

Json search_json_schema() {
  return document_schema(declared_rows<SearchSummary>(),
                         "harness search.json, search_version " + std::to_string(kSearchVersion),
                         "What a search decided; docs/results-reference.md explains each field.");
}

}  // namespace harness

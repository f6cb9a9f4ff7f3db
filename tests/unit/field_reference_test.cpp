// The references in docs/ are the program's own output, so the documentation cannot drift:
// the experiment fields (harness --fields) and the record fields (harness --record-fields).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

#include "record/record_reference.h"
#include "search/search_summary.h"
#include "run/console_listing.h"
#include "run/run_meta_json.h"

namespace harness {
namespace {

std::string printed_field_reference() {
  char* buffer = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buffer, &size);
  print_field_reference(out);
  std::fclose(out);
  std::string text(buffer, size);
  std::free(buffer);
  return text;
}

std::string document(const std::string& name) {
  std::ifstream file(std::string(HARNESS_SOURCE_DIR) + "/docs/" + name);
  EXPECT_TRUE(file) << "docs/" << name << " missing";
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(FieldReference, DocumentMatchesTheSchema) {
  const std::string reference = printed_field_reference();
  EXPECT_NE(reference.find("## Collective settings"), std::string::npos);
  EXPECT_NE(document("experiment-reference.md").find(reference), std::string::npos)
      << "regenerate the tables at the end of docs/experiment-reference.md with: "
         "./build/harness --fields";
}

TEST(FieldReference, ResultsDocumentMatchesTheRecordFields) {
  const std::string reference = record_reference_markdown() + "\n" +
                                search_reference_markdown() + "\n" + meta_reference_markdown();
  EXPECT_NE(reference.find("`points[].busbw_gbps`"), std::string::npos);
  EXPECT_NE(reference.find("`rungs[].configurations[].figure.value`"), std::string::npos);
  EXPECT_NE(reference.find("`resumed[].previous_end.interrupted.by`"), std::string::npos);
  EXPECT_NE(reference.find("record_version " + std::to_string(kRecordVersion)), std::string::npos);
  EXPECT_NE(document("results-reference.md").find(reference), std::string::npos)
      << "regenerate the tables at the end of docs/results-reference.md with: "
         "./build/harness --record-fields";
}

// Each path is listed once, and every nested path's parent is listed too.
TEST(FieldReference, RecordFieldsAreListedOnceWithTheirParents) {
  std::set<std::string> paths;
  for (const auto& field : record_fields()) {
    EXPECT_TRUE(paths.insert(field.path).second) << field.path << " listed twice";
    EXPECT_FALSE(field.meaning.empty()) << field.path;
  }
  for (const auto& path : paths) {
    const auto dot = path.rfind('.');
    if (dot == std::string::npos) continue;
    std::string parent = path.substr(0, dot);
    if (parent.size() > 2 && parent.compare(parent.size() - 2, 2, "[]") == 0)
      parent.resize(parent.size() - 2);
    EXPECT_TRUE(paths.count(parent)) << path << " has no parent entry " << parent;
  }
}

}  // namespace
}  // namespace harness

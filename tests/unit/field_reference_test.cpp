// The field reference in docs/ is the program's own output, so the documentation cannot drift.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "run/console_listing.h"

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

TEST(FieldReference, DocumentMatchesTheSchema) {
  std::ifstream file(std::string(HARNESS_SOURCE_DIR) + "/docs/experiment-reference.md");
  ASSERT_TRUE(file) << "docs/experiment-reference.md missing";
  std::stringstream text;
  text << file.rdbuf();
  const std::string reference = printed_field_reference();
  EXPECT_NE(reference.find("## Collective settings"), std::string::npos);
  EXPECT_NE(text.str().find(reference), std::string::npos)
      << "regenerate the tables at the end of docs/experiment-reference.md with: "
         "./build/harness --fields";
}

}  // namespace
}  // namespace harness

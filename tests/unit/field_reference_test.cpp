// The field reference in docs/ is the schema's own output, so the documentation cannot drift.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "experiment.h"

namespace harness {
namespace {

TEST(FieldReference, DocumentMatchesTheSchema) {
  std::ifstream file(std::string(HARNESS_SOURCE_DIR) + "/docs/experiment-reference.md");
  ASSERT_TRUE(file) << "docs/experiment-reference.md missing";
  std::stringstream text;
  text << file.rdbuf();
  for (const char* kind : {"train", "collective"})
    EXPECT_NE(text.str().find(schema_reference_markdown(settings_schema_for(kind))), std::string::npos)
        << "regenerate with: ./build/harness --fields (kind " << kind << ")";
}

}  // namespace
}  // namespace harness

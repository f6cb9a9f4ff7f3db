// Checks on JSON text before it is parsed into a document, for what the parser either accepts
// silently or cannot survive: objects with a key given twice (the parser keeps the last one,
// so one of the user's values would be ignored) and nesting deeper than kMaxExperimentDepth (the
// document's recursive destruction, dumping and validation would overflow the stack). A
// linear scan, no recursion; it leaves malformed text to the parser's own messages.
#pragma once

#include <cstddef>
#include <string>

namespace harness {

constexpr std::size_t kMaxExperimentDepth = 64;

// Throws InputError "source:line:column: ..." on the first duplicate key or depth excess.
void check_json_structure(const std::string& text, const std::string& source);

}  // namespace harness

// JSON text as every reader of a results folder takes it, in the harness and in the scripts
// (scripts/harness_analysis/results.py, parse_json): UTF-8 without a byte-order mark, nested
// at most kMaxJsonDepth levels, and no NaN, Infinity or number beyond the double range. The
// harness writes none of these, so each is damage; the rule is the same in both languages so
// that a file one reader takes the other takes too (tests/fixtures/damaged_lines.json).
#pragma once

#include <cstddef>
#include <string>

#include "common/json.h"

namespace harness {

// The harness's documents are a few levels deep; deeper ones are refused before any
// recursive reader (a schema check, an upgrade, dump()) could run out of stack.
inline constexpr int kMaxJsonDepth = 100;

// A text read as JSON: its value, or why it is no JSON the harness reads and the line (of the
// text, 1-based) where.
struct StrictJson {
  Json value;
  std::size_t line = 0;
  std::string problem;  // empty: value holds the document
};

StrictJson parse_strict_json(const std::string& text);

}  // namespace harness

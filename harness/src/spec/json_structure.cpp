#include "spec/json_structure.h"

#include <set>
#include <vector>

#include "common/brief.h"
#include "common/input_error.h"
#include "spec/json_path.h"

namespace harness {
namespace {

struct Container {
  bool object = false;
  bool expecting_key = false;  // objects only: the next string is a key
  std::set<std::string> keys;  // as written (escapes not decoded)
};

[[noreturn]] void fail_at(const std::string& text, std::size_t offset, const std::string& source,
                          const std::string& message) {
  const TextPosition at = position_of(text, offset);
  throw InputError(source + ":" + std::to_string(at.line) + ":" + std::to_string(at.column) + ": " +
                   message);
}

// The offset just past the string literal opening at `start` (text[start] == '"').
std::size_t end_of_string(const std::string& text, std::size_t start) {
  std::size_t i = start + 1;
  while (i < text.size() && text[i] != '"') i += text[i] == '\\' ? 2 : 1;
  return std::min(i + 1, text.size());
}

}  // namespace

void check_json_structure(const std::string& text, const std::string& source) {
  std::vector<Container> open;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '"') {
      const std::size_t end = end_of_string(text, i);
      if (!open.empty() && open.back().object && open.back().expecting_key) {
        const std::string key = text.substr(i + 1, end - i - 2);
        if (!open.back().keys.insert(key).second)
          fail_at(text, i, source,
                  "duplicate key \"" + brief(key, 40) +
                      "\" in the same object (JSON parsers keep only one of the values)");
        open.back().expecting_key = false;
      }
      i = end - 1;
    } else if (c == '{' || c == '[') {
      if (open.size() >= kMaxExperimentDepth)
        fail_at(text, i, source,
                "nested deeper than " + std::to_string(kMaxExperimentDepth) +
                    " levels (an experiment needs a handful)");
      open.push_back({c == '{', c == '{', {}});
    } else if ((c == '}' || c == ']') && !open.empty()) {
      open.pop_back();
    } else if (c == ',' && !open.empty() && open.back().object) {
      open.back().expecting_key = true;
    }
  }
}

}  // namespace harness

// Whether a text begins with a prefix (std::string::starts_with is C++20).
#pragma once

#include <string>

namespace harness {

inline bool starts_with(const std::string& text, const std::string& prefix) {
  return text.size() >= prefix.size() && text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace harness

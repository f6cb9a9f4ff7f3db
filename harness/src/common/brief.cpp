#include "common/brief.h"

namespace harness {

std::string brief(const std::string& text, std::size_t max_chars) {
  if (text.size() <= max_chars) return text;
  return text.substr(0, max_chars) + "... (" + std::to_string(text.size()) + " characters)";
}

std::string brief(const Json& value, std::size_t max_chars) {
  // Dumping a huge value to cut it costs a copy; error paths can afford it. Invalid UTF-8 is
  // replaced, never thrown: this runs while reporting bad input.
  return brief(value.dump(-1, ' ', false, Json::error_handler_t::replace), max_chars);
}

}  // namespace harness

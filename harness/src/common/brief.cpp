#include "common/brief.h"

#include <algorithm>
#include <cstdio>

namespace harness {
namespace {

// \x1b for ESC: a control character echoed raw would colour the terminal, move the cursor or
// (NUL) cut the message short.
std::string escaped(unsigned char c) {
  char text[8];
  std::snprintf(text, sizeof text, "\\x%02x", c);
  return text;
}

// Control characters escaped; newlines too unless keep_newlines.
std::string escape_controls(const std::string& text, bool keep_newlines) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    const bool control = byte < 0x20 || byte == 0x7f;
    out += control && !(keep_newlines && c == '\n') ? escaped(byte) : std::string(1, c);
  }
  return out;
}

// Does not end inside a UTF-8 sequence: backs off continuation bytes.
std::size_t utf8_cut(const std::string& text, std::size_t at) {
  while (at > 0 && at < text.size() && (static_cast<unsigned char>(text[at]) & 0xC0) == 0x80) --at;
  return at;
}

}  // namespace

std::string printable(const std::string& text) { return escape_controls(text, true); }

std::string brief(const std::string& text, std::size_t max_chars) {
  const std::string shown = escape_controls(text, false);
  if (shown.size() <= max_chars) return shown;
  return shown.substr(0, utf8_cut(shown, max_chars)) + "... (" + std::to_string(text.size()) +
         " characters)";
}

std::string cut_long_words(const std::string& text, std::size_t max_chars) {
  std::string out;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find_first_of(" \n", start), text.size());
    const std::string word = text.substr(start, end - start);
    // The cut word with its "..." stays within max_chars, so cutting again changes nothing.
    out += word.size() <= max_chars ? word : brief(word, max_chars - 3);
    if (end < text.size()) out += text[end];
    start = end + 1;
  }
  return out;
}

std::string brief(const Json& value, std::size_t max_chars) {
  // Dumping a huge value to cut it costs a copy; error paths can afford it. Invalid UTF-8 is
  // replaced, never thrown: this runs while reporting bad input.
  return brief(value.dump(-1, ' ', false, Json::error_handler_t::replace), max_chars);
}

}  // namespace harness

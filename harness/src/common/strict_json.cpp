#include "common/strict_json.h"

#include <algorithm>
#include <cstdio>

namespace harness {
namespace {

std::size_t line_at(const std::string& text, std::size_t offset) {
  const auto end = text.begin() + static_cast<std::ptrdiff_t>(std::min(offset, text.size()));
  return static_cast<std::size_t>(std::count(text.begin(), end, '\n')) + 1;
}

// The length of the UTF-8 sequence starting at `at`, or 0 when it is none (a stray byte, an
// overlong form, a surrogate, beyond U+10FFFF, cut short): Python's decoder refuses the same.
std::size_t utf8_length(const std::string& text, std::size_t at) {
  const auto byte = [&text](std::size_t i) {
    return static_cast<unsigned char>(text[i]);
  };
  const unsigned char lead = byte(at);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  unsigned char low = 0x80, high = 0xBF;  // the range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF)
    length = 2;
  else if (lead >= 0xE0 && lead <= 0xEF)
    length = 3, low = lead == 0xE0 ? 0xA0 : 0x80, high = lead == 0xED ? 0x9F : 0xBF;
  else if (lead >= 0xF0 && lead <= 0xF4)
    length = 4, low = lead == 0xF0 ? 0x90 : 0x80, high = lead == 0xF4 ? 0x8F : 0xBF;
  else
    return 0;
  if (at + length > text.size() || byte(at + 1) < low || byte(at + 1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i)
    if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
  return length;
}

// The offset of the first byte that is not UTF-8, or npos.
std::size_t first_non_utf8(const std::string& text) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t length = utf8_length(text, at);
    if (length == 0) return at;
    at += length;
  }
  return std::string::npos;
}

// The end of the JSON string opening at `at` (one past its closing quote), or npos when it is
// not closed; as the scripts' pattern "(?:[^"\\]|\\.)*" reads it.
std::size_t string_end(const std::string& text, std::size_t at) {
  for (std::size_t i = at + 1; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '"')
      return i + 1;
  }
  return std::string::npos;
}

struct Depth {
  int deepest = 0;
  std::size_t line = 1;  // where it was first reached
};

// How deep the text's brackets nest, strings skipped; counted without parsing, so that no
// parser meets a document deeper than kMaxJsonDepth.
Depth nesting(const std::string& text) {
  Depth found;
  int depth = 0;
  std::size_t line = 1, counted_to = 0;  // lines counted as the scan goes: linear, not quadratic
  for (std::size_t at = 0; at < text.size(); ++at) {
    const char c = text[at];
    if (c == '"') {
      const std::size_t end = string_end(text, at);
      if (end != std::string::npos) at = end - 1;
    } else if (c == '[' || c == '{') {
      if (++depth <= found.deepest) continue;
      line += static_cast<std::size_t>(
          std::count(text.begin() + static_cast<std::ptrdiff_t>(counted_to),
                     text.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
      counted_to = at;
      found = {depth, line};
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return found;
}

// The line of the first `token` outside strings (1 when there is none).
std::size_t line_of_token(const std::string& text, const std::string& token) {
  for (std::size_t at = 0; at < text.size(); ++at) {
    if (text[at] == '"') {
      const std::size_t end = string_end(text, at);
      if (end != std::string::npos) at = end - 1;
    } else if (text.compare(at, token.size(), token) == 0) {
      return line_at(text, at);
    }
  }
  return 1;
}

std::string not_a_number(const std::string& token) {
  return token + " is no JSON number, expected a finite number or null";
}

// NaN, Infinity or -Infinity where the parser stopped (`byte`: 1-based, its last byte read).
std::string constant_at(const std::string& text, std::size_t byte) {
  if (byte == 0 || byte > text.size()) return "";
  const std::size_t at = byte - 1;
  if (text.compare(at, 3, "NaN") == 0) return "NaN";
  if (text.compare(at, 8, "Infinity") != 0) return "";
  return at > 0 && text[at - 1] == '-' ? "-Infinity" : "Infinity";
}

StrictJson problem_at(std::size_t line, std::string what) {
  return {Json(), line, std::move(what)};
}

StrictJson parsed(const std::string& text) {
  try {
    return {Json::parse(text), 0, ""};
  } catch (const Json::parse_error& e) {
    if (const std::string constant = constant_at(text, e.byte); !constant.empty())
      return problem_at(line_at(text, e.byte - 1), not_a_number(constant));
    const std::string what = e.what();
    const auto reason = what.find(": ", what.find("parse error"));
    return problem_at(
        line_at(text, e.byte == 0 ? 0 : e.byte - 1),
        "not JSON (" + (reason == std::string::npos ? what : what.substr(reason + 2)) + ")");
  } catch (const Json::out_of_range& e) {  // a number beyond the double range: 1e400
    const std::string what = e.what();
    const auto open = what.find('\''), close = what.rfind('\'');
    const std::string token = open < close ? what.substr(open + 1, close - open - 1) : "a number";
    return problem_at(line_of_token(text, token), not_a_number(token));
  }
}

}  // namespace

StrictJson parse_strict_json(const std::string& text) {
  if (text.compare(0, 3, "\xEF\xBB\xBF") == 0)
    return problem_at(1,
                      "starts with a UTF-8 byte-order mark, expected JSON text without one "
                      "(the harness writes none)");
  if (const std::size_t bad = first_non_utf8(text); bad != std::string::npos) {
    char hex[8];
    std::snprintf(hex, sizeof hex, "%02x", static_cast<unsigned char>(text[bad]));
    return problem_at(line_at(text, bad),
                      std::string("byte 0x") + hex + " is not UTF-8, expected UTF-8 text");
  }
  // Brackets are counted first (fast), so that only a text that might be too deep is scanned.
  const auto brackets =
      std::count_if(text.begin(), text.end(), [](char c) { return c == '[' || c == '{'; });
  if (brackets > kMaxJsonDepth) {
    const Depth depth = nesting(text);
    if (depth.deepest > kMaxJsonDepth)
      return problem_at(depth.line, "nested " + std::to_string(depth.deepest) +
                                        " levels deep, expected at most " +
                                        std::to_string(kMaxJsonDepth) +
                                        " (the harness writes a few levels)");
  }
  return parsed(text);
}

}  // namespace harness

// Values echoed in error messages, cut short: a message names the offending value, it does not
// repeat a 50 MB one.
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// text itself when at most max_chars long, else its head, "..." and the full length; control
// characters are escaped (\x1b), never echoed.
std::string brief(const std::string& text, std::size_t max_chars = 80);
// The value as compact JSON, cut the same way.
std::string brief(const Json& value, std::size_t max_chars = 80);
// A whole message for the terminal: control characters but newlines escaped, nothing cut.
std::string printable(const std::string& text);
// Every run of non-blanks longer than max_chars (a huge key, value or path echoed into a
// message) cut as brief() cuts, the words around it kept.
std::string cut_long_words(const std::string& text, std::size_t max_chars = 160);

}  // namespace harness

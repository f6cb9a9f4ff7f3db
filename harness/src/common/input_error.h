// InputError: bad user input (experiment file, flags, data files). main() prints the message
// and exits with kExitInputError before any trial runs.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "common/brief.h"

namespace harness {

// Its message echoes what the user gave, so it is made safe here, once for all: control
// characters escaped (a NUL would end what() early, an escape sequence would colour the
// terminal) and any huge word (a 5,000-character key, value or path) cut.
class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message)
      : std::runtime_error(cut_long_words(printable(message))) {}
};

// Bad input found below the experiment layer (a data file, a data set too short for its
// window) that is about one settings field. The layer that knows where the field's value
// came from (a part, a sweep axis) turns `field` into a JSON pointer; see setting_pointer.h.
class SettingError : public InputError {
 public:
  SettingError(std::string field, const std::string& message)
      : InputError(message), field_(std::move(field)) {}
  const std::string& field() const { return field_; }  // dotted settings path, e.g. dataset.window

 private:
  std::string field_;
};

// Collects every problem found in one validation pass, so the user fixes them all at once.
class ErrorList {
 public:
  void add(std::string message) { messages_.push_back(std::move(message)); }
  bool empty() const { return messages_.empty(); }
  const std::vector<std::string>& messages() const { return messages_; }

  // Throws an InputError listing every message, each prefixed with `source: `.
  void throw_if_any(const std::string& source) const {
    if (messages_.empty()) return;
    std::string text;
    for (const auto& m : messages_) text += (text.empty() ? "" : "\n") + source + ": " + m;
    throw InputError(text);
  }

 private:
  std::vector<std::string> messages_;
};

}  // namespace harness

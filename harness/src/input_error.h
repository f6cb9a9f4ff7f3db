// InputError: bad user input (experiment file, flags, data files). main() prints the message
// and exits with status 2 before any trial runs.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace harness {

class InputError : public std::runtime_error {
 public:
  explicit InputError(const std::string& message) : std::runtime_error(message) {}
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

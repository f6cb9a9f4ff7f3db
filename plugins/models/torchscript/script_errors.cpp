#include "script_errors.h"

#include <c10/util/Exception.h>

#include <cstring>
#include <sstream>
#include <vector>

namespace harness::plugins {
namespace {

std::vector<std::string> nonempty_lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t") != std::string::npos) lines.push_back(line);
  return lines;
}

}  // namespace

std::string script_error_text(const std::exception& error) {
  const auto* c10_error = dynamic_cast<const c10::Error*>(&error);
  const std::string text = c10_error ? c10_error->what_without_backtrace() : error.what();
  const auto lines = nonempty_lines(text);
  if (lines.empty()) return "unknown LibTorch error";
  // The interpreter opens with its banner and a TorchScript traceback; the cause is last.
  // Python's exception names come as "builtins.RuntimeError".
  if (lines.front().find("TorchScript interpreter") != std::string::npos) {
    const std::string& cause = lines.back();
    constexpr const char* kPrefix = "builtins.";
    return cause.rfind(kPrefix, 0) == 0 ? cause.substr(std::strlen(kPrefix)) : cause;
  }
  return lines.front();
}

}  // namespace harness::plugins

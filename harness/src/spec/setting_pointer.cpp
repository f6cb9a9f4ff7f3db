#include "spec/setting_pointer.h"

#include "spec/json_path.h"

namespace harness {
namespace {

bool starts_with(const std::string& text, const std::string& prefix) {
  return text.compare(0, prefix.size(), prefix) == 0;
}

}  // namespace

std::string setting_pointer(const ExperimentPart& part, const std::string& path) {
  for (const auto& axis : part.sweep.items())
    for (const auto& swept : axis_paths(axis.key()))
      if (path == swept || starts_with(path, swept + ".") || starts_with(swept, path + "."))
        return part.pointer + "/sweep/" + axis.key();
  std::string pointer = part.pointer + "/settings/";
  for (char c : path) pointer += c == '.' ? '/' : c;
  return pointer;
}

}  // namespace harness

#include "spec/setting_pointer.h"

#include "common/starts_with.h"
#include "spec/json_path.h"

namespace harness {

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

#include "spec/setting_pointer.h"

#include <optional>
#include <vector>

#include "common/starts_with.h"
#include "spec/json_path.h"

namespace harness {
namespace {

std::string slashed(const std::string& dotted) {
  std::string pointer;
  for (char c : dotted) pointer += c == '.' ? '/' : c;
  return pointer;
}

// The entry of a sweep axis the trial took: the first whose values (one per path of a zipped
// axis) are the trial's own.
std::optional<std::size_t> entry_taken(const Json& entries, const std::vector<std::string>& paths,
                                       const Json& given) {
  if (!entries.is_array()) return std::nullopt;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const Json& entry = entries[i];
    if (paths.size() > 1 && !(entry.is_array() && entry.size() == paths.size())) continue;
    bool same = true;
    for (std::size_t k = 0; k < paths.size() && same; ++k) {
      const Json* value = find_path(given, paths[k]);
      same = value && *value == (paths.size() > 1 ? entry[k] : entry);
    }
    if (same) return i;
  }
  return std::nullopt;
}

}  // namespace

std::string setting_pointer(const ExperimentPart& part, const std::string& path,
                            const Json* given) {
  for (const auto& axis : part.sweep.items()) {
    const std::vector<std::string> paths = axis_paths(axis.key());
    for (std::size_t k = 0; k < paths.size(); ++k) {
      const std::string& swept = paths[k];
      const bool inside = starts_with(path, swept + ".");
      if (path != swept && !inside && !starts_with(swept, path + ".")) continue;
      std::string pointer = part.pointer + "/sweep/" + axis.key();
      const auto entry = given ? entry_taken(axis.value(), paths, *given) : std::nullopt;
      if (!entry) return pointer;
      pointer += "/" + std::to_string(*entry);
      if (paths.size() > 1) pointer += "/" + std::to_string(k);
      if (inside) pointer += "/" + slashed(path.substr(swept.size() + 1));
      return pointer;
    }
  }
  return part.pointer + "/settings/" + slashed(path);
}

}  // namespace harness

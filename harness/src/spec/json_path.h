// Dotted setting paths ("optimizer.lr") used by sweeps and --set, and their JSON pointers.
#pragma once

#include <string>
#include <vector>

#include "common/json.h"

namespace harness {

std::vector<std::string> split_dotted_path(const std::string& path);
// Returns nullptr when any component is missing or not an object.
const Json* find_path(const Json& root, const std::string& dotted_path);
// Creates intermediate objects as needed; fails (returns false) if a component is not an object.
bool set_path(Json& root, const std::string& dotted_path, Json value);
// Parses a --set value: JSON when it parses as JSON, otherwise the raw text as a string.
Json parse_loose_value(const std::string& text);

// The settings paths one sweep axis sets: "batch_size" or, for a zipped axis whose values
// are arrays setting several paths together, "backend, backend_params".
std::vector<std::string> axis_paths(const std::string& axis_key);

// Line and column (1-based) of a byte offset in text, for JSON parse errors.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};
TextPosition position_of(const std::string& text, std::size_t byte_offset);

}  // namespace harness

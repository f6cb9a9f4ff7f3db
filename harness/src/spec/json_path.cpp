#include "spec/json_path.h"

#include <sstream>

namespace harness {

std::vector<std::string> split_dotted_path(const std::string& path) {
  std::vector<std::string> parts;
  std::stringstream stream(path);
  std::string part;
  while (std::getline(stream, part, '.')) parts.push_back(part);
  return parts;
}

const Json* find_path(const Json& root, const std::string& dotted_path) {
  const Json* node = &root;
  for (const auto& part : split_dotted_path(dotted_path)) {
    if (!node->is_object() || !node->contains(part)) return nullptr;
    node = &(*node)[part];
  }
  return node;
}

bool set_path(Json& root, const std::string& dotted_path, Json value) {
  Json* node = &root;
  const auto parts = split_dotted_path(dotted_path);
  if (parts.empty()) return false;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    if (!node->is_object()) return false;
    if (!node->contains(parts[i])) (*node)[parts[i]] = Json::object();
    node = &(*node)[parts[i]];
  }
  if (!node->is_object()) return false;
  (*node)[parts.back()] = std::move(value);
  return true;
}

std::vector<std::string> axis_paths(const std::string& axis_key) {
  std::vector<std::string> paths;
  std::stringstream stream(axis_key);
  std::string path;
  while (std::getline(stream, path, ',')) {
    const auto first = path.find_first_not_of(' ');
    const auto last = path.find_last_not_of(' ');
    paths.push_back(first == std::string::npos ? "" : path.substr(first, last - first + 1));
  }
  return paths;
}

Json parse_loose_value(const std::string& text) {
  Json value = Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) return Json(text);
  return value;
}

TextPosition position_of(const std::string& text, std::size_t byte_offset) {
  TextPosition position;
  for (std::size_t i = 0; i < byte_offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++position.line;
      position.column = 1;
    } else {
      ++position.column;
    }
  }
  return position;
}

}  // namespace harness

#include "replay/declared_file.h"

#include <cstdint>
#include <cstdio>
#include <limits>
#include <stdexcept>

#include "common/input_error.h"
#include "harness/tune/file_formats.h"

namespace harness {
namespace {

const Json& declaration() {
  static const Json parsed = Json::parse(tune_files::kDeclaration);
  return parsed;
}

std::string printed(double value, const char* format) {
  char text[32];
  std::snprintf(text, sizeof text, format, value);
  return text;
}

// 1e+06 -> 1e6, as the Python reader writes it.
std::string exponent(double value) {
  std::string text = printed(value, "%.0e");
  for (const char* sign : {"e+0", "e+"}) {
    const auto at = text.find(sign);
    if (at != std::string::npos) text.replace(at, std::string(sign).size(), "e");
  }
  return text;
}

std::string integer_text(const Json& value) {
  return value.is_number_unsigned() ? std::to_string(value.get<std::uint64_t>())
                                    : std::to_string(value.get<std::int64_t>());
}

// What a field holds, in words: the same words as job_file.expected in Python.
std::string expected(const Json& field) {
  const std::string type = field.at("type").get<std::string>();
  std::string text;
  if (field.contains("choices")) {
    const Json& words = field["choices"];
    for (std::size_t i = 0; i < words.size(); ++i)
      text += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i].get<std::string>();
  } else if (field.contains("pattern_words")) {
    text = field["pattern_words"].get<std::string>();
  } else if (type == "integer" && field.contains("minimum")) {
    text = "a count from " + integer_text(field["minimum"]) + " to " +
           (field.contains("maximum") ? integer_text(field["maximum"])
                                      : std::to_string(std::numeric_limits<std::int64_t>::max()));
  } else if (type == "number" && field.contains("maximum")) {
    text = "seconds from " + printed(field.value("minimum", 0.0), "%g") + " to " +
           exponent(field["maximum"].get<double>());
  } else if (field.contains("above")) {
    text = "a number above " + printed(field["above"].get<double>(), "%g");
  } else {
    text = type == "integer"   ? "a whole number"
           : type == "number"  ? "a number"
           : type == "string"  ? "a string"
           : type == "boolean" ? "true or false"
                               : "an array";
  }
  return text + (field.value("nullable", false) ? " or null" : "");
}

// A value as the Python reader echoes it: compact JSON, its first 60 characters (not bytes: a
// cut never splits a UTF-8 character, which would make the message itself invalid JSON text).
std::string echoed(const Json& value) {
  const std::string text = value.dump();
  std::size_t characters = 0, end = 0;
  for (; end < text.size(); ++end) {
    const bool starts_character = (static_cast<unsigned char>(text[end]) & 0xC0) != 0x80;
    if (starts_character && characters++ == 60) break;
  }
  return text.substr(0, end);
}

bool of_type(const Json& value, const std::string& type) {
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  return value.is_array();
}

// The declared bounds, compared exactly for integers (a count past int64 is out of range).
bool within_bounds(const Json& value, const Json& field) {
  if (value.is_number_integer() && field.at("type") == "integer") {
    if (value.is_number_unsigned() && value.get<std::uint64_t>() > static_cast<std::uint64_t>(
                                          std::numeric_limits<std::int64_t>::max()))
      return false;
    const std::int64_t x = value.get<std::int64_t>();
    return !(field.contains("minimum") && x < field["minimum"].get<std::int64_t>()) &&
           !(field.contains("maximum") && x > field["maximum"].get<std::int64_t>());
  }
  const double x = value.get<double>();
  return !(field.contains("minimum") && x < field["minimum"].get<double>()) &&
         !(field.contains("maximum") && x > field["maximum"].get<double>()) &&
         !(field.contains("above") && !(x > field["above"].get<double>()));
}

bool fits(const Json& value, const Json& field) {
  if (value.is_null()) return field.value("nullable", false);
  if (!of_type(value, field.at("type").get<std::string>())) return false;
  if (field.contains("pattern"))
    throw std::logic_error("file_formats.json: the C++ reader checks no \"pattern\"");
  if (field.contains("choices")) {
    for (const Json& choice : field["choices"])
      if (choice == value) return true;
    return false;
  }
  return !value.is_number() || within_bounds(value, field);
}

class ObjectCheck {
 public:
  ObjectCheck(const std::string& path, const Json& root) : path_(path), root_(root) {}

  void object(const Json& document, const std::string& kind, const std::string& where) const {
    if (!document.is_object())
      throw InputError(path_ + ": " + (where.empty() ? "the document" : "field \"" + where + "\"") +
                       " is not a JSON object");
    for (const auto& [name, field] : declaration().at(kind).at("fields").items()) {
      const std::string at = where.empty() ? name : where + "." + name;
      const auto found = document.find(name);
      if (found == document.end()) {
        if (field.value("optional", false)) continue;
        fail(at, "is missing (expected " + expected(field) + ": " +
                     field.at("meaning").get<std::string>() + ")");
      }
      if (!fits(*found, field)) fail(at, "is " + echoed(*found) + ", expected " + expected(field));
      if (found->is_array()) array(*found, field, at);
    }
  }

 private:
  void array(const Json& value, const Json& field, const std::string& at) const {
    if (value.size() < field.value("min_items", std::size_t{0}))
      fail(at, "is empty: " + field.at("empty").get<std::string>());
    if (field.contains("length_of")) {
      const std::string other = field["length_of"].get<std::string>();
      if (value.size() != root_.at(other).size())
        fail(at, "has " + std::to_string(value.size()) + " entries for " +
                     std::to_string(root_.at(other).size()) + " " + other);
    }
    if (!field.contains("items")) return;
    const Json& items = field["items"];
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (items.is_string())
        object(value[i], items.get<std::string>(), at + "[" + std::to_string(i) + "]");
      else if (!fits(value[i], items))
        fail(at, "holds " + echoed(value[i]) + ", expected " + expected(items));
    }
  }

  [[noreturn]] void fail(const std::string& field, const std::string& problem) const {
    throw InputError(path_ + ": field \"" + field + "\" " + problem);
  }

  const std::string& path_;
  const Json& root_;
};

}  // namespace

Json checked_declared_file(const Json& document, const std::string& name, const std::string& path) {
  const Json& declared = declaration().at(name);
  if (!document.is_object()) throw InputError(path + ": not a JSON object");
  Json filled = document;
  const std::string version_field = declared.at("version_field").get<std::string>();
  const auto version = document.find(version_field);
  if (version != document.end() && version->is_number_integer()) {
    if (*version > declared.at("version"))
      throw InputError(path + ": field \"" + version_field + "\" is " + version->dump() +
                       ", newer than this reader's " + declared["version"].dump() +
                       ": use a newer harness");
    for (const auto& [field_name, field] : declared.at("fields").items())
      if (field.contains("since") && *version < field["since"][0] && !filled.contains(field_name))
        filled[field_name] = field["since"][1];
  }
  ObjectCheck(path, filled).object(filled, name, "");
  return filled;
}

std::vector<std::string> declared_choices(const std::string& object, const std::string& field) {
  return declaration().at(object).at("fields").at(field).at("choices").get<std::vector<std::string>>();
}

}  // namespace harness

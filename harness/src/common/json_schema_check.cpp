#include "common/json_schema_check.h"

#include <set>
#include <stdexcept>

namespace harness {
namespace {

const std::set<std::string>& known_keywords() {
  static const std::set<std::string> keywords = {
      "$schema", "$id", "title", "description", "$defs", "type", "const", "enum",
      "properties", "required", "additionalProperties", "items", "minItems", "maxItems",
      "allOf", "if", "then", "$ref"};
  return keywords;
}

bool has_type(const Json& value, const std::string& type) {
  if (type == "null") return value.is_null();
  if (type == "boolean") return value.is_boolean();
  if (type == "integer") return value.is_number_integer();
  if (type == "number") return value.is_number();
  if (type == "string") return value.is_string();
  if (type == "array") return value.is_array();
  if (type == "object") return value.is_object();
  throw std::invalid_argument("schema: unknown type \"" + type + "\"");
}

class Checker {
 public:
  Checker(const Json& root, SchemaCheck completeness)
      : root_(root), complete_(completeness == SchemaCheck::kComplete) {}

  // Whether the value conforms; problems go to `out` when it is given.
  bool check(const Json& schema, const Json& value, const std::string& at,
             std::vector<std::string>* out) {
    for (const auto& [keyword, _] : schema.items())
      if (!known_keywords().count(keyword))
        throw std::invalid_argument("schema: keyword \"" + keyword + "\" is not checked");
    const std::size_t before = out ? out->size() : 0;
    if (!check_type(schema, value, at, out)) return false;
    bool ok = check_values(schema, value, at, out);
    ok = check_object(schema, value, at, out) && ok;
    ok = check_array(schema, value, at, out) && ok;
    ok = check_combined(schema, value, at, out) && ok;
    return ok && (!out || out->size() == before);
  }

 private:
  static bool fail(std::vector<std::string>* out, const std::string& at, const std::string& what) {
    if (out) out->push_back((at.empty() ? "/" : at) + ": " + what);
    return false;
  }

  bool check_type(const Json& schema, const Json& value, const std::string& at,
                  std::vector<std::string>* out) {
    if (!schema.contains("type")) return true;
    const Json& type = schema["type"];
    if (type.is_string()) {
      if (has_type(value, type)) return true;
      return fail(out, at, value.dump() + " is not of type " + type.get<std::string>());
    }
    for (const Json& one : type)
      if (has_type(value, one)) return true;
    return fail(out, at, value.dump() + " is not of type " + type.dump());
  }

  bool check_values(const Json& schema, const Json& value, const std::string& at,
                    std::vector<std::string>* out) {
    if (schema.contains("const") && value != schema["const"])
      return fail(out, at, value.dump() + ", expected " + schema["const"].dump());
    if (!schema.contains("enum")) return true;
    for (const Json& allowed : schema["enum"])
      if (value == allowed) return true;
    return fail(out, at, value.dump() + ", expected one of " + schema["enum"].dump());
  }

  bool check_object(const Json& schema, const Json& value, const std::string& at,
                    std::vector<std::string>* out) {
    if (!value.is_object()) return true;
    bool ok = true;
    for (const Json& key : complete_ ? schema.value("required", Json::array()) : Json::array())
      if (!value.contains(key.get<std::string>()))
        ok = fail(out, at, "\"" + key.get<std::string>() + "\" is missing");
    const Json properties = schema.value("properties", Json::object());
    const bool closed = schema.value("additionalProperties", true) == false;
    for (const auto& [key, member] : value.items()) {
      if (properties.contains(key))
        ok = check(properties[key], member, at + "/" + key, out) && ok;
      else if (closed && complete_)
        ok = fail(out, at, "\"" + key + "\" is not a declared field");
    }
    return ok;
  }

  bool check_array(const Json& schema, const Json& value, const std::string& at,
                   std::vector<std::string>* out) {
    if (!value.is_array()) return true;
    bool ok = true;
    if (schema.contains("minItems") && value.size() < schema["minItems"].get<std::size_t>())
      ok = fail(out, at, "fewer than " + schema["minItems"].dump() + " items");
    if (schema.contains("maxItems") && value.size() > schema["maxItems"].get<std::size_t>())
      ok = fail(out, at, "more than " + schema["maxItems"].dump() + " items");
    if (!schema.contains("items")) return ok;
    for (std::size_t i = 0; i < value.size(); ++i)
      ok = check(schema["items"], value[i], at + "/" + std::to_string(i), out) && ok;
    return ok;
  }

  bool check_combined(const Json& schema, const Json& value, const std::string& at,
                      std::vector<std::string>* out) {
    bool ok = true;
    for (const Json& part : schema.value("allOf", Json::array()))
      ok = check(part, value, at, out) && ok;
    // The condition is the schema's as written, whatever this check leaves out.
    if (schema.contains("if") && schema.contains("then") &&
        Checker(root_, SchemaCheck::kComplete).check(schema["if"], value, at, nullptr))
      ok = check(schema["then"], value, at, out) && ok;
    if (schema.contains("$ref")) ok = check(resolve(schema["$ref"]), value, at, out) && ok;
    return ok;
  }

  const Json& resolve(const Json& ref) const {
    const std::string prefix = "#/$defs/", text = ref.get<std::string>();
    if (text.rfind(prefix, 0) != 0 || !root_.contains("$defs") ||
        !root_["$defs"].contains(text.substr(prefix.size())))
      throw std::invalid_argument("schema: cannot resolve $ref " + text);
    return root_["$defs"][text.substr(prefix.size())];
  }

  const Json& root_;
  bool complete_;
};

}  // namespace

std::vector<std::string> schema_problems(const Json& schema, const Json& value, SchemaCheck check) {
  std::vector<std::string> problems;
  Checker(schema, check).check(schema, value, "", &problems);
  return problems;
}

}  // namespace harness

#include "spec/schema.h"

#include <cmath>
#include <set>
#include <sstream>

#include "common/brief.h"
#include "common/starts_with.h"
#include "spec/did_you_mean.h"
#include "spec/json_path.h"

namespace harness {
namespace {

const FieldSpec* find_spec(const Schema& schema, const std::string& path) {
  for (const auto& spec : schema)
    if (spec.path == path) return &spec;
  return nullptr;
}

// Is `path` an object made of schema fields (i.e. some spec lives below it)?
bool is_object_path(const Schema& schema, const std::string& path) {
  for (const auto& spec : schema)
    if (starts_with(spec.path, path + ".")) return true;
  return false;
}

// The immediate child keys of an object path ("" = top level).
std::vector<std::string> child_keys(const Schema& schema, const std::string& path) {
  std::set<std::string> keys;
  const std::string prefix = path.empty() ? "" : path + ".";
  for (const auto& spec : schema) {
    if (!starts_with(spec.path, prefix)) continue;
    const std::string rest = spec.path.substr(prefix.size());
    keys.insert(rest.substr(0, rest.find('.')));
  }
  return {keys.begin(), keys.end()};
}

std::string format_number(double v) {
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  std::ostringstream out;
  out << v;
  return out.str();
}

std::string range_text(const FieldSpec& spec) {
  const bool has_min = !std::isinf(spec.min), has_max = !std::isinf(spec.max);
  if (!has_min && !has_max) return "";
  if (has_min && !has_max)
    return spec.min_exclusive ? " > " + format_number(spec.min) : " >= " + format_number(spec.min);
  return std::string(" in ") + (spec.min_exclusive ? "(" : "[") + format_number(spec.min) + ", " +
         format_number(spec.max) + "]";
}

std::string choices_text(const FieldSpec& spec) {
  std::string text;
  for (const auto& c : spec.choices) text += (text.empty() ? "\"" : ", \"") + c + "\"";
  return text;
}

std::string expectation(const FieldSpec& spec) {
  switch (spec.type) {
    case FieldType::kInteger: return "an integer" + range_text(spec);
    case FieldType::kNumber: return "a number" + range_text(spec);
    case FieldType::kNumberOrNull: return "null or a number" + range_text(spec);
    case FieldType::kString:
      return spec.choices.empty() ? "a string" : "one of " + choices_text(spec);
    case FieldType::kBoolean: return "true or false";
    case FieldType::kStringList: return "an array of strings";
    case FieldType::kIntegerList: return "an array of integers" + range_text(spec);
    case FieldType::kFreeObject: return "an object";
    case FieldType::kObjectList: return "an array of objects";
  }
  return "?";
}

bool in_range(const FieldSpec& spec, double v) {
  if (spec.min_exclusive ? v <= spec.min : v < spec.min) return false;
  return v <= spec.max;
}

bool value_matches(const FieldSpec& spec, const Json& value) {
  switch (spec.type) {
    case FieldType::kInteger:
      return value.is_number_integer() && in_range(spec, value.get<double>());
    case FieldType::kNumber: return value.is_number() && in_range(spec, value.get<double>());
    case FieldType::kNumberOrNull:
      return value.is_null() || (value.is_number() && in_range(spec, value.get<double>()));
    case FieldType::kString: {
      if (!value.is_string()) return false;
      if (spec.choices.empty()) return true;
      for (const auto& c : spec.choices)
        if (c == value.get<std::string>()) return true;
      return false;
    }
    case FieldType::kBoolean: return value.is_boolean();
    case FieldType::kStringList: {
      if (!value.is_array()) return false;
      for (const auto& item : value)
        if (!item.is_string()) return false;
      return true;
    }
    case FieldType::kIntegerList: {
      if (!value.is_array()) return false;
      for (const auto& item : value)
        if (!item.is_number_integer() || !in_range(spec, item.get<double>())) return false;
      return true;
    }
    case FieldType::kFreeObject: return value.is_object();
    case FieldType::kObjectList: {
      if (!value.is_array()) return false;
      for (const auto& item : value)
        if (!item.is_object()) return false;
      return true;
    }
  }
  return false;
}

void check_field(const FieldSpec& spec, const Json& value, const std::string& pointer,
                 ErrorList& errors) {
  if (value_matches(spec, value)) return;
  std::string message = pointer + ": expected " + expectation(spec) + ", got " + brief(value);
  if (spec.type == FieldType::kString && value.is_string() && !spec.choices.empty())
    message += did_you_mean(value.get<std::string>(), spec.choices);
  errors.add(message);
}

}  // namespace

void validate_object(const Schema& schema, const std::string& dotted_prefix, const Json& value,
                     const std::string& pointer, bool check_required, ErrorList& errors) {
  if (!value.is_object()) {
    errors.add(pointer + ": expected an object, got " + brief(value));
    return;
  }
  const auto keys = child_keys(schema, dotted_prefix);
  for (const auto& item : value.items()) {
    const std::string path = dotted_prefix.empty() ? item.key() : dotted_prefix + "." + item.key();
    const std::string child_pointer = pointer + "/" + item.key();
    if (const FieldSpec* spec = find_spec(schema, path)) {
      check_field(*spec, item.value(), child_pointer, errors);
    } else if (is_object_path(schema, path)) {
      validate_object(schema, path, item.value(), child_pointer, check_required, errors);
    } else {
      errors.add(child_pointer + ": unknown key \"" + item.key() + "\"" +
                 did_you_mean(item.key(), keys));
    }
  }
  if (!check_required) return;
  for (const auto& key : keys) {
    const std::string path = dotted_prefix.empty() ? key : dotted_prefix + "." + key;
    const FieldSpec* spec = find_spec(schema, path);
    if (spec && spec->default_value.is_null() && spec->type != FieldType::kNumberOrNull &&
        !value.contains(key))
      errors.add(pointer + ": missing required key \"" + key + "\" (" + expectation(*spec) + ")");
  }
}

void validate_value_at(const Schema& schema, const std::string& path, const Json& value,
                       const std::string& pointer, ErrorList& errors) {
  if (const FieldSpec* spec = find_spec(schema, path)) {
    check_field(*spec, value, pointer, errors);
  } else if (is_object_path(schema, path)) {
    validate_object(schema, path, value, pointer, /*check_required=*/false, errors);
  }
}

bool schema_has_path(const Schema& schema, const std::string& path) {
  if (find_spec(schema, path) || is_object_path(schema, path)) return true;
  for (const auto& spec : schema)
    if (spec.type == FieldType::kFreeObject && starts_with(path, spec.path + ".")) return true;
  return false;
}

void deep_merge(Json& base, const Json& overlay) {
  if (!base.is_object() || !overlay.is_object()) {
    base = overlay;
    return;
  }
  for (const auto& item : overlay.items()) {
    if (base.contains(item.key()) && base[item.key()].is_object() && item.value().is_object())
      deep_merge(base[item.key()], item.value());
    else
      base[item.key()] = item.value();
  }
}

Json with_defaults(const Schema& schema, const Json& user_values) {
  Json resolved = Json::object();
  for (const auto& spec : schema)
    if (!spec.default_value.is_null() || spec.type == FieldType::kNumberOrNull)
      set_path(resolved, spec.path, spec.default_value);
  if (!user_values.is_null()) deep_merge(resolved, user_values);
  return resolved;
}

std::string schema_reference_markdown(const Schema& schema) {
  std::ostringstream out;
  out << "| field | type | default | meaning |\n|---|---|---|---|\n";
  for (const auto& spec : schema) {
    std::string def = spec.default_value.is_null()
                          ? (spec.type == FieldType::kNumberOrNull ? "null" : "required")
                          : spec.default_value.dump();
    out << "| `" << spec.path << "` | " << expectation(spec) << " | `" << def << "` | " << spec.help
        << " |\n";
  }
  return out.str();
}

}  // namespace harness

// Walks a declaration (record/record_field.h) and lists its fields, one row each with its full
// path, type, unit, presence and meaning: what the references in docs/ and the JSON Schemas
// are made from (record/record_reference.h, record/field_schema.h).
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/json.h"
#include "common/type_traits.h"
#include "record/record_field.h"

namespace harness {

struct DeclaredField {
  std::string path;  // dotted; "points[]." for each element of an array of objects
  std::string type;  // as the reference says it: "number or null", "array of integers"
  std::string unit;  // "" when the value has none
  std::string when;  // "": whenever its parent is (at the top: in every ok record); else when
  std::string meaning;
  Json schema;           // the value's JSON Schema ({"type": ...}), null allowed where it may be
  bool required = true;  // there whenever its parent is
};

// The reference's word for a value of type T, and its JSON Schema type.
template <typename T>
std::pair<std::string, Json> type_of() {
  if constexpr (IsOptional<T>::value) {
    return type_of<typename T::value_type>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return {"boolean", {{"type", "boolean"}}};
  } else if constexpr (std::is_integral_v<T>) {
    return {"integer", {{"type", "integer"}}};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {"number", {{"type", "number"}}};
  } else if constexpr (std::is_same_v<T, Json>) {
    return {"object", {{"type", "object"}}};
  } else if constexpr (IsVector<T>::value) {
    if constexpr (std::is_same_v<typename T::value_type, std::string>)
      return {"array of strings", {{"type", "array"}, {"items", {{"type", "string"}}}}};
    // A figure that is not finite (a diverged loss) is written as null.
    const bool integers = std::is_integral_v<typename T::value_type>;
    return {integers ? "array of integers" : "array of numbers",
            {{"type", "array"},
             {"items", {{"type", integers ? Json("integer") : Json::array({"number", "null"})}}}}};
  } else {
    return {"string", {{"type", "string"}}};  // text, and the status
  }
}

// Collects one row per declared field, with its full path and when it is there.
class FieldCollector {
 public:
  explicit FieldCollector(std::vector<DeclaredField>* rows) : rows_(rows) {}

  template <typename T>
  void field(T&, const FieldText& text) {
    add(text, type_of<T>());
  }

  void interval(double&, double&, const FieldText& text) {
    add(text, {"array of numbers",
               {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 2}, {"maxItems", 2}}});
  }

  template <typename Part>
  void object(Part&, const FieldText& text) {
    add(text, {"object", {{"type", "object"}}});
    typename Unwrapped<Part>::type sample{};
    inside(text, "", [&] { visit(*this, sample); });
  }

  template <typename Parts>
  void objects(Parts&, const FieldText& text) {
    add(text, {"array of objects", {{"type", "array"}, {"items", {{"type", "object"}}}}});
    typename Unwrapped<Parts>::type::value_type sample{};
    inside(text, "[]", [&] { visit(*this, sample); });
  }

  template <typename Declare>
  void group(const FieldText& text, Declare declare) {
    add(text, {"object", {{"type", "object"}}});
    inside(text, "", declare);
  }

  template <typename Part, typename Declare>
  void inline_part(std::optional<Part>&, Declare declare) {
    Part sample{};
    declare(sample);
  }

  template <typename Compute>
  void derived(Compute compute, const FieldText& text) {
    add(text, type_of<std::decay_t<decltype(compute())>>());
  }

 private:
  void add(const FieldText& text, std::pair<std::string, Json> type) {
    DeclaredField row;
    row.path = prefix_ + text.name;
    row.type = std::move(type.first);
    row.schema = std::move(type.second);
    if (text.presence == Presence::kNullable) {
      row.type += " or null";
      row.schema["type"] = Json::array({row.schema["type"], "null"});
    }
    row.unit = text.unit;
    row.when = text.presence == Presence::kWhen ? text.when : condition_;
    row.meaning = text.meaning;
    row.required = text.presence != Presence::kWhen;
    rows_->push_back(std::move(row));
  }

  // Fields inside `text`'s object (or its array's elements) are there when it is.
  template <typename Declare>
  void inside(const FieldText& text, const char* array_mark, Declare declare) {
    const std::string outer_prefix = prefix_, outer_condition = condition_;
    const std::string path = prefix_ + text.name;
    if (text.presence == Presence::kWhen) condition_ = text.when;
    if (text.presence == Presence::kNullable) condition_ = path + " is not null";
    prefix_ = path + array_mark + ".";
    declare();
    prefix_ = outer_prefix;
    condition_ = outer_condition;
  }

  std::vector<DeclaredField>* rows_;
  std::string prefix_;
  std::string condition_;
};

// The rows as the references and schemas take them.
inline std::vector<const DeclaredField*> pointers_to(const std::vector<DeclaredField>& rows) {
  std::vector<const DeclaredField*> out;
  for (const DeclaredField& row : rows) out.push_back(&row);
  return out;
}

template <typename Record>
std::vector<DeclaredField> rows_of() {
  std::vector<DeclaredField> rows;
  FieldCollector collector(&rows);
  Record sample{};
  visit(collector, sample);
  return rows;
}

// A document's rows (search.json's, meta.json's), collected once, as the references and
// schemas take them.
template <typename Document>
std::vector<const DeclaredField*> declared_rows() {
  static const std::vector<DeclaredField> rows = rows_of<Document>();
  return pointers_to(rows);
}

}  // namespace harness

// One declaration per setting: its dotted name, the typed field it fills, its range or its
// words, and its help. The field gives the rest: the JSON type follows from its C++ type and
// the default is the struct's member initialiser, read from a default-constructed struct, so
// no fact about a setting is written twice. Validation, default filling, --set and the
// experiment reference use the derived schema; trial code reads the parsed struct.
//
//   SettingsTable<Mine> table;
//   table.add("batch_size", &Mine::batch_size, "samples per rank per step", {1, 1e7})
//        .add_choice("lr_rule", &Mine::lr_rule, kLrRules, "learning-rate scaling")
//        .add_part("optimizer", &Mine::optimizer, optimizer_table);
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/json.h"
#include "common/type_traits.h"
#include "spec/enum_choice.h"
#include "spec/json_path.h"
#include "spec/schema.h"

namespace harness {

// A numeric setting's allowed range; min_exclusive makes it (min, max].
struct Bounds {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_exclusive = false;
};

namespace settings_detail {

// The schema type of a typed field; a type with no entry here fails to compile.
template <class Field>
constexpr FieldType field_type() {
  if constexpr (std::is_same_v<Field, bool>)
    return FieldType::kBoolean;
  else if constexpr (std::is_integral_v<Field>)
    return FieldType::kInteger;
  else if constexpr (std::is_floating_point_v<Field>)
    return FieldType::kNumber;
  else if constexpr (IsOptional<Field>::value) {
    static_assert(std::is_arithmetic_v<typename Field::value_type>, "optional number only");
    return FieldType::kNumberOrNull;
  } else if constexpr (std::is_same_v<Field, std::string>)
    return FieldType::kString;
  else if constexpr (std::is_same_v<Field, Json>)
    return FieldType::kFreeObject;
  else if constexpr (std::is_same_v<Field, std::vector<std::string>>)
    return FieldType::kStringList;
  else {
    static_assert(std::is_same_v<Field, std::vector<std::uint64_t>>,
                  "no schema type for this field");
    return FieldType::kIntegerList;
  }
}

template <class Field>
Json to_json(const Field& value) {
  if constexpr (IsOptional<Field>::value)
    return value ? Json(*value) : Json(nullptr);
  else
    return Json(value);
}

template <class Field>
Field from_json(const Json& value) {
  if constexpr (IsOptional<Field>::value) {
    if (value.is_null()) return std::nullopt;
    return value.get<typename Field::value_type>();
  } else {
    return value.get<Field>();
  }
}

}  // namespace settings_detail

template <class Settings>
class SettingsTable {
 public:
  // A field whose JSON value maps straight onto its C++ type.
  template <class Field>
  SettingsTable& add(std::string path, Field Settings::*member, std::string help,
                     Bounds bounds = {}) {
    Row row;
    row.spec = spec(std::move(path), settings_detail::field_type<Field>(), bounds, std::move(help));
    row.read = [member](Settings& s, const Json& v) {
      s.*member = settings_detail::from_json<Field>(v);
    };
    row.write = [member](const Settings& s) {
      return settings_detail::to_json(s.*member);
    };
    return push(std::move(row));
  }

  // A field holding one of a fixed set of words, stored as its enum.
  template <class Enum, std::size_t N>
  SettingsTable& add_choice(std::string path, Enum Settings::*member,
                            const EnumChoice<Enum> (&choices)[N], std::string help) {
    Row row;
    row.spec = spec(path, FieldType::kString, {}, std::move(help));
    row.spec.choices = choice_words(choices);
    const EnumChoice<Enum>(*table)[N] = &choices;
    row.read = [member, table, path](Settings& s, const Json& v) {
      s.*member = parse_choice(path, v.get<std::string>(), *table);
    };
    row.write = [member, table](const Settings& s) {
      return Json(choice_word(s.*member, *table));
    };
    return push(std::move(row));
  }

  // Marks the row added last as one the user must give: its schema has no default.
  SettingsTable& required() {
    rows_.back().spec.default_value = nullptr;
    return *this;
  }

  // Every row of `part`'s table, under `prefix` ("" keeps the part's names at this level),
  // filling the struct member that holds the part. The defaults are this struct's.
  template <class Part>
  SettingsTable& add_part(const std::string& prefix, Part Settings::*member,
                          const SettingsTable<Part>& part) {
    for (const auto& inner : part.rows()) {
      Row row;
      row.spec = inner.spec;
      if (!prefix.empty()) row.spec.path = prefix + "." + inner.spec.path;
      row.read = [member, read = inner.read](Settings& s, const Json& v) {
        read(s.*member, v);
      };
      row.write = [member, write = inner.write](const Settings& s) {
        return write(s.*member);
      };
      push(std::move(row));
    }
    return *this;
  }

  Schema schema() const {
    Schema schema;
    for (const auto& row : rows_) schema.push_back(row.spec);
    return schema;
  }

  // From validated, defaults-filled settings: every declared path is there.
  Settings parse(const Json& filled) const {
    Settings settings;
    for (const auto& row : rows_) {
      const Json* value = find_path(filled, row.spec.path);
      if (value == nullptr) throw std::logic_error("settings lack " + row.spec.path);
      row.read(settings, *value);
    }
    return settings;
  }

  // The settings as the nested JSON object they were parsed from.
  Json to_json(const Settings& settings) const {
    Json out = Json::object();
    for (const auto& row : rows_) set_path(out, row.spec.path, row.write(settings));
    return out;
  }

  struct Row {
    FieldSpec spec;
    std::function<void(Settings&, const Json&)> read;
    std::function<Json(const Settings&)> write;
  };
  const std::vector<Row>& rows() const { return rows_; }

 private:
  static FieldSpec spec(std::string path, FieldType type, Bounds bounds, std::string help) {
    FieldSpec spec;
    spec.path = std::move(path);
    spec.type = type;
    spec.min = bounds.min;
    spec.max = bounds.max;
    spec.min_exclusive = bounds.min_exclusive;
    spec.help = std::move(help);
    return spec;
  }

  SettingsTable& push(Row row) {
    row.spec.default_value = row.write(Settings{});
    rows_.push_back(std::move(row));
    return *this;
  }

  std::vector<Row> rows_;
};

}  // namespace harness

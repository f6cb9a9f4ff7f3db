// Writes the fields a declaration names (record/record_field.h) into one JSON object, in
// declaration order: the trial record's writer (record/record_json.h), and search.json's.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <utility>

#include "common/json.h"
#include "common/type_traits.h"
#include "record/record_field.h"
#include "record/trial_status.h"

namespace harness {

// Writes the fields a declaration names into one JSON object, in declaration order.
class JsonWriter {
 public:
  template <typename T>
  void field(const T& value, const FieldText& text) {
    if constexpr (IsOptional<T>::value) {
      if (!value) return absent(text);
      field(*value, text);
    } else if constexpr (std::is_same_v<T, TrialStatus>) {
      put(text, trial_status_name(value));
    } else if constexpr (std::is_same_v<T, Json> || IsVector<T>::value) {
      if (text.presence == Presence::kWhen && value.empty()) return;  // null Json is empty
      put(text, Json(value));
    } else {
      put(text, Json(value));
    }
  }

  void field(const std::string& value, const FieldText& text) {
    if (text.presence == Presence::kWhen && value.empty()) return;
    put(text, value);
  }

  void interval(double low, double high, const FieldText& text) { put(text, Json{low, high}); }

  template <typename Part>
  void object(const Part& part, const FieldText& text) {
    if constexpr (IsOptional<Part>::value) {
      if (!part) return absent(text);
      object(*part, text);
    } else {
      put(text, write_part(part));
    }
  }

  template <typename Parts>
  void objects(const Parts& parts, const FieldText& text) {
    if constexpr (IsOptional<Parts>::value) {
      if (!parts) return absent(text);
      objects(*parts, text);
    } else {
      Json array = Json::array();
      for (const auto& part : parts) array.push_back(write_part(part));
      put(text, std::move(array));
    }
  }

  template <typename Declare>
  void group(const FieldText& text, Declare declare) {
    Json outer = std::exchange(out_, Json::object());
    declare();
    Json inner = std::exchange(out_, std::move(outer));
    put(text, std::move(inner));
  }

  template <typename Part, typename Declare>
  void inline_part(const std::optional<Part>& part, Declare declare) {
    if (part) declare(*part);
  }

  template <typename Compute>
  void derived(Compute compute, const FieldText& text) {
    field(compute(), text);
  }

  Json take() { return std::move(out_); }

 private:
  template <typename Part>
  static Json write_part(const Part& part) {
    JsonWriter writer;
    visit(writer, part);
    return writer.take();
  }

  void absent(const FieldText& text) {
    if (text.presence == Presence::kNullable) put(text, Json());
  }

  void put(const FieldText& text, Json value) { out_[text.name] = std::move(value); }

  Json out_ = Json::object();
};

// The JSON of a part that has a `visit` declaration.
template <typename Part>
Json written(const Part& part) {
  JsonWriter writer;
  visit(writer, part);
  return writer.take();
}

}  // namespace harness

// Fills the typed parts a declaration names (record/record_field.h) from one JSON object: the
// trial record's reader (record/record_reader.h) and meta.json's (run/run_meta_json.h).
//
// Reading is lenient where a document is merely incomplete: a field that is missing, null or of
// another type reads as unset (or zero). Only a trial status must be one this harness knows.
#pragma once

#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "common/input_error.h"
#include "common/json.h"
#include "common/type_traits.h"
#include "record/record_field.h"
#include "record/trial_status.h"

namespace harness {
namespace field_reading {

inline TrialStatus status_from(const Json& value) {
  const auto parsed =
      value.is_string() ? parse_trial_status(value.get<std::string>()) : std::nullopt;
  if (!parsed)
    throw InputError("status is " + (value.is_null() ? std::string("missing") : value.dump()) +
                     ", expected one of " + trial_status_names());
  return *parsed;
}

// A value of type T from `value`, or nothing when it is not one.
template <typename T>
std::optional<T> value_as(const Json& value) {
  if constexpr (std::is_same_v<T, bool>) {
    if (value.is_boolean()) return value.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (value.is_string()) return value.get<std::string>();
  } else if constexpr (std::is_integral_v<T>) {
    if (value.is_number_integer()) return value.get<T>();
    if (value.is_number()) return static_cast<T>(value.get<double>());
  } else if constexpr (std::is_floating_point_v<T>) {
    if (value.is_number()) return value.get<T>();
  } else if constexpr (IsVector<T>::value) {
    if (!value.is_array()) return std::nullopt;
    T values;
    for (const Json& element : value)
      if (auto item = value_as<typename T::value_type>(element)) values.push_back(*item);
    return values;
  }
  return std::nullopt;
}

// Fills the members a declaration names from one JSON object.
class JsonReader {
 public:
  explicit JsonReader(const Json& in) : in_(in.is_object() ? &in : &no_fields()) {}

  template <typename T>
  void field(T& value, const FieldText& text) {
    const Json& found = member(text.name);
    if constexpr (std::is_same_v<T, TrialStatus>) {
      value = status_from(found);
    } else if constexpr (std::is_same_v<T, Json>) {
      if (found.is_object() || found.is_array()) value = found;
      else value = text.presence == Presence::kNullable ? Json() : Json::object();
    } else if constexpr (IsOptional<T>::value) {
      value = value_as<typename T::value_type>(found);
    } else if (auto read = value_as<T>(found)) {
      value = *read;
    }
  }

  void interval(double& low, double& high, const FieldText& text) {
    const auto ends = value_as<std::vector<double>>(member(text.name));
    if (ends && ends->size() == 2) low = (*ends)[0], high = (*ends)[1];
  }

  template <typename Part>
  void object(Part& part, const FieldText& text) {
    const Json& found = member(text.name);
    if constexpr (IsOptional<Part>::value) {
      if (!found.is_object()) return part.reset();
      read_part(found, part.emplace());
    } else {
      read_part(found, part);
    }
  }

  template <typename Parts>
  void objects(Parts& parts, const FieldText& text) {
    const Json& found = member(text.name);
    if (!found.is_array()) return;
    auto& list = list_of(parts);
    for (const Json& element : found)
      if (element.is_object()) read_part(element, list.emplace_back());
  }

  template <typename Declare>
  void group(const FieldText& text, Declare declare) {
    const Json& outer = *in_;
    in_ = &member(text.name);
    if (!in_->is_object()) in_ = &no_fields();
    declare();
    in_ = &outer;
  }

  // The part is there when any of its fields is.
  template <typename Part, typename Declare>
  void inline_part(std::optional<Part>& part, Declare declare) {
    const int before = found_;
    declare(part.emplace());
    if (found_ == before) part.reset();
  }

  template <typename Compute>
  void derived(Compute, const FieldText&) {}

 private:
  template <typename Part>
  static void read_part(const Json& in, Part& part) {
    JsonReader reader(in);
    visit(reader, part);
  }

  template <typename Parts>
  static auto& list_of(Parts& parts) {
    if constexpr (IsOptional<Parts>::value) return parts.emplace();
    else return parts;
  }

  const Json& member(const char* key) {
    static const Json missing;
    const auto found = in_->find(key);
    if (found == in_->end()) return missing;
    if (!found->is_null()) ++found_;
    return *found;
  }

  static const Json& no_fields() {
    static const Json none = Json::object();
    return none;
  }

  const Json* in_;
  int found_ = 0;
};

}  // namespace field_reading

// The part of type Part that `json` holds (an empty part when it is not an object).
template <typename Part>
Part read_declared(const Json& json) {
  Part part{};
  field_reading::JsonReader reader(json);
  visit(reader, part);
  return part;
}

}  // namespace harness

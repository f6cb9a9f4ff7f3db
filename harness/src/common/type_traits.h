// Compile-time questions the typed tables ask of a member's type (spec/settings_table.h,
// record/record_declaration.h).
#pragma once

#include <optional>
#include <type_traits>
#include <vector>

namespace harness {

template <class T>
struct IsOptional : std::false_type {};
template <class T>
struct IsOptional<std::optional<T>> : std::true_type {};

template <class T>
struct IsVector : std::false_type {};
template <class T>
struct IsVector<std::vector<T>> : std::true_type {};

// T, or what an optional T holds.
template <class T>
struct Unwrapped {
  using type = T;
};
template <class T>
struct Unwrapped<std::optional<T>> {
  using type = T;
};

}  // namespace harness

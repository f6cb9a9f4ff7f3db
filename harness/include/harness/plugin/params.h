// Strict reading of a plugin's JSON parameters. Errors name the JSON pointer relative to the
// params object ("/hidden/1: expected ..."); the host prefixes the pointer of the object itself.
#pragma once

#include <nlohmann/json.hpp>

#include <initializer_list>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace harness::plugin {

class Params {
 public:
  // known: every key the plugin understands; any other key is an error.
  Params(const nlohmann::json& params, std::initializer_list<const char*> known) : params_(params) {
    std::set<std::string> known_keys(known.begin(), known.end());
    for (const auto& item : params_.items()) {
      if (!known_keys.count(item.key())) {
        std::string list;
        for (const auto& k : known_keys) list += (list.empty() ? "" : ", ") + k;
        throw std::invalid_argument("/" + item.key() + ": unknown parameter (known: " + list + ")");
      }
    }
  }

  bool has(const char* key) const { return params_.contains(key); }

  long long integer(const char* key, long long fallback, long long min, long long max) const {
    if (!has(key)) return fallback;
    return checked_integer(params_.at(key), std::string("/") + key, min, max);
  }

  bool boolean(const char* key, bool fallback) const {
    if (!has(key)) return fallback;
    const auto& value = params_.at(key);
    if (!value.is_boolean()) fail(std::string("/") + key, "true or false", value);
    return value.get<bool>();
  }

  double number(const char* key, double fallback, double min, double max) const {
    if (!has(key)) return fallback;
    const auto& value = params_.at(key);
    if (!value.is_number()) fail(std::string("/") + key, "a number", value);
    double v = value.get<double>();
    if (v < min || v > max)
      fail(std::string("/") + key,
           "a number in [" + std::to_string(min) + ", " + std::to_string(max) + "]", value);
    return v;
  }

  std::string choice(const char* key, const std::string& fallback,
                     std::initializer_list<const char*> allowed) const {
    if (!has(key)) return fallback;
    const auto& value = params_.at(key);
    std::string expected = "one of";
    for (const char* a : allowed) expected += std::string(" \"") + a + "\"";
    if (!value.is_string()) fail(std::string("/") + key, expected, value);
    for (const char* a : allowed)
      if (value.get<std::string>() == a) return a;
    fail(std::string("/") + key, expected, value);
  }

  std::string string(const char* key, const std::string& fallback) const {
    if (!has(key)) return fallback;
    const auto& value = params_.at(key);
    if (!value.is_string()) fail(std::string("/") + key, "a string", value);
    return value.get<std::string>();
  }

  std::vector<long long> integer_list(const char* key, const std::vector<long long>& fallback,
                                      long long min, long long max) const {
    if (!has(key)) return fallback;
    const auto& value = params_.at(key);
    if (!value.is_array() || value.empty())
      fail(std::string("/") + key, "a non-empty array of integers", value);
    std::vector<long long> out;
    for (std::size_t i = 0; i < value.size(); ++i)
      out.push_back(
          checked_integer(value[i], std::string("/") + key + "/" + std::to_string(i), min, max));
    return out;
  }

 private:
  [[noreturn]] static void fail(const std::string& pointer, const std::string& expected,
                                const nlohmann::json& got) {
    throw std::invalid_argument(pointer + ": expected " + expected + ", got " + got.dump());
  }

  static long long checked_integer(const nlohmann::json& value, const std::string& pointer,
                                   long long min, long long max) {
    if (!value.is_number_integer())
      fail(pointer, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]",
           value);
    long long v = value.get<long long>();
    if (v < min || v > max)
      fail(pointer, "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]",
           value);
    return v;
  }

  const nlohmann::json& params_;
};

}  // namespace harness::plugin

// Line-by-line reading with file:line error messages, shared by the text data loaders.
#pragma once

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "common/brief.h"
#include "common/input_error.h"

namespace harness {

// [+-]digits[.digits][e[+-]digits] (or .digits): what data files hold; strtod would also
// take 0x10 as 16, "inf" and "nan".
bool is_decimal_number(const std::string& token);

class TextFileReader {
 public:
  // Only regular files: a device (/dev/zero), a FIFO or a directory would read forever or
  // fail obscurely.
  explicit TextFileReader(const std::string& path) : path_(path) {
    std::error_code error;
    const auto status = std::filesystem::status(path, error);
    if (std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
      throw InputError(path + ": not a regular file (expected a data file)");
    stream_.open(path);
    if (!stream_) throw InputError(path + ": cannot open the data file");
  }

  // Next line (without trailing \r); false at end of file.
  bool next(std::string* line) {
    if (!std::getline(stream_, *line)) return false;
    ++line_number_;
    if (!line->empty() && line->back() == '\r') line->pop_back();
    return true;
  }

  [[noreturn]] void fail(const std::string& message) const {
    throw InputError(path_ + ":" + std::to_string(line_number_) + ": " + message);
  }

  // A whole number in [0, most] or fails naming what it counts or identifies: casting an
  // out-of-range float to an integer is undefined (found by the fuzzers, fuzz/).
  std::size_t whole_number(const std::string& token, std::size_t column, double most,
                           const std::string& what) const {
    const double value = number(token, column);
    if (!(value >= 0 && value <= most && value == std::floor(value)))
      fail("expected " + what + " as a whole number in [0, " +
           std::to_string(static_cast<long long>(most)) + "], got \"" + token + "\"");
    return static_cast<std::size_t>(value);
  }

  // Parses a decimal number (no hexadecimal, infinity or NaN) or fails naming the token and
  // its column.
  float number(const std::string& token, std::size_t column) const {
    float value = 0;
    bool parsed = is_decimal_number(token);
    if (parsed) try {
        value = std::stof(token);
      } catch (const std::exception&) {
        parsed = false;
      }
    if (!parsed || !std::isfinite(value))
      fail("column " + std::to_string(column + 1) + ": \"" + brief(token) +
           "\" is not a decimal number");
    return value;
  }

 private:
  std::string path_;
  std::ifstream stream_;
  std::size_t line_number_ = 0;
};

// Splits on `separator`, trimming surrounding blanks of each field.
std::vector<std::string> split_fields(const std::string& line, char separator);
// Splits on runs of blanks.
std::vector<std::string> split_blanks(const std::string& line);

}  // namespace harness

// Writing result files so that a crash never leaves a half-written one behind.
#pragma once

#include <stdexcept>
#include <string>

#include "common/json.h"

namespace harness {

// A results file could not be written (a full disk, a read-only folder): the message names
// the file and the system's reason. The sweep ends cleanly on it; records already written stay.
class ResultsWriteError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
  ResultsWriteError(const std::string& message, int error_number)
      : std::runtime_error(message), error_number_(error_number) {}
  // Whether the disk (or the quota) was full: making room is then the remedy, not otherwise.
  bool out_of_space() const;

 private:
  int error_number_ = 0;  // errno of the failed call; 0: unknown
};

// Writes text to path atomically (temporary file, fsync, rename); on failure the temporary is
// removed, the old file left as it was, and ResultsWriteError thrown.
void write_file_atomically(const std::string& path, const std::string& text);

// Appends text to path and fsyncs it before returning; ResultsWriteError on failure.
void append_durably(const std::string& path, const std::string& text);

// A CSV cell (RFC 4180 quoting): strings as text, null as empty, anything else as JSON.
std::string csv_cell(const Json& value);
// A text cell, quoted where RFC 4180 needs it.
std::string csv_cell(const std::string& text);

}  // namespace harness

// Writing result files so that a crash never leaves a half-written one behind.
#pragma once

#include <string>

#include "common/json.h"

namespace harness {

// Writes text to path atomically (temporary file, fsync, rename).
void write_file_atomically(const std::string& path, const std::string& text);

// Appends text to path and fsyncs it before returning.
void append_durably(const std::string& path, const std::string& text);

// A CSV cell (RFC 4180 quoting): strings as text, null as empty, anything else as JSON.
std::string csv_cell(const Json& value);

}  // namespace harness

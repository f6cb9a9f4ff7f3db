// The bytes of a file a reader of a results folder reads, refused as the scripts refuse it
// (scripts/harness_analysis/results.py, read_bytes): a folder, or anything that is no regular
// file (a pipe or a device would block or never end), is named with what was expected there.
#pragma once

#include <string>

namespace harness {

// The file's bytes; InputError "path: is a folder, expected <expected>" and the like.
std::string read_regular_file(const std::string& path, const std::string& expected);

}  // namespace harness

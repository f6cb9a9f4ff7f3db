// Stable hashes: the same value on every run, build and host (trial keys, parameter
// fingerprints, file contents), which std::hash does not promise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace harness {

inline constexpr std::uint64_t kFnv1a64Offset = 1469598103934665603ULL;

// 64-bit FNV-1a; `hash` continues an earlier one (chained over several pieces).
std::uint64_t fnv1a64(const void* data, std::size_t bytes, std::uint64_t hash = kFnv1a64Offset);

// fnv1a64 of text, as 16 hex digits.
std::string stable_hash(const std::string& text);

// fnv1a64 of a regular file's content as 16 hex digits; none when it is no regular file or
// cannot be read.
std::optional<std::string> file_content_hash(const std::string& path);

}  // namespace harness

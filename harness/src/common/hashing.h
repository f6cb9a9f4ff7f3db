// Stable hashes: the same value on every run, build and host (trial keys, parameter
// fingerprints), which std::hash does not promise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace harness {

// 64-bit FNV-1a.
std::uint64_t fnv1a64(const void* data, std::size_t bytes);

// fnv1a64 of text, as 16 hex digits.
std::string stable_hash(const std::string& text);

}  // namespace harness

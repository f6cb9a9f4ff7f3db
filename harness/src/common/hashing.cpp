#include "common/hashing.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <vector>

namespace harness {
namespace {

std::string hex_digits(std::uint64_t hash) {
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(hash));
  return hex;
}

}  // namespace

std::uint64_t fnv1a64(const void* data, std::size_t bytes, std::uint64_t hash) {
  const auto* p = static_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < bytes; ++i) {
    hash ^= p[i];
    hash *= 1099511628211ULL;
  }
  return hash;
}

std::string stable_hash(const std::string& text) {
  return hex_digits(fnv1a64(text.data(), text.size()));
}

std::optional<std::string> file_content_hash(const std::string& path) {
  // Only a regular file has an end: /dev/zero or a FIFO would be read for ever.
  std::error_code error;
  if (!std::filesystem::is_regular_file(path, error)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<char> chunk(1 << 16);
  std::uint64_t hash = kFnv1a64Offset;
  while (in) {
    in.read(chunk.data(), static_cast<std::streamsize>(chunk.size()));
    hash = fnv1a64(chunk.data(), static_cast<std::size_t>(in.gcount()), hash);
  }
  if (in.bad()) return std::nullopt;
  return hex_digits(hash);
}

}  // namespace harness

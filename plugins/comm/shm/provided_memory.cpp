#include "provided_memory.h"

#include <unistd.h>

#include <algorithm>

namespace harness::plugins {
namespace {

std::size_t whole_pages(std::size_t bytes) {
  const auto page = static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
  return (std::max<std::size_t>(bytes, 1) + page - 1) / page * page;
}

}  // namespace

void* ProvidedMemory::allocate(plugin::Bootstrap& group, std::size_t bytes) {
  // Counted on every rank, failed or not, so that the numbers stay the same across ranks.
  const std::uint64_t number = ++made_;
  const std::size_t stride = whole_pages(bytes);
  auto segment = std::make_unique<SharedSegment>();
  if (!segment->map(group, stride * static_cast<std::size_t>(size_), stride).empty())
    return nullptr;
  allocations_.push_back({number, stride, bytes, std::move(segment)});
  return allocations_.back().slice(rank_);
}

void ProvidedMemory::release(void* memory) {
  allocations_.erase(std::remove_if(allocations_.begin(), allocations_.end(),
                                    [&](const Allocation& a) { return a.slice(rank_) == memory; }),
                     allocations_.end());
}

ProvidedMemory::Place ProvidedMemory::find(const void* data, std::size_t bytes) const {
  const auto* byte = static_cast<const unsigned char*>(data);
  for (const Allocation& a : allocations_) {
    const unsigned char* mine = a.slice(rank_);
    if (byte >= mine && byte + bytes <= mine + a.bytes)
      return {a.number, static_cast<std::uint64_t>(byte - mine)};
  }
  return {};
}

unsigned char* ProvidedMemory::at(Place place, int rank) const {
  for (const Allocation& a : allocations_)
    if (a.number == place.allocation) return a.slice(rank) + place.offset;
  return nullptr;
}

}  // namespace harness::plugins

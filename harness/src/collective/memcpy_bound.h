// One thread's copy speed on this host, taken just before and just after a collective trial's
// messages: the bound a CPU backend's busbw is read against. Taken around each trial rather than
// once per run, because on a shared machine the copy's speed drifts within minutes, and a bound
// measured at another time compares the backend with another machine.
#pragma once

#include <cstddef>
#include <cstdint>

#include "record/record_parts.h"
#include "trial/trial_context.h"

namespace harness {

// The copy's size; messages from this size on are read against it (smaller ones may be served
// from the cache, and the copy may not).
constexpr std::uint64_t kMemcpyBoundBytes = 64ull << 20;

// The best of `copies` one-thread copies of `bytes`, in GB/s.
double measure_memcpy_gbps(std::size_t bytes, int copies);

// Collective over the trial's group: rank 0 copies while the others wait at a barrier.
// Returns rank 0's reading (0 on the other ranks).
double group_memcpy_gbps(const TrialContext& context);

}  // namespace harness

// How much memory a collective trial holds per rank, so that one too large for the host is
// refused with both figures before it runs the host out of memory (the OOM killer leaves
// nothing recorded).
#pragma once

#include <cstdint>
#include <string>

#include "harness/plugin/types.h"

namespace harness {

// Bytes one rank holds above its idle footprint while it measures (and checks) a message of
// `message_bytes` of `dtype` through `collective` on `backend`, with host (CPU) buffers: the
// measured per-backend, per-collective figure, the largest one for a backend not measured.
std::uint64_t collective_rank_bytes(const std::string& backend, plugin::Collective collective,
                                    plugin::DType dtype, std::uint64_t message_bytes);

}  // namespace harness

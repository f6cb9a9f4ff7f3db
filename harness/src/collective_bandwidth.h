// Bytes-moved conventions of nccl-tests (doc/PERFORMANCE.md): algbw = bytes / time, and
// busbw = algbw * factor(n), the factor that makes busbw comparable to link bandwidth.
#pragma once

#include <string>

namespace harness {

struct CollectiveBandwidth {
  const char* name;
  double (*bus_factor)(int ranks);
};

// allreduce: 2(n-1)/n.
const CollectiveBandwidth& allreduce_bandwidth();

}  // namespace harness

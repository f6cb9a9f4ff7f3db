#include "collective_bandwidth.h"

namespace harness {

const CollectiveBandwidth& allreduce_bandwidth() {
  static const CollectiveBandwidth table{
      "allreduce", [](int n) { return n > 1 ? 2.0 * (n - 1) / n : 1.0; }};
  return table;
}

}  // namespace harness

#include "replay/ddp_buckets.h"

#include <algorithm>

namespace harness {
namespace {

constexpr double kMegabyte = 1024.0 * 1024.0;

// The parameters that take a gradient, in the order backward made them (ties in the module's
// order).
std::vector<std::size_t> ready_order(const CapturedJob& job, const JobTimeline& timeline) {
  std::vector<std::size_t> order;
  for (std::size_t p = 0; p < job.parameters.size(); ++p)
    if (timeline.ready_s[p] && job.parameters[p].requires_grad) order.push_back(p);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return *timeline.ready_s[a] < *timeline.ready_s[b];
  });
  return order;
}

}  // namespace

std::vector<ReplayBucket> ddp_buckets(const CapturedJob& job, const JobTimeline& timeline,
                                      double bucket_cap_mb) {
  const double caps[] = {job.first_bucket_mb * kMegabyte, bucket_cap_mb * kMegabyte};
  std::vector<ReplayBucket> closed;
  std::vector<ReplayBucket> open;  // one per dtype, in the order the dtypes came
  for (const std::size_t p : ready_order(job, timeline)) {
    const CapturedParameter& parameter = job.parameters[p];
    auto found = std::find_if(open.begin(), open.end(), [&](const ReplayBucket& b) {
      return b.dtype == parameter.dtype;
    });
    if (found == open.end()) found = open.insert(open.end(), ReplayBucket{0, 0, parameter.dtype});
    ReplayBucket& bucket = *found;
    bucket.bytes += static_cast<std::uint64_t>(parameter.numel) *
                    captured_element_bytes(parameter.dtype);
    bucket.launch_s = std::max(bucket.launch_s, *timeline.ready_s[p]);
    if (static_cast<double>(bucket.bytes) >= caps[std::min<std::size_t>(closed.size(), 1)]) {
      closed.push_back(bucket);
      open.erase(found);
    }
  }
  closed.insert(closed.end(), open.begin(), open.end());
  double latest = 0;
  for (ReplayBucket& bucket : closed) {
    latest = std::max(latest, bucket.launch_s);
    bucket.launch_s = latest;
  }
  return closed;
}

}  // namespace harness

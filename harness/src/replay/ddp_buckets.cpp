#include "replay/ddp_buckets.h"

#include <algorithm>

namespace harness {
namespace {

constexpr double kMegabyte = 1024.0 * 1024.0;

// Whether some parameter that wants a gradient got none in every captured step: the job runs
// with find_unused_parameters, under which DDP never rebuilds its buckets in ready order.
bool never_rebuilt(const CapturedJob& job) {
  for (std::size_t p = 0; p < job.parameters.size(); ++p) {
    if (!job.parameters[p].requires_grad) continue;
    const bool reached = std::any_of(job.steps.begin(), job.steps.end(),
                                     [p](const CapturedStep& step) { return step.ready_s[p]; });
    if (!reached) return true;
  }
  return false;
}

// The parameters that take a gradient in the order DDP buckets them: the order backward made
// them (ties in the module's order), or the module's reverse order where DDP keeps its first
// assignment.
std::vector<std::size_t> bucket_order(const CapturedJob& job, const JobTimeline& timeline) {
  std::vector<std::size_t> order;
  for (std::size_t p = job.parameters.size(); p-- > 0;)
    if (timeline.ready_s[p] && job.parameters[p].requires_grad) order.push_back(p);
  if (never_rebuilt(job)) return order;
  std::reverse(order.begin(), order.end());
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return *timeline.ready_s[a] < *timeline.ready_s[b];
  });
  return order;
}

// A dtype's bucket being filled, and how many of that dtype's buckets closed before it: DDP
// keeps the caps per dtype, so each dtype's first bucket has the first bucket's cap.
struct OpenBucket {
  ReplayBucket bucket;
  std::size_t closed_before = 0;
};

}  // namespace

std::vector<ReplayBucket> ddp_buckets(const CapturedJob& job, const JobTimeline& timeline,
                                      double bucket_cap_mb) {
  // The job's own cap keeps its own first bucket; another cap is one a plan sets in the code.
  const bool own_cap = bucket_cap_mb == job.bucket_cap_mb;
  const double first_mb =
      job.first_bucket_follows_cap && !own_cap ? bucket_cap_mb : job.first_bucket_mb;
  const double caps[] = {first_mb * kMegabyte, bucket_cap_mb * kMegabyte};
  std::vector<ReplayBucket> closed;
  std::vector<OpenBucket> open;  // one per dtype, in the order the dtypes came
  for (const std::size_t p : bucket_order(job, timeline)) {
    const CapturedParameter& parameter = job.parameters[p];
    auto found = std::find_if(open.begin(), open.end(), [&](const OpenBucket& b) {
      return b.bucket.dtype == parameter.dtype;
    });
    if (found == open.end()) found = open.insert(open.end(), {{0, 0, parameter.dtype}, 0});
    ReplayBucket& bucket = found->bucket;
    bucket.bytes += static_cast<std::uint64_t>(parameter.numel) *
                    captured_element_bytes(parameter.dtype);
    bucket.launch_s = std::max(bucket.launch_s, *timeline.ready_s[p]);
    if (static_cast<double>(bucket.bytes) >= caps[std::min<std::size_t>(found->closed_before, 1)]) {
      closed.push_back(bucket);
      *found = {{0, 0, parameter.dtype}, found->closed_before + 1};
    }
  }
  for (const OpenBucket& left : open)
    if (left.bucket.bytes > 0) closed.push_back(left.bucket);
  double latest = 0;
  for (ReplayBucket& bucket : closed) {
    latest = std::max(latest, bucket.launch_s);
    bucket.launch_s = latest;
  }
  return closed;
}

}  // namespace harness

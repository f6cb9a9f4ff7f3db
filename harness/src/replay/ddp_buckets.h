// The buckets PyTorch DDP makes of a captured job's gradients at a bucket cap, and when each one
// is launched: gradients are taken in the order backward made them (the order DDP rebuilds its
// buckets in after the first step; a job with find_unused_parameters, seen by a parameter that
// never got a gradient, keeps DDP's first assignment, in the module's reverse order), each dtype
// filling its first bucket up to the job's first-bucket cap and every later one up to
// bucket_cap_mb; a bucket closes once it reaches its cap (as compute_bucket_assignment_by_size
// does), and holds one dtype. A bucket is launched when its last gradient is ready, and never
// before the bucket ahead of it (DDP launches in order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "replay/captured_job.h"

namespace harness {

struct ReplayBucket {
  double launch_s = 0;  // after backward starts
  std::uint64_t bytes = 0;
  std::string dtype;
};

std::vector<ReplayBucket> ddp_buckets(const CapturedJob& job, const JobTimeline& timeline,
                                      double bucket_cap_mb);

}  // namespace harness

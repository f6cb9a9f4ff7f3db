// Any bytes as a captured job (scripts/tune's job.json, which a replay trial reads): read, take
// the median step and bucket it at the job's own cap and at two others, as a replay does. Bad
// input must be an InputError naming the file and field; anything else, a crash, a hang or a
// sanitizer report is a bug. Every bucket must hold bytes and start no earlier than the one
// before it.
#include <cstdint>
#include <string>

#include "common/input_error.h"
#include "fuzz_support.h"
#include "replay/captured_job.h"
#include "replay/ddp_buckets.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = harness::fuzz::scratch_file(data, size);
  try {
    const harness::CapturedJob job = harness::read_captured_job(path);
    const harness::JobTimeline timeline = harness::median_timeline(job);
    for (const double cap_mb : {job.bucket_cap_mb, 0.001, 25.0}) {
      double previous_launch = 0;
      for (const harness::ReplayBucket& bucket : harness::ddp_buckets(job, timeline, cap_mb)) {
        if (bucket.bytes == 0 || bucket.launch_s < previous_launch) __builtin_trap();
        previous_launch = bucket.launch_s;
      }
    }
  } catch (const harness::InputError&) {
  }
  return 0;
}

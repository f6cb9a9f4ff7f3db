// A PyTorch DDP job as scripts/tune captured it (job.json): the C++ reader of the layout that
// file_formats.json in the tune package declares (harness_tune/job_file.py writes it). The file
// is checked against that declaration first (declared_file), so a file this reader cannot use
// is refused with the file and the field named (InputError), never read in part.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "harness/plugin/types.h"
#include "harness/tune/file_formats.h"

namespace harness {

// The job_version this reader knows (the declaration's); a newer file is refused.
inline constexpr int kJobVersion = tune_files::kJobVersion;

struct CapturedParameter {
  std::int64_t numel = 0;
  std::string dtype;  // torch's name: float32, float64, float16 or bfloat16
  bool requires_grad = true;
};

// One recorded step of rank 0, in seconds.
struct CapturedStep {
  double step_s = 0;      // forward start to the next forward start
  double forward_s = 0;
  double backward_s = 0;  // forward end to backward's return
  // Per parameter: when backward made its gradient, after forward end; unset: it got none.
  std::vector<std::optional<double>> ready_s;
  // When the job's last bucket's allreduce was done, after forward end; unset: no bucket.
  std::optional<double> last_done_s;
};

struct CapturedJob {
  int world_size = 1;
  std::string backend;  // the job's own process-group backend
  double bucket_cap_mb = tune_files::kDdpDefaultBucketCapMb;
  double first_bucket_mb = 1;  // the job's own first bucket's cap
  // torch 2.x's DDP: a bucket_cap_mb the code sets caps the first bucket too (job.json's
  // first_bucket_rule "follows_cap"); torch 1.x's keeps first_bucket_mb ("fixed").
  bool first_bucket_follows_cap = false;
  std::vector<CapturedParameter> parameters;  // the module's order
  std::vector<CapturedStep> steps;
};

// The plugin element type of a captured dtype (float32, float64, float16, bfloat16); nothing
// for any other name.
std::optional<plugin::DType> captured_plugin_dtype(const std::string& dtype);

// The bytes of one element of a captured dtype the reader took.
std::size_t captured_element_bytes(const std::string& dtype);

// InputError "<path>: field \"steps[2].ready_s\" ..." on anything unusable.
CapturedJob read_captured_job(const std::string& path);

// The job's median step: each phase's median, and each parameter's median ready time (unset:
// it takes no gradient; a parameter that wants one but was never reached, as under
// find_unused_parameters, is ready when backward starts, as DDP marks it).
struct JobTimeline {
  double forward_s = 0;
  double rest_s = 0;  // the step less forward and backward: the optimizer, data loading
  // Backward after its last allreduce was done: DDP copying the averaged buckets into the
  // gradients, and autograd's end.
  double finalize_s = 0;
  std::vector<std::optional<double>> ready_s;
  double backward_compute_s() const;  // the last gradient's ready time
};

JobTimeline median_timeline(const CapturedJob& job);

}  // namespace harness

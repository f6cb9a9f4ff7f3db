#include "replay/captured_job.h"

#include <algorithm>

#include "common/input_error.h"
#include "common/json.h"
#include "common/regular_file.h"
#include "common/strict_json.h"
#include "metrics/statistics.h"
#include "replay/declared_file.h"
#include "spec/json_structure.h"

namespace harness {
namespace {

std::optional<double> seconds_or_null(const Json& value) {
  if (value.is_null()) return std::nullopt;
  return value.get<double>();
}

CapturedStep read_step(const Json& json) {
  CapturedStep step{json["step_s"].get<double>(), json["forward_s"].get<double>(),
                    json["backward_s"].get<double>(), {}, std::nullopt};
  for (const Json& value : json["ready_s"]) step.ready_s.push_back(seconds_or_null(value));
  for (const Json& bucket : json["buckets"])
    if (bucket.contains("done_s"))  // absent: its allreduce never returned
      step.last_done_s = std::max(step.last_done_s.value_or(0.0), bucket["done_s"].get<double>());
  return step;
}

double median_of(const std::vector<CapturedStep>& steps, double CapturedStep::*phase) {
  std::vector<double> values;
  for (const CapturedStep& step : steps) values.push_back(step.*phase);
  return percentile(values, 50);
}

}  // namespace

std::optional<plugin::DType> captured_plugin_dtype(const std::string& dtype) {
  for (const plugin::ElementTypeRow& row : plugin::kElementTypes)
    if (dtype == row.torch_name) return row.dtype;
  return std::nullopt;
}

std::size_t captured_element_bytes(const std::string& dtype) {
  return plugin::dtype_size(captured_plugin_dtype(dtype).value());
}

CapturedJob read_captured_job(const std::string& path) {
  const std::string text = read_regular_file(path, "a job.json");
  const StrictJson parsed = parse_strict_json(text);
  if (!parsed.problem.empty())
    throw InputError(path + ":" + std::to_string(parsed.line) + ": " + parsed.problem);
  check_json_structure(text, path);  // a key given twice would be read once, silently
  const Json json = checked_declared_file(parsed.value, "job", path);
  CapturedJob job;
  job.world_size = json["world_size"].get<int>();
  job.backend = json["backend"].get<std::string>();
  job.bucket_cap_mb = json["bucket_cap_mb"].get<double>();
  job.first_bucket_mb = json["first_bucket_mb"].get<double>();
  job.first_bucket_follows_cap = json["first_bucket_rule"] == "follows_cap";
  for (const Json& parameter : json["parameters"])
    job.parameters.push_back({parameter["numel"].get<std::int64_t>(),
                              parameter["dtype"].get<std::string>(),
                              parameter["requires_grad"].get<bool>()});
  for (const Json& step : json["steps"]) job.steps.push_back(read_step(step));
  return job;
}

double JobTimeline::backward_compute_s() const {
  double last = 0;
  for (const auto& moment : ready_s)
    if (moment) last = std::max(last, *moment);
  return last;
}

JobTimeline median_timeline(const CapturedJob& job) {
  JobTimeline timeline;
  timeline.forward_s = median_of(job.steps, &CapturedStep::forward_s);
  const double backward_s = median_of(job.steps, &CapturedStep::backward_s);
  const double step_s = median_of(job.steps, &CapturedStep::step_s);
  timeline.rest_s = std::max(0.0, step_s - timeline.forward_s - backward_s);
  std::vector<double> finalize;
  for (const CapturedStep& step : job.steps)
    if (step.last_done_s) finalize.push_back(std::max(0.0, step.backward_s - *step.last_done_s));
  if (!finalize.empty()) timeline.finalize_s = percentile(finalize, 50);
  for (std::size_t p = 0; p < job.parameters.size(); ++p) {
    std::vector<double> moments;
    for (const CapturedStep& step : job.steps)
      if (step.ready_s[p]) moments.push_back(*step.ready_s[p]);
    if (!moments.empty())
      timeline.ready_s.emplace_back(percentile(moments, 50));
    else if (job.parameters[p].requires_grad)
      timeline.ready_s.emplace_back(0.0);
    else
      timeline.ready_s.emplace_back();
  }
  return timeline;
}

}  // namespace harness

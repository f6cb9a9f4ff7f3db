#include "replay/captured_job.h"

#include <algorithm>
#include <limits>

#include "common/brief.h"
#include "common/input_error.h"
#include "common/json.h"
#include "common/regular_file.h"
#include "common/strict_json.h"
#include "metrics/statistics.h"
#include "spec/json_structure.h"

namespace harness {
namespace {

// Beyond these no job goes: a parameter of 2^48 elements is a petabyte, a step of 10^6 s eleven
// days; larger figures in a job.json are damage, and would overflow the replay's arithmetic.
constexpr std::int64_t kMaxElements = std::int64_t{1} << 48;
constexpr double kMaxSeconds = 1e6;

// A field of one object of the file, read by its declared name, with the path to it.
class FieldReader {
 public:
  FieldReader(const std::string& file, const Json& object, std::string where)
      : file_(file), object_(object), where_(std::move(where)) {
    if (!object.is_object()) fail("", "is not a JSON object");
  }

  const Json& value(const char* name, bool (Json::*is_type)() const, const char* expected) const {
    const auto found = object_.find(name);
    if (found == object_.end()) fail(name, std::string("is missing (expected ") + expected + ")");
    if (!((*found).*is_type)())
      fail(name, "is " + found->dump().substr(0, 60) + ", expected " + expected);
    return *found;
  }
  double number(const char* name) const {
    return value(name, &Json::is_number, "a number").get<double>();
  }
  double positive(const char* name) const {
    const double x = number(name);
    if (!(x > 0)) fail(name, "is " + std::to_string(x) + ", expected a number above 0");
    return x;
  }
  double seconds(const char* name) const {
    const double x = number(name);
    if (!(x >= 0 && x <= kMaxSeconds))
      fail(name, "is " + brief(object_[name]) + ", expected seconds from 0 to 1e6");
    return x;
  }
  std::int64_t count(const char* name, std::int64_t most = kMaxElements) const {
    const Json& x = value(name, &Json::is_number_integer, "a whole number");
    if (x.is_number_unsigned() ? x.get<std::uint64_t>() > static_cast<std::uint64_t>(most)
                               : x.get<std::int64_t>() < 0 || x.get<std::int64_t>() > most)
      fail(name, "is " + x.dump() + ", expected a count from 0 to " + std::to_string(most));
    return x.get<std::int64_t>();
  }
  std::string text(const char* name) const {
    return value(name, &Json::is_string, "a string").get<std::string>();
  }
  const Json& list(const char* name) const { return value(name, &Json::is_array, "an array"); }
  bool flag(const char* name) const {
    return value(name, &Json::is_boolean, "true or false").get<bool>();
  }
  std::string where(const char* name) const {
    return where_.empty() ? name : where_ + "." + name;
  }
  [[noreturn]] void fail(const std::string& name, const std::string& problem) const {
    const std::string field = name.empty() ? where_ : where(name.c_str());
    throw InputError(file_ + ": " + (field.empty() ? "the document" : "field \"" + field + "\"") +
                     " " + problem);
  }

 private:
  const std::string& file_;
  const Json& object_;
  std::string where_;
};

std::string indexed(const std::string& list, std::size_t i) {
  return list + "[" + std::to_string(i) + "]";
}

CapturedParameter read_parameter(const std::string& file, const Json& json, std::size_t i) {
  const FieldReader fields(file, json, indexed("parameters", i));
  CapturedParameter parameter{fields.count("numel"), fields.text("dtype"),
                              fields.flag("requires_grad")};
  if (!captured_plugin_dtype(parameter.dtype))
    fields.fail("dtype", "is \"" + parameter.dtype +
                             "\", expected float32, float64, float16 or bfloat16");
  return parameter;
}

// A moment of the step's timeline: seconds within the bounds, or null where allowed.
std::optional<double> moment(const FieldReader& fields, const char* list, const Json& value,
                             bool null_allowed) {
  if (value.is_null() && null_allowed) return std::nullopt;
  if (value.is_number() && value.get<double>() >= 0 && value.get<double>() <= kMaxSeconds)
    return value.get<double>();
  fields.fail(list, "holds " + brief(value) + ", expected seconds from 0 to 1e6" +
                        (null_allowed ? " or null" : ""));
}

// The bucket DDP made in the captured step: only when its allreduce was done is read.
std::optional<double> bucket_done(const std::string& file, const Json& bucket,
                                  const std::string& where) {
  const FieldReader fields(file, bucket, where);
  const auto done = bucket.find("done_s");
  if (done == bucket.end()) return std::nullopt;  // its allreduce never returned
  return moment(fields, "done_s", *done, false);
}

CapturedStep read_step(const std::string& file, const Json& json, std::size_t i,
                       std::size_t parameters) {
  const FieldReader fields(file, json, indexed("steps", i));
  CapturedStep step{fields.seconds("step_s"), fields.seconds("forward_s"),
                    fields.seconds("backward_s"), {}, std::nullopt};
  const Json& ready = fields.list("ready_s");
  if (ready.size() != parameters)
    fields.fail("ready_s", "has " + std::to_string(ready.size()) + " entries for " +
                               std::to_string(parameters) + " parameters");
  for (const Json& value : ready) step.ready_s.push_back(moment(fields, "ready_s", value, true));
  const Json& buckets = fields.list("buckets");
  for (std::size_t b = 0; b < buckets.size(); ++b)
    if (const auto done = bucket_done(file, buckets[b], fields.where(indexed("buckets", b).c_str())))
      step.last_done_s = std::max(step.last_done_s.value_or(0.0), *done);
  const auto loss = json.find("loss");
  if (loss == json.end() || !(loss->is_number() || loss->is_null()))
    fields.fail("loss", "is " + (loss == json.end() ? std::string("missing") : brief(*loss)) +
                            ", expected a number or null");
  return step;
}

double median_of(const std::vector<CapturedStep>& steps, double CapturedStep::*phase) {
  std::vector<double> values;
  for (const CapturedStep& step : steps) values.push_back(step.*phase);
  return percentile(values, 50);
}

}  // namespace

std::optional<plugin::DType> captured_plugin_dtype(const std::string& dtype) {
  if (dtype == "float32") return plugin::DType::kFloat32;
  if (dtype == "float64") return plugin::DType::kFloat64;
  if (dtype == "float16") return plugin::DType::kFloat16;
  if (dtype == "bfloat16") return plugin::DType::kBFloat16;
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
  const FieldReader fields(path, parsed.value, "");
  const std::int64_t version = fields.count("job_version");
  if (version > kJobVersion)
    fields.fail("job_version", "is " + std::to_string(version) + ", newer than this reader's " +
                                   std::to_string(kJobVersion) + ": use a newer harness");
  CapturedJob job;
  const std::int64_t world = fields.count("world_size", 65536);
  if (world < 1) fields.fail("world_size", "is 0, expected a count from 1 to 65536");
  job.world_size = static_cast<int>(world);
  job.backend = fields.text("backend");
  // Declared in job_file.py and written by every capture, though the replay reads them not.
  fields.list("command");
  fields.text("comm_hook");
  fields.count("parameter_count", std::numeric_limits<std::int64_t>::max());
  fields.count("warmup_steps", std::numeric_limits<std::int64_t>::max());
  job.bucket_cap_mb = fields.positive("bucket_cap_mb");
  job.first_bucket_mb = fields.positive("first_bucket_mb");
  if (version >= 2) {  // job_file.py's JOB_FIELDS_SINCE: version 1 files were all "fixed"
    const std::string rule = fields.text("first_bucket_rule");
    if (rule != "fixed" && rule != "follows_cap")
      fields.fail("first_bucket_rule", "is \"" + rule + "\", expected fixed or follows_cap");
    job.first_bucket_follows_cap = rule == "follows_cap";
  }
  const Json& parameters = fields.list("parameters");
  for (std::size_t i = 0; i < parameters.size(); ++i)
    job.parameters.push_back(read_parameter(path, parameters[i], i));
  const Json& steps = fields.list("steps");
  if (steps.empty()) fields.fail("steps", "is empty: the capture recorded no step");
  for (std::size_t i = 0; i < steps.size(); ++i)
    job.steps.push_back(read_step(path, steps[i], i, job.parameters.size()));
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

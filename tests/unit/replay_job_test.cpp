// The replay's reading of a captured job (replay/captured_job.h) and the buckets it makes of it
// (replay/ddp_buckets.h): DDP's rules, and refusals that name the file and the field.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <string>

#include "common/input_error.h"
#include "common/json.h"
#include "replay/captured_job.h"
#include "replay/ddp_buckets.h"
#include "replay/declared_file.h"

namespace harness {
namespace {

constexpr double kMb = 1024.0 * 1024.0;

// A job of `sizes` fp32 parameters (elements) whose gradients were ready at `ready` (seconds
// after forward end), the same in each of its two steps.
Json job_json(const std::vector<std::int64_t>& sizes, const std::vector<Json>& ready,
              const std::vector<std::string>& dtypes = {}) {
  Json parameters = Json::array();
  for (std::size_t p = 0; p < sizes.size(); ++p)
    parameters.push_back({{"numel", sizes[p]},
                          {"dtype", dtypes.empty() ? "float32" : dtypes[p]},
                          {"requires_grad", true}});
  Json step = {{"step_s", 0.1}, {"forward_s", 0.02}, {"backward_s", 0.05}, {"ready_s", ready},
               {"buckets",
                {{{"ready_s", 0.04}, {"done_s", 0.045}, {"bytes", 4}, {"dtype", "float32"},
                  {"parameters", {0}}}}},
               {"loss", 1.0}};
  return {{"job_version", 1}, {"command", {"train.py"}}, {"world_size", 2},
          {"backend", "gloo"}, {"bucket_cap_mb", 25}, {"first_bucket_mb", 1},
          {"comm_hook", ""}, {"parameters", parameters}, {"parameter_count", 0},
          {"warmup_steps", 1}, {"steps", {step, step}}};
}

std::string written(const Json& job) {
  const std::string path = testing::TempDir() + "replay_job_test.json";
  std::ofstream(path) << job.dump();
  return path;
}

std::string refusal(const Json& job) {
  try {
    read_captured_job(written(job));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(CapturedJob, ReadsTheFieldsAndTheMedianStep) {
  const CapturedJob job = read_captured_job(written(job_json({10, 20}, {0.03, 0.01})));
  EXPECT_EQ(job.world_size, 2);
  EXPECT_EQ(job.backend, "gloo");
  ASSERT_EQ(job.parameters.size(), 2u);
  const JobTimeline timeline = median_timeline(job);
  EXPECT_DOUBLE_EQ(timeline.forward_s, 0.02);
  EXPECT_NEAR(timeline.rest_s, 0.03, 1e-12);
  EXPECT_DOUBLE_EQ(timeline.backward_compute_s(), 0.03);
  EXPECT_NEAR(timeline.finalize_s, 0.005, 1e-12);  // backward's 0.05 after the last done 0.045
}

TEST(CapturedJob, RefusesNamingTheFileAndTheField) {
  Json job = job_json({10}, {0.01});
  job.erase("world_size");
  EXPECT_NE(refusal(job).find("field \"world_size\" is missing"), std::string::npos) << refusal(job);
  job = job_json({10}, {0.01});
  job["steps"][1]["ready_s"] = {0.01, 0.02};
  EXPECT_NE(refusal(job).find("field \"steps[1].ready_s\" has 2 entries for 1 parameters"),
            std::string::npos)
      << refusal(job);
  job = job_json({10}, {0.01});
  job["parameters"][0]["dtype"] = "int64";
  EXPECT_NE(refusal(job).find("\"parameters[0].dtype\" is \"int64\""), std::string::npos)
      << refusal(job);
  job = job_json({10}, {0.01});
  job["job_version"] = kJobVersion + 1;
  EXPECT_NE(refusal(job).find("newer than this reader's " + std::to_string(kJobVersion)),
            std::string::npos)
      << refusal(job);
  job = job_json({10}, {0.01});
  job["job_version"] = 2;  // the version that brought first_bucket_rule
  EXPECT_NE(refusal(job).find("field \"first_bucket_rule\" is missing"), std::string::npos)
      << refusal(job);
  job["first_bucket_rule"] = "sometimes";
  EXPECT_NE(refusal(job).find("\"first_bucket_rule\" is \"sometimes\", expected fixed or follows_cap"),
            std::string::npos)
      << refusal(job);
  job = job_json({10}, {0.01});
  job["parameters"][0]["numel"] = std::int64_t{1} << 62;  // its bytes would overflow
  EXPECT_NE(refusal(job).find("\"parameters[0].numel\" is 4611686018427387904, expected a count "
                              "from 0 to 281474976710656"),
            std::string::npos)
      << refusal(job);
  job = job_json({10}, {1e300});
  EXPECT_NE(refusal(job).find("\"steps[0].ready_s\" holds 1e+300, expected seconds from 0 to 1e6"),
            std::string::npos)
      << refusal(job);
  job = job_json({10}, {0.01});
  job.erase("comm_hook");  // declared in file_formats.json, so checked here too
  EXPECT_NE(refusal(job).find("field \"comm_hook\" is missing"), std::string::npos) << refusal(job);
  job = job_json({10}, {0.01});
  job["steps"] = Json::array();
  EXPECT_NE(refusal(job).find("recorded no step"), std::string::npos) << refusal(job);
  EXPECT_NE(refusal(job).find("replay_job_test.json"), std::string::npos) << refusal(job);
}

// The captured dtypes the declaration accepts are the element-type table's torch names, and
// each maps to its element type: the file format and the table cannot drift apart.
TEST(CapturedJob, TheDeclaredDtypesAreTheElementTypeTablesTorchNames) {
  std::vector<std::string> table;
  for (const plugin::ElementTypeRow& row : plugin::kElementTypes) {
    table.push_back(row.torch_name);
    EXPECT_EQ(captured_plugin_dtype(row.torch_name), row.dtype) << row.torch_name;
  }
  EXPECT_EQ(declared_choices("parameter", "dtype"), table);
  EXPECT_FALSE(captured_plugin_dtype("int64").has_value());
}

std::vector<ReplayBucket> buckets_of(const std::vector<std::int64_t>& sizes,
                                     const std::vector<Json>& ready, double cap_mb,
                                     const std::vector<std::string>& dtypes = {}) {
  const CapturedJob job = read_captured_job(written(job_json(sizes, ready, dtypes)));
  return ddp_buckets(job, median_timeline(job), cap_mb);
}

// DDP's rules: gradients in the order backward made them; the first bucket closes at the first
// cap (1 MB), the others at bucket_cap_mb, once they reach it; each launched when its last
// gradient is ready.
TEST(DdpBuckets, FollowTheReadyOrderAndBothCaps) {
  const std::int64_t quarter = static_cast<std::int64_t>(kMb / 4 / 4);  // 1/4 MB of fp32
  // Ready in the order 4 (8 elements), 3, 2, 1, 0: the first bucket reaches 1 MB only with the
  // last quarter.
  const auto one = buckets_of({quarter, quarter, quarter, quarter, 8},
                              {0.04, 0.03, 0.02, 0.01, 0.005}, 0.5);
  ASSERT_EQ(one.size(), 1u);
  EXPECT_EQ(one[0].bytes, 32u + static_cast<std::uint64_t>(kMb));
  EXPECT_DOUBLE_EQ(one[0].launch_s, 0.04);
  // 1 MB closes the first bucket alone; two quarters reach 0.5 MB; the last stays open.
  const auto three = buckets_of({4 * quarter, quarter, quarter, quarter}, {0.01, 0.02, 0.03, 0.04}, 0.5);
  ASSERT_EQ(three.size(), 3u);
  EXPECT_EQ(three[0].bytes, static_cast<std::uint64_t>(kMb));
  EXPECT_EQ(three[1].bytes, static_cast<std::uint64_t>(kMb / 2));
  EXPECT_DOUBLE_EQ(three[1].launch_s, 0.03);
  EXPECT_DOUBLE_EQ(three[2].launch_s, 0.04);
}

// torch 2.x's DDP (job.json's first_bucket_rule "follows_cap"): a cap the code sets caps the
// first bucket too; the job's own cap keeps the job's own first bucket (1 MB, left unset).
TEST(DdpBuckets, UnderTorch2ACapSetInTheCodeCapsTheFirstBucketToo) {
  const std::int64_t quarter = static_cast<std::int64_t>(kMb / 4 / 4);  // 1/4 MB of fp32
  Json document = job_json({quarter, quarter, quarter, quarter}, {0.01, 0.02, 0.03, 0.04});
  document["job_version"] = 2;
  document["first_bucket_rule"] = "follows_cap";
  const CapturedJob job = read_captured_job(written(document));
  EXPECT_TRUE(job.first_bucket_follows_cap);
  const auto planned = ddp_buckets(job, median_timeline(job), 0.5);  // a plan's 0.5 MB
  ASSERT_EQ(planned.size(), 2u);
  EXPECT_EQ(planned[0].bytes, static_cast<std::uint64_t>(kMb / 2));
  const auto own = ddp_buckets(job, median_timeline(job), 25);  // the job's own, unset cap
  ASSERT_EQ(own.size(), 1u);
  EXPECT_EQ(own[0].bytes, static_cast<std::uint64_t>(kMb));
  // torch 1.x's rule, as every version 1 file has it: 1 MB first, whatever the cap.
  EXPECT_FALSE(read_captured_job(written(job_json({4}, {0.01}))).first_bucket_follows_cap);
  EXPECT_EQ(buckets_of({quarter, quarter, quarter, quarter}, {0.01, 0.02, 0.03, 0.04}, 0.5)[0].bytes,
            static_cast<std::uint64_t>(kMb));
}

// DDP keeps its caps per dtype: each dtype's first bucket has the first bucket's cap.
TEST(DdpBuckets, EachDtypeHasAFirstBucketOfItsOwn) {
  const std::int64_t fp16_piece = 157286;  // 314572 B
  const auto buckets = buckets_of({524288, fp16_piece, fp16_piece, fp16_piece, fp16_piece},
                                  {0.001, 0.002, 0.003, 0.004, 0.005},
                                  0.25, {"float32", "float16", "float16", "float16", "float16"});
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0].bytes, 2097152u);
  EXPECT_EQ(buckets[0].dtype, "float32");
  EXPECT_EQ(buckets[1].bytes, 4u * 314572u);  // 1 MB reached only with the fourth
  EXPECT_EQ(buckets[1].dtype, "float16");
}

// A parameter that never got a gradient means find_unused_parameters, under which DDP keeps its
// first assignment: the module's reverse order, whatever order backward made the gradients in.
TEST(DdpBuckets, UnderFindUnusedParametersTheModulesReverseOrderStays) {
  const std::int64_t half_mb = static_cast<std::int64_t>(kMb / 2 / 4);
  const auto buckets = buckets_of({half_mb, half_mb, half_mb, 4}, {0.001, 0.002, 0.003, nullptr}, 0.5);
  // Reverse order 3 (unused, ready at 0), 2, 1, 0: 16 B + 1/2 + 1/2 MB closes the first.
  ASSERT_EQ(buckets.size(), 2u);
  EXPECT_EQ(buckets[0].bytes, 16u + static_cast<std::uint64_t>(kMb));
  EXPECT_DOUBLE_EQ(buckets[0].launch_s, 0.003);
  EXPECT_EQ(buckets[1].bytes, static_cast<std::uint64_t>(kMb / 2));
}

TEST(DdpBuckets, AParameterNeverReachedIsReadyWhenBackwardStarts) {
  const JobTimeline timeline =
      median_timeline(read_captured_job(written(job_json({4, 4}, {0.02, nullptr}))));
  ASSERT_TRUE(timeline.ready_s[1].has_value());
  EXPECT_DOUBLE_EQ(*timeline.ready_s[1], 0.0);
  const auto buckets = buckets_of({4, 4}, {0.02, nullptr}, 25);
  ASSERT_EQ(buckets.size(), 1u);
  EXPECT_EQ(buckets[0].bytes, 32u);
}

}  // namespace
}  // namespace harness

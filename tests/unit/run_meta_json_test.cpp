// meta.json from its one declaration: a meta.json with every part written follows the schema the
// declaration gives, reads back into the same document (as --resume reads it), and a layout
// newer than this harness's is refused.
#include <gtest/gtest.h>

#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "run/run_meta_json.h"

namespace harness {
namespace {

MachineState state_at(const char* at) {
  MachineState state;
  state.at = at;
  state.loadavg = std::vector<double>{0.5, 0.25, 0.125};
  state.runnable = 2;
  state.tasks = 90;
  state.cpu_jiffies = CpuJiffies{10, 0, 5, 100, 1, 0, 0, 0};
  return state;  // governor unset: written as null
}

// Every part and optional part set, as after a resumed, searched, adaptive job that was aborted.
RunMeta everything() {
  RunMeta meta;
  meta.experiment = {{"name", "exp"}, {"settings", {{"epochs", 1}}}};
  meta.experiment_file = "experiments/exp.json";
  meta.command = "harness experiments/exp.json";
  meta.started_at = "2026-01-01T00:00:00Z";
  meta.git_sha = "abc";
  meta.host = "h1";
  meta.cpu = {"CPU", 2};
  meta.mpi = {"Open MPI", 2, "MPI_THREAD_MULTIPLE"};
  meta.binding = {"core", {{0, "h1", 0, "0"}, {1, "h1", 1, "1"}}};
  meta.versions = {"0.1.0", 3, "id", "1.13.0", "0.5.0", "not built"};
  meta.plugins = {{"gloo", "communicator", "1", "/lib/gloo.so"}};
  meta.seeds = {7, 3};
  meta.estimator = {"k_best", 3};
  meta.model_files = {{"model.pt", "hash"}};
  meta.oversubscribed = OversubscribedMark{"once", {4}, "4 ranks would share 2 CPU(s) on a host"};
  EndMarks previous;
  previous.interrupted = InterruptedMark{"SIGINT", 130, "harness --resume r"};
  meta.resumed = std::vector<Resumption>{{"2026-01-02T00:00:00Z", "harness --resume r",
                                          {{"name", "exp2"}}, previous}};
  meta.machine = MachineRecord{state_at("a"), state_at("b"), CpuShares{0.0, 0.01, 0.5}};
  meta.watchdog = WatchdogMark{300.0, ""};
  meta.search = SearchMark{"search.json", {{"batch_size", 64}}, true, "every rung decided"};
  meta.adaptive_repetitions =
      AdaptiveSummary{10, "median", 0.05, 60, 4, 12.5, 3, {{"p", "", {{"batch_size", 64}}, 0.2}},
                      "no_progress"};
  meta.end.aborted = AbortedMark{"watchdog", "2026-01-02T01:00:00Z", "rank 1 has not entered"};
  return meta;
}

TEST(RunMetaJson, EveryPartFollowsTheSchemaAndReadsBackTheSame) {
  const Json written = to_json(everything());
  EXPECT_EQ(written["schema_version"], kMetaVersion);
  EXPECT_TRUE(written["machine"]["start"]["governor"].is_null());
  EXPECT_EQ(written["resumed"][0]["previous_end"]["interrupted"]["exit_status"], 130);
  EXPECT_EQ(schema_problems(meta_json_schema(), written), std::vector<std::string>{});
  EXPECT_EQ(to_json(read_run_meta(written)).dump(), written.dump());
}

TEST(RunMetaJson, AStartedJobWritesOnlyWhatItHas) {
  RunMeta meta = everything();
  meta.resumed.reset();
  meta.machine->end.reset();
  meta.machine->cpu_shares.reset();
  meta.search.reset();
  meta.adaptive_repetitions.reset();
  meta.oversubscribed.reset();
  meta.model_files = Json();
  meta.watchdog = WatchdogMark{std::nullopt, "timeout_s is 0"};
  meta.end = EndMarks{};
  meta.end.unfinished = UnfinishedMark{"the job has not ended normally", "harness --resume r"};
  const Json written = to_json(meta);
  for (const char* absent : {"resumed", "search", "adaptive_repetitions", "oversubscribed",
                             "model_files", "finished_at", "aborted", "interrupted"})
    EXPECT_FALSE(written.contains(absent)) << absent;
  EXPECT_FALSE(written["machine"].contains("end"));
  EXPECT_EQ(written["watchdog"], Json({{"off", "timeout_s is 0"}}));
  EXPECT_EQ(schema_problems(meta_json_schema(), written), std::vector<std::string>{});
}

TEST(RunMetaJson, TheSchemaNamesAMissingOrMistypedField) {
  Json written = to_json(everything());
  written.erase("host");
  written["cpu"]["count"] = "two";
  written["surprise"] = 1;
  const auto problems = schema_problems(meta_json_schema(), written);
  const auto has = [&](const std::string& text) {
    for (const auto& p : problems)
      if (p.find(text) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(has("\"host\" is missing")) << testing::PrintToString(problems);
  EXPECT_TRUE(has("/cpu/count")) << testing::PrintToString(problems);
  EXPECT_TRUE(has("surprise")) << testing::PrintToString(problems);
}

TEST(RunMetaJson, ANewerLayoutOrANonObjectIsRefused) {
  Json written = to_json(everything());
  written["schema_version"] = kMetaVersion + 1;
  EXPECT_THROW(read_run_meta(written), InputError);
  EXPECT_THROW(read_run_meta(Json::array()), InputError);
  // An older folder lacking later fields reads, those fields unset.
  const RunMeta old = read_run_meta({{"schema_version", 1}, {"experiment", {{"name", "e"}}}});
  EXPECT_EQ(old.experiment["name"], "e");
  EXPECT_FALSE(old.machine.has_value());
}

}  // namespace
}  // namespace harness

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "results_store.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

std::string read(const fs::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

TEST(ResultsStore, AppendsRecordsAndWritesSummary) {
  const auto base = fs::temp_directory_path() / "harness_store_test";
  fs::remove_all(base);
  ResultsStore store = ResultsStore::create(base.string(), "exp");
  EXPECT_EQ(fs::path(store.directory()).parent_path(), base / "exp");
  store.append({{"key", "a"}, {"status", "ok"}, {"throughput", {{"samples_per_s", 10}}},
                {"loss", {{"per_epoch", {1, 2}}}}});
  store.append({{"key", "b"}, {"status", "failed"}, {"reason", "x, \"y\""}});
  store.write_meta({{"name", "exp"}});

  EXPECT_EQ(read(fs::path(store.directory()) / "trials.jsonl"),
            "{\"key\":\"a\",\"status\":\"ok\",\"throughput\":{\"samples_per_s\":10},\"loss\":{\"per_epoch\":[1,2]}}\n"
            "{\"key\":\"b\",\"status\":\"failed\",\"reason\":\"x, \\\"y\\\"\"}\n");
  EXPECT_EQ(read(fs::path(store.directory()) / "summary.csv"),
            "key,status,throughput.samples_per_s,reason\n"
            "a,ok,10,\n"
            "b,failed,,\"x, \"\"y\"\"\"\n");
  EXPECT_EQ(store.read_meta()["name"], "exp");

  // Two runs in the same second get distinct folders.
  EXPECT_NE(ResultsStore::create(base.string(), "exp").directory(), store.directory());
}

TEST(ResultsStore, ResumeDropsATruncatedLastLine) {
  const auto base = fs::temp_directory_path() / "harness_store_resume";
  fs::remove_all(base);
  fs::create_directories(base);
  std::ofstream(base / "trials.jsonl") << "{\"key\":\"a\",\"status\":\"ok\"}\n{\"key\":\"b\",\"sta";
  std::vector<std::string> warnings;
  const ResultsStore store = ResultsStore::open(base.string(), &warnings);
  EXPECT_EQ(store.completed_keys(), (std::set<std::string>{"a"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("trials.jsonl:2: unreadable record dropped"), std::string::npos);
  EXPECT_EQ(read(base / "trials.jsonl"), "{\"key\":\"a\",\"status\":\"ok\"}\n");
}

}  // namespace
}  // namespace harness

// The schedule of the results folder's CSVs: written after the first trial, skipped while the
// time since the last write is short against what that write took, written again after, and
// always brought up to date when the sweep ends.
#include "results/rewritten_file.h"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <thread>

#include "test_support.h"

namespace harness {
namespace {

// Its contents: the number of records; each write takes write_time.
class CountingFile final : public RewrittenFile {
 public:
  CountingFile(const std::string& path, std::chrono::milliseconds write_time)
      : RewrittenFile(path), write_time_(write_time) {}
  std::string contents(const std::vector<TrialRun>& all) const override {
    ++writes;
    std::this_thread::sleep_for(write_time_);
    return std::to_string(all.size());
  }
  mutable int writes = 0;

 private:
  std::chrono::milliseconds write_time_;
};

TEST(RewrittenFile, SkipsWhileAWriteWouldTakeAShareOfTheRunAndCatchesUpAtTheEnd) {
  testing::TempDir dir;
  const std::string path = dir.file("counts.csv");
  CountingFile file(path, std::chrono::milliseconds(20));  // next write due 0.4 s later
  std::vector<TrialRun> all;
  for (int i = 0; i < 5; ++i) {
    all.push_back(TrialRun{});
    file.record_added(all.back(), all);
  }
  EXPECT_EQ(file.writes, 1);  // the first record, then four within 0.4 s
  EXPECT_EQ(testing::read_file(path), "1");
  file.sweep_ended(all);
  EXPECT_EQ(file.writes, 2);
  EXPECT_EQ(testing::read_file(path), "5");
  file.sweep_ended(all);  // up to date: nothing to write
  EXPECT_EQ(file.writes, 2);

  // Due again once 20 x the last write's time has passed (at least 0.4 s; longer when the
  // machine stretched the write).
  for (int tries = 0; tries < 100 && file.writes < 3; ++tries) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    all.push_back(TrialRun{});
    file.record_added(all.back(), all);
  }
  EXPECT_EQ(file.writes, 3);
  EXPECT_EQ(testing::read_file(path), std::to_string(all.size()));
  EXPECT_GE(all.size(), 9u);  // not before 0.4 s
}

TEST(RewrittenFile, EmptyContentsWriteNoFile) {
  testing::TempDir dir;
  class Nothing final : public RewrittenFile {
   public:
    using RewrittenFile::RewrittenFile;
    std::string contents(const std::vector<TrialRun>&) const override { return ""; }
  } file(dir.file("none.csv"));
  const std::vector<TrialRun> all{TrialRun{}};
  file.record_added(all.back(), all);
  file.sweep_ended(all);
  EXPECT_FALSE(std::ifstream(dir.file("none.csv")).good());
}

}  // namespace
}  // namespace harness

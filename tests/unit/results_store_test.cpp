#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "common/input_error.h"
#include "record/collective_point.h"
#include "record/record_json.h"
#include "results/file_writing.h"
#include "results/points_csv.h"
#include "results/results_store.h"
#include "results/summary_csv.h"
#include "test_support.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

// A record as an older layout wrote it: the frame every layout has, no figures.
std::string record_line(const std::string& key, const std::string& status) {
  return "{\"key\":\"" + key + "\",\"status\":\"" + status +
         "\",\"kind\":\"train\",\"world_size\":1,\"axes\":{},\"settings\":{}}";
}

TEST(ResultsStore, AppendsRecordsAndSinksWriteTheSummary) {
  const testing::TempDir temp;
  const fs::path base = temp.path();
  ResultsStore store = ResultsStore::create(base.string(), "exp");
  EXPECT_EQ(fs::path(store.directory()).parent_path(), base / "exp");
  SummaryCsv summary(store.directory());
  TrainRecord trained;
  trained.identity.kind = "train";
  trained.identity.key = "a";
  trained.training.emplace();
  trained.training->epoch_losses = {1, 2};
  trained.timing.emplace();
  trained.timing->throughput.emplace();
  trained.timing->throughput->samples_per_s = 10;
  FrameRecord failed;
  failed.identity.kind = "train";
  failed.identity.key = "b";
  failed.end = {TrialStatus::kFailed, "x, \"y\"", 0};
  for (const TrialResult& record : {TrialResult(trained), TrialResult(failed)})
    summary.record_added(store.append(record), store.runs());
  summary.sweep_ended(store.runs());  // the second record may have come too soon after
  store.write_meta({{"name", "exp"}});

  // The lines are the records as the declaration writes them, and read back as written.
  EXPECT_EQ(testing::read_file(fs::path(store.directory()) / "trials.jsonl"),
            to_json(trained).dump() + "\n" + to_json(failed).dump() + "\n");
  EXPECT_EQ(store.runs()[0].train->throughput->samples_per_s, 10);
  EXPECT_EQ(store.runs()[1].end.reason, "x, \"y\"");
  std::istringstream csv(testing::read_file(fs::path(store.directory()) / "summary.csv"));
  std::string header, first, second;
  std::getline(csv, header);
  std::getline(csv, first);
  std::getline(csv, second);
  EXPECT_NE(header.find("throughput.samples_per_s"), std::string::npos) << header;
  EXPECT_NE(first.find(",10.0,"), std::string::npos) << first;
  EXPECT_NE(second.find("\"x, \"\"y\"\"\""), std::string::npos) << second;
  EXPECT_EQ(store.read_meta()["name"], "exp");

  // Two runs in the same second get distinct folders.
  EXPECT_NE(ResultsStore::create(base.string(), "exp").directory(), store.directory());
}

TEST(ResultsStore, ResumeMovesACutOffLastLineAside) {
  const testing::TempDir temp;
  const fs::path base = temp.path();
  std::ofstream(base / "trials.jsonl") << record_line("a", "ok") << "\n{\"key\":\"b\",\"sta";
  std::vector<std::string> warnings;
  const ResultsStore store = ResultsStore::open(base.string(), &warnings);
  EXPECT_EQ(store.completed_keys(), (std::set<std::string>{"a"}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].find("trials.jsonl:2: cut-off last line (an interrupted write) moved to "
                             "trials.cut-off.txt"),
            std::string::npos)
      << warnings[0];
  EXPECT_EQ(testing::read_file(base / "trials.jsonl"), record_line("a", "ok") + "\n");
  EXPECT_EQ(testing::read_file(base / "trials.cut-off.txt"), "{\"key\":\"b\",\"sta\n");
}

// A damaged line that is not the last was not cut by an interrupted write: --resume refuses it,
// naming it, and leaves the file as it is.
TEST(ResultsStore, ResumeRefusesADamagedMiddleLineAndChangesNothing) {
  const testing::TempDir temp;
  const fs::path base = temp.path();
  const std::string text = record_line("a", "ok") + "\n" +
                           "{\"key\": 12345, \"status\": null}\n" + record_line("c", "ok") + "\n";
  std::ofstream(base / "trials.jsonl") << text;
  std::vector<std::string> warnings;
  try {
    ResultsStore::open(base.string(), &warnings);
    ADD_FAILURE() << "a damaged middle line was accepted";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("trials.jsonl:2: damaged record (not a trial record "
                                         "(a JSON object with a string \"key\" and \"status\")); "
                                         "only the last line may be cut off"),
              std::string::npos)
        << e.what();
  }
  EXPECT_EQ(testing::read_file(base / "trials.jsonl"), text);
}

// What ResultsStore::open refuses `directory` with ("" when it opens).
std::string open_refusal(const fs::path& directory) {
  std::vector<std::string> warnings;
  try {
    ResultsStore::open(directory.string(), &warnings);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

// A status no harness of this layout writes is refused where it stands, not run again.
TEST(ResultsStore, ResumeRefusesAStatusItDoesNotKnowByLine) {
  const testing::TempDir temp;
  std::ofstream(temp.path() / "trials.jsonl") << record_line("a", "ok") + "\n"
                                              << record_line("b", "paused") + "\n";
  const std::string refusal = open_refusal(temp.path());
  EXPECT_NE(refusal.find("trials.jsonl:2: status is \"paused\", expected one of ok,"),
            std::string::npos)
      << refusal;
}

// flock locks belong to an open file description, so a second open in this very process
// contends as a second job would.
TEST(ResultsStore, OneJobAtATimeHoldsAFolder) {
  const testing::TempDir temp;
  const fs::path base = temp.path();
  std::ofstream(base / "trials.jsonl") << record_line("a", "ok") + "\n";
  std::vector<std::string> warnings;
  {
    const ResultsStore holder = ResultsStore::open(base.string(), &warnings);
    EXPECT_CONTAINS(open_refusal(base),
                    "in use by harness pid " + std::to_string(getpid()) + " on host");
  }
  EXPECT_FALSE(fs::exists(base / ".lock")) << "the holder's file outlived the lock";
  EXPECT_EQ(open_refusal(base), "");
}

// A link planted in the folder would make a resumed job write outside it: the folder is
// refused, naming the link, and nothing is written through it.
TEST(ResultsStore, ResumeRefusesAFolderHoldingALink) {
  const testing::TempDir temp;
  const fs::path folder = temp.path() / "run", outside = temp.path() / "outside.csv";
  fs::create_directory(folder);
  std::ofstream(folder / "trials.jsonl") << record_line("a", "ok") << "\n";
  std::ofstream(outside) << "precious\n";
  fs::create_directories(folder / "traces" / "k");
  fs::create_symlink(outside, folder / "traces" / "k" / "trace.json.tmp");
  EXPECT_CONTAINS(open_refusal(folder), (folder / "traces/k/trace.json.tmp").string() +
                                            ": is a symbolic link (to " + outside.string() + ")");
  // A writer does not follow one either (a link made while a job runs).
  EXPECT_THROW(write_file_atomically((folder / "traces/k/trace.json").string(), "{}"),
               ResultsWriteError);
  fs::create_symlink(outside, folder / "summary.csv.tmp.2");
  EXPECT_THROW(append_durably((folder / "summary.csv.tmp.2").string(), "x\n"), ResultsWriteError);
  EXPECT_EQ(testing::read_file(outside), "precious\n");
}

// A good trials.jsonl is read, never rewritten: a resume of a read-only copy must work.
TEST(ResultsStore, ResumeNeedsAResultsFolderAndLeavesAGoodOneUnwritten) {
  const testing::TempDir temp;
  EXPECT_CONTAINS(open_refusal(temp.path()), "not a results folder");
  const fs::path trials = temp.path() / "trials.jsonl";
  std::ofstream(trials) << record_line("a", "ok") + "\n";
  const auto inode = [&] {
    struct stat info {};
    stat(trials.c_str(), &info);
    return info.st_ino;
  };
  const auto before = inode();  // an atomic rewrite would rename a new file into place
  EXPECT_EQ(open_refusal(temp.path()), "");
  EXPECT_EQ(inode(), before);
}

// points.csv takes its point columns from the record's point, in record order.
TEST(PointsCsv, OneRowPerPointWithTheRecordsColumns) {
  const testing::TempDir temp;
  CollectivePoint point;
  point.bytes = 1024;
  point.count = 256;
  point.p50_us = 2.5;
  point.wrong = 0;
  const Json record = {{"index", 3},
                       {"kind", "collective"},
                       {"key", "k"},
                       {"status", "ok"},
                       {"world_size", 2},
                       {"backend", {{"name", "mpi"}, {"algorithm", "MPI_Allreduce"}}},
                       {"settings", {{"dtype", "fp32"}, {"op", "sum"}}},
                       {"points", {to_json(point), to_json(point)}}};
  const TrialRun run = read_trial_run(record);
  PointsCsv(temp.path().string()).record_added(run, {run});
  std::istringstream csv(testing::read_file(temp.path() / "points.csv"));
  std::string header, row;
  std::getline(csv, header);
  std::string expected_header = "index,key,status,backend,algorithm,world_size,dtype,op";
  const Json columns = to_json(point);
  for (auto column = columns.begin(); column != columns.end(); ++column)
    expected_header += "," + column.key();
  EXPECT_EQ(header, expected_header);
  std::getline(csv, row);
  EXPECT_EQ(row.rfind("3,k,ok,mpi,MPI_Allreduce,2,fp32,sum,1024,256,0,0,0.0,0.0,2.5,", 0), 0u)
      << row;
  EXPECT_EQ(row.back(), '0');  // wrong
  std::getline(csv, row);
  EXPECT_FALSE(row.empty());
}

// The console's columns are fields of the record's point.
TEST(CollectivePoint, ConsoleColumnsAreRecordFields) {
  const Json json = to_json(CollectivePoint{});
  for (const auto& field : collective_point_fields())
    EXPECT_TRUE(json.contains(field.key)) << field.key;
}

}  // namespace
}  // namespace harness

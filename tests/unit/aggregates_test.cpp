// aggregates.csv: per sweep point over its repetitions, hand-checked.
#include <gtest/gtest.h>

#include <sstream>

#include "results/aggregates_csv.h"

namespace harness {
namespace {

TrialRun train_record(const std::string& point, double rate, const std::string& status = "ok") {
  return read_trial_run({{"part", ""},
                         {"point", point},
                         {"kind", "train"},
                         {"world_size", 2},
                         {"status", status},
                         {"backend", {{"name", "mpi"}, {"algorithm", "MPI_Allreduce"}}},
                         {"axes", {{"batch_size", 32}}},
                         {"throughput", {{"samples_per_s", rate}}},
                         {"loss", {{"per_epoch", {rate / 1000}}}}});
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

TEST(Aggregates, MedianRangeAndIntervalOverRepetitions) {
  const auto lines = lines_of(
      aggregates_csv({train_record("p1", 300), train_record("p1", 100), train_record("p1", 200),
                      train_record("p1", 999, "failed"), train_record("p2", 50)}));
  ASSERT_EQ(lines.size(), 1u + 2u + 2u);  // header, p1 (loss, rate), p2 (loss, rate)
  EXPECT_EQ(lines[0],
            "part,point,kind,world_size,backend,algorithm,axes,figure,bytes,n,median,min,max,"
            "ci_low,ci_high,ci_coverage,estimator,estimate,estimate_low,estimate_high");
  // Three repetitions: median 200, [min, max] = [100, 300] covers 75% (the failed one is out).
  EXPECT_EQ(lines[2],
            ",p1,train,2,mpi,MPI_Allreduce,batch_size=32,samples_per_s,0,3,200,100,300,"
            "100,300,0.75,median,200,100,300");
  EXPECT_EQ(lines[4],
            ",p2,train,2,mpi,MPI_Allreduce,batch_size=32,samples_per_s,0,1,50,50,50,50,50,0,"
            "median,50,50,50");
}

TEST(Aggregates, CollectiveFiguresPerMessageSize) {
  Json record = {{"point", "c"}, {"kind", "collective"}, {"world_size", 2}, {"status", "ok"}};
  std::vector<TrialRun> records;
  for (double busbw : {1.0, 3.0}) {
    record["points"] = {{{"bytes", 64}, {"busbw_gbps", busbw}, {"p50_us", 2 / busbw}},
                        {{"bytes", 4096}, {"busbw_gbps", 10 * busbw}, {"p50_us", 1.0}}};
    records.push_back(read_trial_run(record));
  }
  const std::string csv = aggregates_csv(records);
  EXPECT_NE(csv.find(",busbw_gbps,64,2,2,1,3,1,3,0.5,median,2,1,3\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",busbw_gbps,4096,2,20,10,30,10,30,0.5,median,20,10,30\n"), std::string::npos)
      << csv;
  EXPECT_NE(csv.find(",time_us,4096,2,1,1,1,1,1,0.5,median,1,1,1\n"), std::string::npos) << csv;
}

TEST(Aggregates, KBestGivesTheFastestWithTheBandToTheKthFastest) {
  std::vector<TrialRun> records;
  for (double rate : {100.0, 60.0, 98.0, 55.0, 97.0}) records.push_back(train_record("p", rate));
  const Estimator three_best{EstimatorKind::kKBest, 3};
  const auto lines = lines_of(aggregates_csv(records, three_best));
  // Samples/s: the fastest (100), band down to the third fastest (97); the median stays 97.
  EXPECT_EQ(lines[2],
            ",p,train,2,mpi,MPI_Allreduce,batch_size=32,samples_per_s,0,5,97,55,100,55,100,"
            "0.9375,k_best,100,97,100");
  // The final loss is not a speed: its estimate is the median, whatever the estimator.
  EXPECT_NE(lines[1].find(",final_loss,0,5,0.097,0.055,0.1,0.055,0.1,0.9375,median,0.097,"),
            std::string::npos)
      << lines[1];
  // Time is faster when lower: the fastest is the smallest, the band reaches up.
  Json record = {{"point", "c"}, {"kind", "collective"}, {"world_size", 2}, {"status", "ok"}};
  std::vector<TrialRun> collective;
  for (double t : {5.0, 2.0, 3.0, 9.0}) {
    record["points"] = {{{"bytes", 64}, {"busbw_gbps", 1 / t}, {"p50_us", t}}};
    collective.push_back(read_trial_run(record));
  }
  const std::string csv = aggregates_csv(collective, three_best);
  EXPECT_NE(csv.find(",time_us,64,4,4,2,9,2,9,0.875,k_best,2,2,5\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace harness

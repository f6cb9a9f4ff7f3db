// aggregates.csv: per sweep point over its repetitions, hand-checked.
#include <gtest/gtest.h>

#include <sstream>

#include "results/aggregates_csv.h"

namespace harness {
namespace {

Json train_record(const std::string& point, double rate, const std::string& status = "ok") {
  return {{"part", ""},
          {"point", point},
          {"kind", "train"},
          {"world_size", 2},
          {"status", status},
          {"backend", {{"name", "mpi"}, {"algorithm", "MPI_Allreduce"}}},
          {"axes", {{"batch_size", 32}}},
          {"throughput", {{"samples_per_s", rate}}},
          {"loss", {{"final", rate / 1000}}}};
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
            "ci_low,ci_high,ci_coverage");
  // Three repetitions: median 200, [min, max] = [100, 300] covers 75% (the failed one is out).
  EXPECT_EQ(lines[2],
            ",p1,train,2,mpi,MPI_Allreduce,batch_size=32,samples_per_s,0,3,200,100,300,"
            "100,300,0.75");
  EXPECT_EQ(lines[4],
            ",p2,train,2,mpi,MPI_Allreduce,batch_size=32,samples_per_s,0,1,50,50,50,50,50,0");
}

TEST(Aggregates, CollectiveFiguresPerMessageSize) {
  Json record = {{"point", "c"}, {"kind", "collective"}, {"world_size", 2}, {"status", "ok"}};
  std::vector<Json> records;
  for (double busbw : {1.0, 3.0}) {
    record["points"] = {{{"bytes", 64}, {"busbw_gbps", busbw}, {"time_us", 2 / busbw}},
                        {{"bytes", 4096}, {"busbw_gbps", 10 * busbw}, {"time_us", 1.0}}};
    records.push_back(record);
  }
  const std::string csv = aggregates_csv(records);
  EXPECT_NE(csv.find(",busbw_gbps,64,2,2,1,3,1,3,0.5\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",busbw_gbps,4096,2,20,10,30,10,30,0.5\n"), std::string::npos) << csv;
  EXPECT_NE(csv.find(",time_us,4096,2,1,1,1,1,1,0.5\n"), std::string::npos) << csv;
}

}  // namespace
}  // namespace harness

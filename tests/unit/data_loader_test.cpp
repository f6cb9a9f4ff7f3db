#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "data/dataset_loader.h"
#include "data/loaders.h"
#include "test_support.h"

namespace harness {
namespace {

using testing::dataset_settings;

// Each test's files in a directory of its own.
class DataFiles : public ::testing::Test {
 protected:
  std::string write_temp(const std::string& name, const std::string& text) {
    return dir_.write(name, text);
  }
  std::string csv_error(const std::string& text) {
    try {
      load_csv(write_temp("bad.csv", text), "label");
    } catch (const InputError& e) {
      return e.what();
    }
    return "";
  }
  testing::TempDir dir_;
};
using Annthyroid = DataFiles;
using CsvLoader = DataFiles;
using FannLoader = DataFiles;
using Standardisation = DataFiles;
using SyntheticTabular = DataFiles;

TEST_F(CsvLoader, ReadsFeaturesAndLabel) {
  const auto data = load_csv(write_temp("ok.csv", "a,label,b\n1,0,2\n3,1,4\n\n"), "label");
  EXPECT_EQ(data.cols, 2u);
  ASSERT_EQ(data.rows(), 2u);
  EXPECT_EQ(data.values, (std::vector<float>{1, 2, 3, 4}));
  EXPECT_EQ(data.labels, (std::vector<int>{0, 1}));
}

TEST_F(CsvLoader, RejectsBadFilesWithFileAndLine) {
  EXPECT_CONTAINS(csv_error(""), "bad.csv: the file is empty");
  EXPECT_CONTAINS(csv_error("a,b\n1,2\n"), "bad.csv:1: no label column \"label\"");
  EXPECT_CONTAINS(csv_error("a,label\n1,0\n1,0,3\n"),
                  "bad.csv:3: expected 2 fields as in the header, got 3");
  EXPECT_CONTAINS(csv_error("a,label\n1,0\nx1,0\n"),
                  "bad.csv:3: column 1: \"x1\" is not a decimal number");
  EXPECT_CONTAINS(csv_error("a,label\n1,2\n"), "bad.csv:2: label \"2\"");
  EXPECT_CONTAINS(csv_error("a,label\n"), "has a header but no data rows");
}

TEST_F(FannLoader, ReadsAnnthyroidLabels) {
  const auto data =
      load_fann(write_temp("t.fann", "2 3 3\n0.1 0.2 0.3\n0 0 1\n0.4 0.5 0.6\n1 0 0\n"));
  EXPECT_EQ(data.cols, 3u);
  EXPECT_EQ(data.labels, (std::vector<int>{0, 1}));
  EXPECT_FLOAT_EQ(data.values[4], 0.5f);
}

TEST_F(FannLoader, RejectsShortAndRaggedFiles) {
  try {
    load_fann(write_temp("short.fann", "3 2 1\n0 1\n1\n"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_CONTAINS(e.what(), "short.fann:3: file ends after 1 of 3 rows");
  }
  try {
    load_fann(write_temp("ragged.fann", "1 2 1\n0 1 5\n1\n"));
    FAIL();
  } catch (const InputError& e) {
    EXPECT_CONTAINS(e.what(), "ragged.fann:2: expected 2 inputs, got 3");
  }
}

// Found by fuzz/fann_fuzzer: a header count beyond size_t was undefined behaviour (and a huge
// width an allocation before any row was read).
TEST_F(FannLoader, RejectsHeaderCountsOutOfRange) {
  for (const char* header : {"6.7e23 2 1", "1 1e9 1", "1 2.5 1", "-1 2 1"}) {
    try {
      load_fann(write_temp("header.fann", std::string(header) + "\n0 1\n1\n"));
      FAIL() << header;
    } catch (const InputError& e) {
      EXPECT_CONTAINS(e.what(), "header.fann:1: expected the number of");
      EXPECT_CONTAINS(e.what(), "as a whole number in [0, ");
    }
  }
}

TEST_F(Annthyroid, RealDataFromLibfannDoc) {
  const DataSplit split = load_dataset(dataset_settings({{"kind", "annthyroid"}}), false);
  EXPECT_EQ(split.train.cols, 21u);
  EXPECT_EQ(split.train.rows() + split.test.rows(), 7200u);
  EXPECT_EQ(split.train.anomalies() + split.test.anomalies(), 534u);
}

TEST_F(Standardisation, FitOnTrainingRowsOnly) {
  Json dataset = testing::dataset_json({{"kind", "csv"}});
  // Training rows (label 0, train_on normal): a = 1, 3 -> mean 2, sd 1. The anomaly (a = 100)
  // and the test file must not move the statistics.
  dataset["path"] = write_temp("train.csv", "a,label\n1,0\n3,0\n100,1\n");
  dataset["test_path"] = write_temp("test.csv", "a,label\n5,1\n2,0\n");
  const DataSplit split = load_dataset(dataset_settings_table().parse(dataset), true);
  ASSERT_EQ(split.train.rows(), 2u);
  EXPECT_FLOAT_EQ(split.train.values[0], -1.0f);
  EXPECT_FLOAT_EQ(split.train.values[1], 1.0f);
  EXPECT_FLOAT_EQ(split.test.values[0], 3.0f);
  EXPECT_FLOAT_EQ(split.test.values[1], 0.0f);
}

TEST_F(SyntheticTabular, SeededContaminatedAndSplit) {
  DatasetSettings dataset = dataset_settings({{"rows", 1000}, {"contamination", 0.1}});
  const DataSplit a = make_synthetic_tabular(dataset);
  const DataSplit b = make_synthetic_tabular(dataset);
  EXPECT_EQ(a.train.values, b.train.values);
  EXPECT_EQ(a.test.rows(), 300u);
  EXPECT_EQ(a.train.anomalies() + a.test.anomalies(), 100u);
  EXPECT_GT(a.test.anomalies(), 10u);
  dataset.seed = 1;
  EXPECT_NE(make_synthetic_tabular(dataset).train.values, a.train.values);
}

}  // namespace
}  // namespace harness

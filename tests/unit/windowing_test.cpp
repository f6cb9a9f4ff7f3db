#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "data/loaders.h"
#include "data/windowing.h"
#include "test_support.h"

namespace harness {
namespace {

// One series: values t (feature 0) and 10 t (feature 1); points 12..13 anomalous.
SeriesSet ramp(std::size_t length) {
  Series s;
  s.features = 2;
  for (std::size_t t = 0; t < length; ++t) {
    s.values.push_back(static_cast<float>(t));
    s.values.push_back(static_cast<float>(10 * t));
    s.labels.push_back(t == 12 || t == 13 ? 1 : 0);
  }
  SeriesSet set;
  set.series.push_back(s);
  set.description = "ramp";
  return set;
}

TEST(Windowing, CountsShapesAndLabels) {
  WindowOptions options;
  options.window = 4;
  options.stride = 2;
  options.test_stride = 1;
  options.test_fraction = 0.5;  // 20 points: train 0..9, test 10..19
  const DataSplit split = make_windowed_split(ramp(20), options, false);
  EXPECT_TRUE(split.sequence);
  EXPECT_EQ(split.train.sample_shape, (std::vector<int64_t>{4, 2}));
  EXPECT_EQ(split.train.rows(), 4u);  // starts 0, 2, 4, 6
  EXPECT_EQ(split.test.rows(), 7u);   // starts 10..16
  // "any": test windows starting at 10, 11, 12, 13 contain point 12 or 13.
  EXPECT_EQ(split.test.labels, (std::vector<int>{1, 1, 1, 1, 0, 0, 0}));
  options.label_rule = WindowLabel::kLast;
  // "last": only the window ending at 13 (start 10) ends on an anomalous point.
  EXPECT_EQ(make_windowed_split(ramp(20), options, false).test.labels,
            (std::vector<int>{1, 0, 0, 0, 0, 0, 0}));
  options.label_rule = WindowLabel::kMajority;
  EXPECT_EQ(make_windowed_split(ramp(20), options, false).test.labels,
            (std::vector<int>{0, 0, 0, 0, 0, 0, 0}));
}

TEST(Windowing, NormalisationUsesTrainingPartOnly) {
  WindowOptions options;
  options.window = 2;
  options.test_fraction = 0.5;
  const DataSplit split = make_windowed_split(ramp(20), options, false);
  // Training part t = 0..9: mean 4.5, sd sqrt(8.25). First training value: (0 - 4.5) / sd.
  const double sd = std::sqrt(8.25);
  EXPECT_NEAR(split.train.values[0], -4.5 / sd, 1e-5);
  EXPECT_NEAR(split.train.values[1], -4.5 / sd, 1e-5);  // 10 t scales the same way
  EXPECT_NEAR(split.test.values[0], (10 - 4.5) / sd, 1e-5);
}

TEST(Windowing, TrainOnNormalDropsAnomalousWindows) {
  WindowOptions options;
  options.window = 4;
  options.test_fraction = 0.25;  // train part 0..14 includes the anomaly at 12, 13
  const DataSplit all = make_windowed_split(ramp(20), options, false);
  const DataSplit normal = make_windowed_split(ramp(20), options, true);
  EXPECT_EQ(all.train.rows(), 12u);    // starts 0..11
  EXPECT_EQ(normal.train.rows(), 9u);  // starts 9, 10, 11 touch point 12
  EXPECT_EQ(normal.train.anomalies(), 0u);
}

TEST(Windowing, PointScoresAverageTheCoveringWindows) {
  WindowOptions options;
  options.window = 2;
  options.test_fraction = 0.5;
  const DataSplit split = make_windowed_split(ramp(8), options, false);  // test points 4..7
  ASSERT_EQ(split.test.rows(), 3u);  // windows [4,5] [5,6] [6,7]
  std::vector<int> labels;
  const auto points = point_scores(split.test_layout, {1.0, 3.0, 5.0}, &labels);
  EXPECT_EQ(points, (std::vector<double>{1.0, 2.0, 4.0, 5.0}));
  EXPECT_EQ(labels.size(), 4u);
}

TEST(Windowing, TooShortSeriesIsAClearError) {
  WindowOptions options;
  options.window = 50;
  try {
    make_windowed_split(ramp(20), options, false);
    FAIL();
  } catch (const SettingError& e) {
    EXPECT_EQ(e.field(), "dataset.window");
    EXPECT_CONTAINS(e.what(), "too few for a window of 50");
  }
}

std::string lwsndr_error(const std::string& text) {
  const testing::TempDir dir;
  try {
    load_lwsndr(dir.write("harness_lwsndr.csv", text));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TEST(LwsndrLoader, RejectsBadFilesWithFileAndLine) {
  const std::string header = "reading,mote_id,indoor,humidity,temperature,label\n";
  EXPECT_NE(lwsndr_error("").find("harness_lwsndr.csv: the file is empty"), std::string::npos);
  EXPECT_NE(lwsndr_error("reading,mote_id,indoor,humidity,temperature\n")
                .find("harness_lwsndr.csv:1: expected the header"),
            std::string::npos);
  EXPECT_NE(
      lwsndr_error(header + "1,1,1,45.9,27.9,0\n2,1,1,45.9\n").find(":3: expected 6 fields, got 4"),
      std::string::npos);
  EXPECT_NE(lwsndr_error(header + "1,1,1,wet,27.9,0\n")
                .find(":2: column 4: \"wet\" is not a decimal number"),
            std::string::npos);
  EXPECT_NE(lwsndr_error(header).find("has a header but no readings"), std::string::npos);
}

TEST(LwsndrLoader, RealDataOneSeriesPerMote) {
  const std::string path = std::string(HARNESS_SOURCE_DIR) + "/data/lwsndr/data.csv";
  ASSERT_TRUE(std::ifstream(path)) << path << ": the repository's LWSNDR copy is missing";
  const SeriesSet set = load_lwsndr(path);
  ASSERT_EQ(set.series.size(), 4u);
  std::size_t anomalies = 0;
  for (const auto& s : set.series) {
    EXPECT_EQ(s.features, 2u);
    for (int l : s.labels) anomalies += l;
  }
  EXPECT_EQ(anomalies, 149u);
}

TEST(SyntheticSeries, SeededWithInjectedEvents) {
  const DatasetSettings dataset =
      testing::dataset_settings({{"length", 1000}, {"dim", 3}, {"events", 9}});
  const SeriesSet a = make_synthetic_series(dataset), b = make_synthetic_series(dataset);
  EXPECT_EQ(a.series[0].values, b.series[0].values);
  std::size_t anomalous = 0;
  for (int l : a.series[0].labels) anomalous += l;
  EXPECT_GT(anomalous, 9u);  // spikes are 1 point, shifts and bursts 20
  EXPECT_LE(anomalous, 3u + 6u * 20u);
}

}  // namespace
}  // namespace harness

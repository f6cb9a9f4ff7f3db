// A sweep point's headline figures gathered over its repetitions: what aggregates.csv
// summarises and what adaptive repetitions judge a point's spread by.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "metrics/point_estimate.h"
#include "record/trial_run.h"

namespace harness {

// (figure, message bytes or 0) -> one value per repetition that measured it.
using PointFigures = std::map<std::pair<std::string, std::uint64_t>, std::vector<double>>;

// Adds a measured record's figures: samples_per_s, auroc, final_loss (train); busbw_gbps and
// time_us per message size (collective).
void collect_point_figures(const TrialRun& run, PointFigures& figures);

// The figures that say how fast (samples/s, busbw), as opposed to what was learnt; time_us
// says it too, but only restates busbw.
bool is_speed_figure(const std::string& figure);

// Which way a figure is faster, for the k_best estimator.
Direction figure_direction(const std::string& figure);

}  // namespace harness

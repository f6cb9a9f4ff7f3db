// An experiment file: parsing, strict validation of its structure, and --set overrides.
// Checks that need plugins or data (names, model parameters, files) belong to each trial kind.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "common/json.h"
#include "metrics/point_estimate.h"
#include "spec/kind_schema.h"
#include "spec/schema.h"
#include "spec/search_settings.h"

namespace harness {

// One sweep of one kind. A file holds either one (top-level kind/settings/sweep) or several
// under "parts", whose trials go into the same results folder (in the experiment's order).
struct ExperimentPart {
  std::string name;                // "" for a single-part file
  std::string kind;                // one of the kinds the parser was given
  const Schema* schema = nullptr;  // the kind's settings schema
  std::string pointer;  // "" or "/parts/<i>": where its settings and sweep sit in the file
  Json settings;        // the user's settings, without defaults
  Json sweep;           // dotted settings path -> non-empty array of values, in file order
};

// The order trials run in; repetitions spread over time fight drift (a VM's neighbours come
// and go), as in Google Benchmark's random interleaving.
enum class TrialOrder { kSequential, kInterleaved, kRandom };

// Repetitions spent where the noise is: after the planned repetitions, a sweep point whose
// speed figures (training samples/s, busbw per message size) are still uncertain by more than
// target_ci of their estimate (the median's 95% interval, or the K fastest's spread for k_best)
// runs again, one round of repetitions at a time, until it is settled, reaches
// max_repetitions, the extra trials have used budget_s, or `patience` rounds in a row have
// settled no point.
struct AdaptiveRepetitions {
  int max_repetitions = 0;  // 0: off (only the planned repetitions run)
  double target_ci = 0.05;  // relative width of the estimate's band (PointEstimate::width)
  double budget_s = 300;    // wall time the extra trials may take together
  int patience = 1;         // rounds in a row that settle no point before the rounds stop; 0: no limit
  bool on(int planned) const { return max_repetitions > planned; }
};

// What a sweep point whose ranks would share CPUs on a host (more ranks than CPUs there) gets:
// its figures measure the sharing rather than the backend, so the report never ranks them.
//   measure     every repetition, like any point
//   once        one repetition, to show that it works; no adaptive repetitions
//   leave_out   none
enum class OversubscribedPoints { kMeasure, kOnce, kLeaveOut };

struct Experiment {
  std::string source;  // the file it came from, for messages
  Json document;       // the file as written, with --set overrides applied
  std::string name;
  std::string description;
  std::uint64_t seed = 0;
  int repetitions = 1;
  TrialOrder order = TrialOrder::kInterleaved;
  OversubscribedPoints oversubscribed = OversubscribedPoints::kMeasure;
  AdaptiveRepetitions adaptive;
  SearchSettings search;   // on: the sweep is searched, not run whole
  Estimator estimator;     // a point's figure over its repetitions (metrics/point_estimate.h)
  double timeout_s = 300;  // the watchdog's deadline per operation (0: off)
  std::uint64_t max_trials = 100000;  // more trials than this: refused (a typo in a sweep)
  std::vector<ExperimentPart> parts;
};

std::string oversubscribed_points_name(OversubscribedPoints rule);

// The trials the sweep expands to (every part's axis lengths multiplied, times the
// repetitions), counted without expanding it; saturates at the largest uint64_t.
std::uint64_t planned_trial_count(const Experiment& experiment);

// The fields of an experiment file's top level (for the field reference).
Schema top_level_schema(const KindSchemas& kinds);

// Parses and validates against `kinds` (the first is the default kind); throws InputError
// naming the file, JSON pointer and expectation.
Experiment parse_experiment(const std::string& text, const std::string& source,
                            const std::vector<std::string>& overrides, const KindSchemas& kinds);

}  // namespace harness

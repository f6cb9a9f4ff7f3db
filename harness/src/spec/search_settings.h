// The "search" block: a sweep searched instead of run whole. Which method, which figure it
// optimises, what it may spend, and how sure a decision must be.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/input_error.h"
#include "common/json.h"
#include "spec/schema.h"

namespace harness {

struct ExperimentPart;

enum class SearchMethod { kSuccessiveHalving, kHyperband, kGrid };

// What a configuration is judged by. The first two and busbw are speeds; auroc is quality;
// time_to_target is both: the wall time, at the measured step rate, to reach a target.
enum class SearchObjective { kSamplesPerS, kTimeToTarget, kAuroc, kBusbw };

// What a rung gives a configuration more of: repetitions (a speed is the same figure
// measured again; more of them narrow its interval) or epochs (a quality figure changes as
// training goes on).
enum class SearchResource { kRepetitions, kEpochs };

struct SearchSettings {
  bool on = false;
  SearchMethod method = SearchMethod::kSuccessiveHalving;
  SearchObjective objective = SearchObjective::kSamplesPerS;
  double budget_s = 3600;       // wall time all the search's trials may take
  int eta = 3;                  // 1/eta of a rung's configurations go on (Li et al.)
  int min_repetitions = 1;      // speeds: a configuration's repetitions at the first rung;
                                // quality: at every rung
  int max_repetitions = 9;      // speeds: at the last rung (and every point of method grid)
  int min_epochs = 1;           // quality: epochs at the first rung; the last has the settings'
  double noise_floor = 0.03;    // the relative half-width given a figure with one value
  double settled_width = 0.02;  // speeds: a survivor this sure gets no more repetitions
  // Speeds: the first rung times each configuration for this share of its min_time_s and
  // quiet_wait_s (a screening run); the configurations it keeps are timed for the whole window.
  double first_rung_time_share = 0.1;
  std::optional<double> target_auroc;          // time_to_target by AUROC instead of loss
  std::optional<std::uint64_t> message_bytes;  // busbw at this size (none: the largest)
  Json sample = Json::object();  // settings path -> the range its values are drawn from

  SearchResource resource() const {
    return objective == SearchObjective::kSamplesPerS || objective == SearchObjective::kBusbw
               ? SearchResource::kRepetitions
               : SearchResource::kEpochs;
  }
  bool higher_is_better() const { return objective != SearchObjective::kTimeToTarget; }
};

std::string search_method_name(SearchMethod method);
std::string search_objective_name(SearchObjective objective);

// The fields of the search block (for validation and the field reference).
Schema search_schema();

// Reads the top level's "search" (absent: off) and checks it against the parts it searches;
// sampled axes ("sample") join each part's sweep as values drawn with `seed`. Problems go to
// `errors`, each naming its field.
SearchSettings read_search(const Json& document, std::uint64_t seed, int repetitions,
                           int max_repetitions, std::vector<ExperimentPart>* parts,
                           ErrorList& errors);

}  // namespace harness

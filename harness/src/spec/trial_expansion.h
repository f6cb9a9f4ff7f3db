// Expanding an experiment into its trials: per part, the cartesian product of its sweep axes
// (the last axis varying fastest) times the repetitions, then put in the experiment's order.
#pragma once

#include <vector>

#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

std::vector<Trial> expand_trials(const Experiment& experiment);

// The same sweep point's trial for another repetition: its seed (experiment seed +
// repetition) and key follow; the index is the caller's.
Trial with_repetition(const Trial& trial, int repetition, std::uint64_t experiment_seed);

// The same sweep point with one setting changed (a search's epochs per rung): another point,
// with its own key; the axes stay those of the sweep.
Trial with_setting(const Trial& trial, const std::string& path, const Json& value);

// Reorders trials (given sequentially: each point's repetitions together, in file order) and
// renumbers their index. Interleaved: repetition r of every point before repetition r + 1 of
// any; random: a shuffle seeded by `seed`.
void order_trials(TrialOrder order, std::uint64_t seed, std::vector<Trial>* trials);

// The model files the trials read, by path as written: {path: content hash}. meta.json keeps
// them, so that --resume can tell a file that changed since its trials were recorded.
Json model_file_hashes(const std::vector<Trial>& trials);

// The trial's model files whose content is not what it was when the trial was planned (its key
// and meta.json name that content), one sentence each naming the setting, the path and both
// hashes; empty when every file is unchanged. Read when a trial loads its model.
std::string changed_model_files(const Trial& trial);

}  // namespace harness

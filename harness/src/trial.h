// Trials: the cartesian product of a sweep's axes times repetitions, each with fully resolved
// settings and a key that identifies it across runs (for --resume).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "experiment.h"
#include "json.h"

namespace harness {

struct Trial {
  std::size_t index = 0;  // 0-based position in the whole experiment
  std::string kind;       // the part's kind
  std::string part;       // the part's name ("" for a single-part file)
  std::size_t part_index = 0;
  Json settings;          // every field, defaults filled
  Json axes;              // the swept values of this trial, for display
  int repetition = 0;
  std::uint64_t seed = 0;
  std::string key;  // hex hash of kind, settings, repetition and seed
};

std::vector<Trial> expand_trials(const Experiment& experiment);

// 64-bit FNV-1a: stable across runs, builds and hosts (trial keys, parameter fingerprints).
std::uint64_t fnv1a64(const void* data, std::size_t bytes);
// fnv1a64 of text, hex encoded.
std::string stable_hash(const std::string& text);

}  // namespace harness

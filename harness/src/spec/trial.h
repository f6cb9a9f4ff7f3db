// A trial: one point of a sweep, one repetition, with fully resolved settings and a key that
// identifies it across runs (for --resume).
#pragma once

#include <cstdint>
#include <string>

#include "common/json.h"

namespace harness {

struct Trial {
  std::size_t index = 0;  // 0-based position in the run order of the whole experiment
  std::string kind;       // the part's kind
  std::string part;       // the part's name ("" for a single-part file)
  std::size_t part_index = 0;
  Json settings;       // every field, defaults filled (validated against the kind's schema)
  Json given;          // the settings the file and the sweep point give, without defaults
  Json axes;           // the swept values of this trial, for display
  std::string origin;  // where in the file its values come from ("/sweep/batch_size/1, ...")
  int world_size = 1;
  int repetition = 0;
  // Its ranks share CPUs on a host and the experiment runs such points once
  // (oversubscribed: once): no adaptive repetitions.
  bool measured_once = false;
  std::uint64_t seed = 0;
  // The content hashes of the files the model reads (model_params "path" and "*_path"), by
  // parameter: a changed model file makes another trial.
  Json model_files = Json::object();
  std::string key;    // hex hash of kind, settings, model files, repetition and seed
  std::string point;  // hex hash of part, kind, settings and model files: the same for every
                      // repetition
};

}  // namespace harness

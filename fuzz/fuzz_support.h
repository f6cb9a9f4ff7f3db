// Shared by the libFuzzer targets: the trial kinds' schemas without the trial kinds (which
// need LibTorch), and a scratch file for the loaders, which read paths.
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "spec/collective_settings.h"
#include "spec/experiment.h"
#include "spec/kind_schema.h"
#include "spec/train_settings.h"

namespace harness::fuzz {

inline const KindSchemas& kind_schemas() {
  static const KindSchemas kinds{
      {"train", "distributed training", &train_settings_schema()},
      {"collective", "allreduce benchmark", &collective_settings_schema()}};
  return kinds;
}

// Trials the experiment expands to (parse_experiment already refused more than max_trials);
// the fuzzers expand only small ones, so each input takes milliseconds.
inline double trial_count(const Experiment& experiment) {
  double total = 0;
  for (const auto& part : experiment.parts) {
    double points = experiment.repetitions;
    for (const auto& axis : part.sweep.items()) points *= static_cast<double>(axis.value().size());
    total += points;
  }
  return total;
}

// The per-process file in /dev/shm, removed when the fuzzer exits: /dev/shm is left as it was.
struct ScratchFile {
  std::string path = "/dev/shm/harness_fuzz_" + std::to_string(getpid());
  ~ScratchFile() { std::remove(path.c_str()); }
};

// Writes the input to this process's scratch file and returns its path.
inline std::string scratch_file(const std::uint8_t* data, std::size_t size) {
  static const ScratchFile scratch;
  const std::string& path = scratch.path;
  std::FILE* file = std::fopen(path.c_str(), "wb");
  if (!file) __builtin_trap();
  std::fwrite(data, 1, size, file);
  std::fclose(file);
  return path;
}

}  // namespace harness::fuzz

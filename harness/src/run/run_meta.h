// meta.json, typed: what a reader needs to trust or reproduce a results folder — the experiment
// as run, the command, the machine, the build, how the job ended and what a search or the
// adaptive repetitions decided. Its fields are declared once, in run/run_meta_declaration.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/json.h"
#include "run/machine_state.h"

namespace harness {

// Bumped when a field of meta.json changes meaning, unit or type, or goes away.
inline constexpr int kMetaVersion = 1;

struct CpuInfo {
  std::string model;
  unsigned count = 0;
};

struct MpiInfo {
  std::string library;
  int world_size = 0;
  std::string thread_level;
};

struct RankPlacement {
  int rank = 0;
  std::string host;
  int local_rank = 0;
  std::string cpus;
};

struct RankBinding {
  std::string policy;
  std::vector<RankPlacement> ranks;
};

struct BuildVersions {
  std::string harness;
  int plugin_api = 0;
  std::string build_id, libtorch, gloo, nccl;
};

struct PluginEntry {
  std::string name, kind, version, path;
};

struct SeedsInfo {
  std::uint64_t base = 0;
  int repetitions = 0;
};

struct EstimatorInfo {
  std::string name;
  int k = 0;
};

struct OversubscribedMark {
  std::string rule;
  std::vector<int> world_sizes;
  std::string reason;
};

struct MachineRecord {
  MachineState start;
  std::optional<MachineState> end;
  std::optional<CpuShares> cpu_shares;
};

struct WatchdogMark {
  std::optional<double> timeout_s;  // set when it is on
  std::string off;                  // why it is off
};

struct SearchMark {
  std::string file = "search.json";
  Json winner;  // its axes; null: none
  bool distinguishable = false;
  std::optional<std::string> stopped;
};

struct WidePoint {
  std::string point, part;
  Json axes;
  std::optional<double> relative_width;  // unset: not finite
};

struct AdaptiveSummary {
  int max_repetitions = 0;
  std::string estimator;
  double target_ci = 0, budget_s = 0;
  std::size_t extra_trials = 0;
  double seconds_spent = 0;
  std::size_t points = 0;
  std::vector<WidePoint> still_wide;
  // Why the rounds ended: "target" (no point wider), "max_repetitions", "budget" or
  // "no_progress" (a round narrowed no point to the target). Absent in older results.
  std::optional<std::string> stopped_by;
};

// How a job ended, or that it has not: the marks at meta.json's top, and in each resumption the
// previous job's.
struct UnfinishedMark {
  std::string meaning, resume_with;
};

struct InterruptedMark {
  std::string by;
  int exit_status = 0;
  std::string resume_with;
};

struct AbortedMark {
  std::string by, at, reason;
};

struct EndMarks {
  std::optional<UnfinishedMark> unfinished;
  std::optional<InterruptedMark> interrupted;
  std::optional<AbortedMark> aborted;
  std::optional<std::string> finished_at;
};

struct Resumption {
  std::string at, command;
  Json experiment;  // --extend: the experiment that added trials; null otherwise
  std::optional<EndMarks> previous_end;
};

struct RunMeta {
  Json experiment;
  std::string experiment_file, command, started_at, git_sha;
  bool git_dirty = false;
  std::string host;
  CpuInfo cpu;
  MpiInfo mpi;
  RankBinding binding;
  BuildVersions versions;
  std::vector<PluginEntry> plugins;
  SeedsInfo seeds;
  EstimatorInfo estimator;
  Json model_files;  // path -> content hash; null when no setting names a model file
  std::optional<OversubscribedMark> oversubscribed;
  std::optional<std::vector<Resumption>> resumed;
  std::optional<MachineRecord> machine;
  std::optional<WatchdogMark> watchdog;
  std::optional<SearchMark> search;
  std::optional<AdaptiveSummary> adaptive_repetitions;
  EndMarks end;
};

}  // namespace harness

// One train trial run the way the sweep runs it, on world ranks 0..world-1, for the tests
// that check training's distributed guarantees.
#pragma once

#include <string>

#include "common/json.h"
#include "record/record_json.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "mpi/trial_groups.h"
#include "run/trial_kinds.h"
#include "spec/schema.h"
#include "spec/trial_expansion.h"
#include "test_support.h"

namespace harness::testing {

// Small, fast defaults; `extra` replaces them (objects merge). These tests check what training
// computes, not how fast: the quiet-machine gate only reads its canary, never waits. Rank 0 gets
// the record, the other ranks of the trial an empty object (the record is rank 0's), ranks outside
// it null. Every world rank must call it. results_directory: where rank 0 files traces, as the
// sweep's results folder.
inline Json run_training(int world, std::uint64_t seed, const std::string& extra,
                         const PluginRegistry& plugins, DataCache& data,
                         const std::string& results_directory = "") {
  Json settings = {{"world_size", world},        {"epochs", 2},        {"batch_size", 16},
                   {"dataset", {{"rows", 600}}}, {"min_time_s", 0.05}, {"quiet_wait_s", 0}};
  deep_merge(settings, Json::parse(extra));
  const Experiment e = parse_experiment(
      Json{{"name", "t"}, {"seed", seed}, {"settings", settings}}.dump(), "test", {});
  const Trial trial = expand_trials(e).at(0);
  Json record;
  MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, world, nullptr);
  if (group != MPI_COMM_NULL) {
    TrialContext context{group, 0, 0, &plugins, &data};
    MPI_Comm_rank(group, &context.rank);
    MPI_Comm_size(group, &context.size);
    if (context.rank == 0) context.results_directory = results_directory;
    record = to_json(trial_kind(trial.kind).run(trial, context));
    MPI_Comm_free(&group);
  }
  sleeping_barrier(MPI_COMM_WORLD);
  return record;
}

}  // namespace harness::testing

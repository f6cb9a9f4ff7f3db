#include "run/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <map>
#include <memory>

#include "common/utc_time.h"
#include "mpi/mpi_check.h"
#include "mpi/trial_groups.h"
#include "record/trial_record.h"
#include "results/aggregates_csv.h"
#include "results/points_csv.h"
#include "results/results_store.h"
#include "results/summary_csv.h"
#include "run/machine_state.h"
#include "run/run_metadata.h"
#include "run/trial_kinds.h"
#include "trial/trial_context.h"

namespace harness {
namespace {

// Rank 0's side of a sweep: the folder, its sinks and the console.
struct Leader {
  ResultsStore store;
  std::vector<std::unique_ptr<RecordSink>> sinks;

  void add(const Json& record) {
    store.append(record);
    for (auto& sink : sinks) sink->record_added(record, store.records());
  }
};

std::unique_ptr<Leader> open_results(const Experiment& experiment, const SweepOptions& options) {
  std::vector<std::string> warnings;
  auto leader = std::make_unique<Leader>(Leader{
      options.resume_directory.empty() ? ResultsStore::create(options.results_base, experiment.name)
                                       : ResultsStore::open(options.resume_directory, &warnings),
      {}});
  for (const auto& w : warnings) std::fprintf(stderr, "harness: warning: %s\n", w.c_str());
  leader->sinks.push_back(std::make_unique<SummaryCsv>(leader->store.directory()));
  leader->sinks.push_back(std::make_unique<PointsCsv>(leader->store.directory()));
  leader->sinks.push_back(std::make_unique<AggregatesCsv>(leader->store.directory()));
  return leader;
}

// A resumed folder keeps its first meta.json and lists each resumption.
Json meta_for_start(const ResultsStore& store, Json meta, bool resuming) {
  if (!resuming) return meta;
  Json previous = store.read_meta();
  Json resumed = previous.value("resumed", Json::array());
  resumed.push_back({{"at", meta["started_at"]}, {"command", meta["command"]}});
  if (!previous.empty()) meta = previous;
  meta["resumed"] = resumed;
  return meta;
}

// Rank 0 decides which trials are already recorded; everyone learns the same answer.
std::vector<char> broadcast_done_flags(const std::vector<Trial>& trials,
                                       const ResultsStore* store) {
  std::vector<char> done(trials.size(), 0);
  if (store) {
    const auto keys = store->completed_keys();
    for (std::size_t i = 0; i < trials.size(); ++i) done[i] = keys.count(trials[i].key) ? 1 : 0;
  }
  if (!trials.empty())
    check_mpi(MPI_Bcast(done.data(), static_cast<int>(done.size()), MPI_CHAR, 0, MPI_COMM_WORLD),
              "MPI_Bcast");
  return done;
}

// On the trial's group: the kind's record. Outside it: an empty record.
Json run_on_group(const Trial& trial, const PluginRegistry& plugins, DataCache& data) {
  MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, trial.world_size);
  if (group == MPI_COMM_NULL) return {};
  TrialContext context;
  context.comm = group;
  MPI_Comm_rank(group, &context.rank);
  MPI_Comm_size(group, &context.size);
  context.plugins = &plugins;
  context.data = &data;
  const auto started = std::chrono::steady_clock::now();
  Json record;
  try {
    record = trial_kind(trial.kind).run(trial, context);
  } catch (const std::exception& e) {
    record = finish_record(new_trial_record(trial, trial.world_size), TrialStatus::kFailed,
                           e.what(), started);
  }
  MPI_Comm_free(&group);
  return record;
}

std::string status_tally(const std::vector<Json>& records) {
  std::map<std::string, int> counts;
  for (const auto& record : records) ++counts[record["status"].get<std::string>()];
  std::string tally;
  for (const auto& [status, count] : counts)
    tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  return tally;
}

}  // namespace

std::string run_sweep(const Experiment& experiment, const std::vector<Trial>& trials,
                      const PluginRegistry& plugins, DataCache& data, const SweepOptions& options) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool resuming = !options.resume_directory.empty();
  std::unique_ptr<Leader> leader = rank == 0 ? open_results(experiment, options) : nullptr;
  ConsoleReporter reporter(leader ? options.verbosity : Verbosity::kQuiet, trials.size());
  Json meta = collect_run_metadata(experiment, options.command, plugins, MPI_COMM_WORLD);
  if (leader) {
    meta = meta_for_start(leader->store, meta, resuming);
    meta["machine"] = {{"start", machine_state_now()}};
    leader->store.write_meta(meta);
    reporter.message("harness: " + std::to_string(trials.size()) + " trial(s) of \"" +
                     experiment.name + "\" -> " + leader->store.directory());
  }
  const auto done = broadcast_done_flags(trials, leader ? &leader->store : nullptr);
  reporter.skipped_as_done(static_cast<std::size_t>(std::count(done.begin(), done.end(), 1)));

  for (std::size_t i = 0; i < trials.size(); ++i) {
    if (done[i]) continue;
    if (leader) reporter.trial_started(trials[i], i);
    const Json record = run_on_group(trials[i], plugins, data);
    // Ranks outside the trial sleep here; nobody starts the next trial early.
    sleeping_barrier(MPI_COMM_WORLD);
    if (!leader) continue;
    leader->add(record);
    reporter.trial_finished(record, i);
  }
  if (!leader) return {};
  meta["finished_at"] = utc_now();
  meta["machine"]["end"] = machine_state_now();
  meta["machine"]["cpu_shares"] =
      cpu_shares_between(meta["machine"]["start"], meta["machine"]["end"]);
  leader->store.write_meta(meta);
  reporter.message("harness: done (" + status_tally(leader->store.records()) + "); results in " +
                   leader->store.directory());
  return leader->store.directory();
}

}  // namespace harness

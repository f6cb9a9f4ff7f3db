#include "sweep_runner.h"

#include <map>
#include <memory>

#include "collective_trial.h"
#include "mpi_runtime.h"
#include "results_store.h"
#include "run_metadata.h"
#include "train_trial.h"
#include "trial_context.h"
#include "trial_record.h"

namespace harness {
namespace {

using TrialRunner = Json (*)(const Trial&, const TrialContext&);

TrialRunner runner_for(const std::string& kind) {
  static const std::map<std::string, TrialRunner> runners = {
      {"train", &run_train_trial}, {"collective", &run_collective_trial}};
  return runners.at(kind);
}

// Rank 0 decides which trials are already recorded; everyone learns the same answer.
std::vector<char> broadcast_done_flags(const std::vector<Trial>& trials, const ResultsStore* store) {
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

}  // namespace

std::string run_sweep(const Experiment& experiment, const std::vector<Trial>& trials,
                      const PluginRegistry& plugins, DataCache& data, const SweepOptions& options) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool leader = rank == 0;

  std::unique_ptr<ResultsStore> store;
  ConsoleReporter reporter(leader ? options.verbosity : Verbosity::kQuiet, trials.size());
  if (leader) {
    std::vector<std::string> warnings;
    store = std::make_unique<ResultsStore>(
        options.resume_directory.empty()
            ? ResultsStore::create(options.results_base, experiment.name)
            : ResultsStore::open(options.resume_directory, &warnings));
    for (const auto& w : warnings) std::fprintf(stderr, "harness: warning: %s\n", w.c_str());
  }
  Json meta = collect_run_metadata(experiment, options.command, plugins, MPI_COMM_WORLD);
  if (leader) {
    if (!options.resume_directory.empty()) {
      Json previous = store->read_meta();
      Json resumed = previous.value("resumed", Json::array());
      resumed.push_back({{"at", meta["started_at"]}, {"command", meta["command"]}});
      meta = previous.empty() ? meta : previous;
      meta["resumed"] = resumed;
    }
    store->write_meta(meta);
    reporter.message("harness: " + std::to_string(trials.size()) + " trial(s) of \"" +
                     experiment.name + "\" -> " + store->directory());
  }

  const auto done = broadcast_done_flags(trials, store.get());
  std::size_t already = 0;
  for (char d : done) already += d ? 1 : 0;
  reporter.skipped_as_done(already);

  for (std::size_t i = 0; i < trials.size(); ++i) {
    if (done[i]) continue;
    const Trial& trial = trials[i];
    if (leader) reporter.trial_started(trial, i);
    const int world_size = trial.settings["world_size"].get<int>();
    MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, world_size);
    Json record;
    if (group != MPI_COMM_NULL) {
      TrialContext context;
      context.comm = group;
      MPI_Comm_rank(group, &context.rank);
      MPI_Comm_size(group, &context.size);
      context.plugins = &plugins;
      context.data = &data;
      const auto started = std::chrono::steady_clock::now();
      try {
        record = runner_for(trial.kind)(trial, context);
      } catch (const std::exception& e) {
        record = finish_record(new_trial_record(trial.kind, trial, world_size), "failed",
                               e.what(), started);
      }
      MPI_Comm_free(&group);
    }
    // Ranks outside the trial sleep here; nobody starts the next trial early.
    sleeping_barrier(MPI_COMM_WORLD);
    if (leader) {
      store->append(record);
      reporter.trial_finished(record, i);
    }
  }

  if (!leader) return {};
  std::map<std::string, int> counts;
  for (const auto& record : store->records()) ++counts[record["status"].get<std::string>()];
  std::string tally;
  for (const auto& [status, count] : counts)
    tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  meta["finished_at"] = utc_now();
  store->write_meta(meta);
  reporter.message("harness: done (" + tally + "); results in " + store->directory());
  return store->directory();
}

}  // namespace harness

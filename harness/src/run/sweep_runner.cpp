#include "run/sweep_runner.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>

#include "common/brief.h"
#include "common/utc_time.h"
#include "mpi/cpu_crowding.h"
#include "mpi/mpi_check.h"
#include "mpi/string_broadcast.h"
#include "mpi/trial_groups.h"
#include "mpi/watchdog.h"
#include "record/trial_record.h"
#include "record/trial_status.h"
#include "results/aggregates_csv.h"
#include "results/file_writing.h"
#include "results/points_csv.h"
#include "results/results_store.h"
#include "results/summary_csv.h"
#include "run/adaptive_repetitions.h"
#include "run/experiment_loading.h"
#include "run/interruption.h"
#include "run/leader_step.h"
#include "run/machine_state.h"
#include "run/run_meta_json.h"
#include "run/run_metadata.h"
#include "run/search_runner.h"
#include "run/trial_kinds.h"
#include "spec/trial_expansion.h"
#include "trial/trial_context.h"

namespace harness {
namespace {

// Rank 0's side of a sweep: the folder, its sinks and the console.
struct Leader {
  ResultsStore store;
  std::vector<std::unique_ptr<RecordSink>> sinks;

  void write_meta(const RunMeta& meta) const { store.write_meta(to_json(meta)); }
  const TrialRun& add(TrialResult finished) {
    const TrialRun& run = store.append(std::move(finished));
    for (auto& sink : sinks) sink->record_added(run, store.runs());
    return run;
  }
  void sweep_ended() {
    for (auto& sink : sinks) sink->sweep_ended(store.runs());
  }
};

std::unique_ptr<Leader> open_results(const Experiment& experiment, const SweepOptions& options) {
  std::vector<std::string> warnings;
  auto leader = std::make_unique<Leader>(Leader{
      options.resume_directory.empty() ? ResultsStore::create(options.results_base, experiment.name)
                                       : ResultsStore::open(options.resume_directory, &warnings),
      {}});
  for (const auto& w : warnings)
    std::fprintf(stderr, "harness: warning: %s\n", printable(w).c_str());
  leader->sinks.push_back(std::make_unique<SummaryCsv>(leader->store.directory()));
  leader->sinks.push_back(std::make_unique<PointsCsv>(leader->store.directory()));
  leader->sinks.push_back(
      std::make_unique<AggregatesCsv>(leader->store.directory(), experiment.estimator));
  return leader;
}

// Rank 0's side of the watchdog: the trial in progress and how to record its hang. Called on
// the watchdog's thread while the main thread is stuck in a collective.
class HangRecorder {
 public:
  void sweep_started(Leader* leader, const RunMeta& meta) {
    std::lock_guard<std::mutex> lock(mutex_);
    leader_ = leader;
    meta_ = meta;
  }
  void trial_started(const Trial* trial) {
    std::lock_guard<std::mutex> lock(mutex_);
    trial_ = trial;
    started_ = std::chrono::steady_clock::now();
  }
  // failed: the cause is known (a backend's failure, a crash), not only a wait.
  void record(const std::string& message, bool failed) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!leader_) return;
    meta_.end.unfinished.reset();
    meta_.end.aborted = AbortedMark{"watchdog", utc_now(), message};
    // mpirun answers the abort with SIGTERM: the interruption mark must not put back the
    // meta.json it was armed with, which lacks "aborted" (seen under load).
    arm_interruption_mark(leader_->store.directory(), meta_);
    try {
      if (trial_) {
        const TrialStatus status = failed ? TrialStatus::kFailed : TrialStatus::kHung;
        leader_->add(frame_record(*trial_, status, message, started_));
        // Said whatever the verbosity: a launcher goes on from here (scripts/lib/launch.bash).
        std::fprintf(stderr,
                     "harness: watchdog: recorded the trial as %s in %s/trials.jsonl; "
                     "harness --resume %s runs the trials after it\n",
                     trial_status_name(status), leader_->store.directory().c_str(),
                     leader_->store.directory().c_str());
      }
      leader_->sweep_ended();  // the CSVs as the folder stands: the job ends here
      leader_->write_meta(meta_);
    } catch (const ResultsWriteError& e) {  // the job is being aborted anyway
      std::fprintf(stderr, "harness: watchdog: %s\n", e.what());
    }
  }

 private:
  std::mutex mutex_;
  Leader* leader_ = nullptr;
  const Trial* trial_ = nullptr;
  std::chrono::steady_clock::time_point started_;
  RunMeta meta_;
};

bool has_mark(const EndMarks& marks) {
  return marks.unfinished || marks.interrupted || marks.aborted || marks.finished_at;
}

// A resumed folder keeps its first meta.json and lists each resumption; how the previous job
// ended moves into the resumption's entry, so that the top level describes this job only.
RunMeta meta_for_start(const ResultsStore& store, RunMeta meta, bool resuming) {
  if (!resuming) return meta;
  Json document;
  RunMeta previous = meta;
  try {
    document = store.read_meta();
    if (!document.empty()) previous = read_run_meta(document);
  } catch (const InputError& e) {  // only --extend gets here (check_resumed_experiment)
    std::fprintf(stderr, "harness: warning: %s; --extend writes a new meta.json\n",
                 printable(e.what()).c_str());
    document = Json::object();
  }
  Resumption entry{meta.started_at, meta.command, Json(), std::nullopt};
  // --extend: the experiment that added trials is kept beside the first one.
  if (!document.empty() && !experiment_differences(previous.experiment, meta.experiment).empty())
    entry.experiment = meta.experiment;
  if (has_mark(previous.end)) entry.previous_end = std::exchange(previous.end, EndMarks{});
  if (!previous.resumed) previous.resumed.emplace();
  previous.resumed->push_back(std::move(entry));
  // The model files as now read: --extend has accepted a changed one, and the next --resume
  // compares with it.
  if (!meta.model_files.empty()) previous.model_files = meta.model_files;
  return previous;
}

// Until the sweep ends normally meta.json says so: a job killed outright (SIGKILL, a second
// Ctrl-C to mpirun, the OOM killer) leaves this mark, where no signal handler could run.
void mark_unfinished(RunMeta* meta, const std::string& directory) {
  meta->end.unfinished = UnfinishedMark{
      "the job has not ended normally: it is running, or it was killed",
      "harness --resume " + directory};
}

// Best effort, when results can no longer be written: the reason in meta.json if it still
// fits on the disk.
void mark_write_failure(const Leader& leader, RunMeta meta, const std::string& reason) {
  disarm_interruption_mark();
  meta.end.unfinished.reset();
  meta.end.aborted = AbortedMark{"a results file that could not be written", utc_now(), reason};
  try {
    leader.write_meta(meta);
  } catch (const ResultsWriteError&) {
  }
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

// On the trial's group: the kind's record. Outside it: an empty frame, never recorded.
// results_directory: rank 0's results folder, "" elsewhere.
TrialResult run_on_group(const Trial& trial, const PluginRegistry& plugins, DataCache& data,
                  Watchdog* watchdog, const std::string& results_directory) {
  MPI_Comm group = split_first_ranks(MPI_COMM_WORLD, trial.world_size, watchdog);
  if (group == MPI_COMM_NULL) return FrameRecord{};
  TrialContext context;
  context.comm = group;
  context.watchdog = watchdog;
  MPI_Comm_rank(group, &context.rank);
  MPI_Comm_size(group, &context.size);
  context.plugins = &plugins;
  context.data = &data;
  context.results_directory = results_directory;
  context.oversubscribed = group_crowding(group);
  const auto started = std::chrono::steady_clock::now();
  TrialResult record;
  try {
    record = trial_kind(trial.kind).run(trial, context);
  } catch (const std::exception& e) {
    record = frame_record(trial, TrialStatus::kFailed, e.what(), started);
  }
  MPI_Comm_free(&group);
  return record;
}

// Runs trials one after another on their groups; rank 0 records each.
struct TrialDriver {
  int rank;
  const PluginRegistry& plugins;
  DataCache& data;
  HangRecorder& hangs;
  Watchdog* watchdog;
  Leader* leader;  // rank 0 only
  ConsoleReporter& reporter;

  void run(const Trial& trial, std::size_t position) {
    if (leader) reporter.trial_started(trial, position);
    hangs.trial_started(&trial);
    TrialResult record =
        run_on_group(trial, plugins, data, watchdog, leader ? leader->store.directory() : "");
    {
      // Ranks outside the trial sleep here (unwatched: they wait for the whole trial); the
      // trial's ranks only wait for each other. Nobody starts the next trial early.
      const bool member = rank < trial.world_size;
      std::optional<WatchedOperation> watched;
      if (member) watched.emplace(watchdog, "end of trial", trial.index, trial.world_size);
      sleeping_barrier(MPI_COMM_WORLD);
    }
    hangs.trial_started(nullptr);
    const TrialRun* finished = nullptr;
    on_leader(leader != nullptr, [&] { finished = &leader->add(std::move(record)); });
    if (finished) reporter.trial_finished(*finished, position);
  }
};

// "+-5%" for 0.05.
// Rank 0's decision, shared: the points that get the next repetition.
std::vector<std::size_t> share_points_to_repeat(const AdaptivePlanner& planner,
                                                const Leader* leader, int repetition) {
  Json chosen = Json::array();
  if (leader)
    for (auto p : planner.points_to_repeat(leader->store.runs(), repetition)) chosen.push_back(p);
  chosen = Json::parse(broadcast_string(chosen.dump(), 0, MPI_COMM_WORLD));
  return chosen.get<std::vector<std::size_t>>();
}

enum class NextStep : char { kStop, kRun, kAlreadyRecorded };

// Rank 0's decision, shared: run an adaptive trial, skip it (recorded before a resume), or
// stop (the budget is spent).
NextStep share_next_step(const AdaptivePlanner& planner, const Leader* leader, const Trial& trial) {
  NextStep step = NextStep::kRun;
  if (leader) {
    if (leader->store.completed_keys().count(trial.key))
      step = NextStep::kAlreadyRecorded;
    else if (!planner.budget_left(leader->store.runs()))
      step = NextStep::kStop;
  }
  check_mpi(MPI_Bcast(&step, 1, MPI_CHAR, 0, MPI_COMM_WORLD), "MPI_Bcast");
  return step;
}

// One adaptive round: repetition r of each chosen point. False when the budget stopped it.
bool run_adaptive_round(const AdaptivePlanner& planner, const std::vector<std::size_t>& chosen,
                        int r, std::uint64_t seed, TrialDriver& driver, std::size_t& position) {
  for (const auto p : chosen) {
    Trial trial = with_repetition(planner.points()[p], r, seed);
    trial.index = position;
    const NextStep step = share_next_step(planner, driver.leader, trial);
    if (step == NextStep::kStop) return false;
    if (step == NextStep::kRun) driver.run(trial, position);
    ++position;
  }
  return true;
}

// After the planned trials: rounds of one more repetition for every point still wider than
// the target, until none is, max_repetitions is reached, the budget is spent, or
// adaptive_patience rounds in a row settled no point: then what keeps the points wide is the
// machine drifting between repetitions, which more of them do not narrow (the headline job on
// a shared 2-core VM: 17 of 20 points wide after each of two rounds). Every rank sees the same
// rounds (they are broadcast), so all stop together. Returns the summary for meta.json (on
// rank 0).
std::optional<AdaptiveSummary> run_adaptive_repetitions(const Experiment& experiment,
                                                        const std::vector<Trial>& trials,
                                                        TrialDriver& driver) {
  const AdaptivePlanner planner(experiment.adaptive, experiment.estimator, experiment.repetitions,
                                one_trial_per_point(trials));
  std::size_t position = trials.size();
  std::size_t last_round = std::numeric_limits<std::size_t>::max();
  int fruitless_rounds = 0;  // in a row, ending with the last
  std::string stopped_by = "max_repetitions";
  for (int r = experiment.repetitions; r < experiment.adaptive.max_repetitions; ++r) {
    const auto chosen = share_points_to_repeat(planner, driver.leader, r);
    if (chosen.empty()) {
      stopped_by = "target";
      break;
    }
    fruitless_rounds = chosen.size() >= last_round ? fruitless_rounds + 1 : 0;
    if (experiment.adaptive.patience > 0 && fruitless_rounds >= experiment.adaptive.patience) {
      stopped_by = "no_progress";
      driver.reporter.message("harness: adaptive repetitions stop: " +
                              std::to_string(fruitless_rounds) +
                              " round(s) in a row settled no point (the machine drifts between "
                              "repetitions; adaptive_patience)");
      break;
    }
    last_round = chosen.size();
    driver.reporter.extend(chosen.size());
    driver.reporter.message(
        "harness: adaptive repetition " + std::to_string(r + 1) + ": " +
        std::to_string(chosen.size()) + " of " + std::to_string(planner.points().size()) +
        " point(s) still wider than " + target_text(experiment.adaptive, experiment.estimator));
    if (!run_adaptive_round(planner, chosen, r, experiment.seed, driver, position)) {
      stopped_by = "budget";
      driver.reporter.message("harness: adaptive repetitions stop: adaptive_budget_s spent");
      break;
    }
  }
  if (!driver.leader) return std::nullopt;
  AdaptiveSummary summary = planner.summary(driver.leader->store.runs());
  // The last round may have settled every point just as max_repetitions came.
  summary.stopped_by = summary.still_wide.empty() ? "target" : stopped_by;
  return summary;
}

// The sweep as planned: every trial not yet recorded, then adaptive repetitions.
void run_every_trial(const Experiment& experiment, const std::vector<Trial>& trials,
                     const std::vector<char>& done, TrialDriver& driver, RunMeta& meta) {
  driver.reporter.skipped_as_done(
      static_cast<std::size_t>(std::count(done.begin(), done.end(), 1)));
  for (std::size_t i = 0; i < trials.size(); ++i)
    if (!done[i]) driver.run(trials[i], i);
  if (experiment.adaptive.on(experiment.repetitions)) {
    meta.adaptive_repetitions = run_adaptive_repetitions(experiment, trials, driver);
  }
}

// The sweep searched: the planner picks the trials; search.json says what it decided.
SearchSummary search_in_folder(const Experiment& experiment, const std::vector<Trial>& trials,
                      TrialDriver& driver) {
  Leader* leader = driver.leader;
  SearchHooks hooks;
  hooks.run = [&driver](const Trial& trial, std::size_t position) {
    driver.run(trial, position);
  };
  hooks.records = [leader]() -> const std::vector<TrialRun>& {
    return leader->store.runs();
  };
  hooks.write = [leader](const SearchSummary& summary) {
    write_file_atomically(leader->store.directory() + "/search.json",
                          to_json(summary).dump(1) + "\n");
  };
  hooks.reporter = &driver.reporter;
  return run_search(experiment, trials, leader != nullptr, hooks);
}

// meta.json's pointer to search.json: where the search ended.
SearchMark search_mark(const SearchSummary& search) {
  return {"search.json", search.winner, search.distinguishable, search.stopped};
}

std::string status_tally(const std::vector<TrialRun>& runs) {
  std::map<std::string, int> counts;
  for (const auto& run : runs) ++counts[trial_status_name(run.end.status)];
  std::string tally;
  for (const auto& [status, count] : counts)
    tally += (tally.empty() ? "" : ", ") + std::to_string(count) + " " + status;
  return tally;
}

// Rank 0 opens (and locks) the folder; a folder that cannot be used stops every rank.
std::unique_ptr<Leader> open_on_leader(const Experiment& experiment, const SweepOptions& options,
                                       int rank) {
  std::unique_ptr<Leader> leader;
  on_leader(rank == 0, [&] { leader = open_results(experiment, options); });
  return leader;
}

// "12 trial(s)", or "search (successive_halving by samples_per_s) over 12 configuration(s)".
std::string what_runs(const Experiment& experiment, std::size_t trials) {
  if (!experiment.search.on) return std::to_string(trials) + " trial(s)";
  return "search (" + search_method_name(experiment.search.method) + " by " +
         search_objective_name(experiment.search.objective) + ") over " + std::to_string(trials) +
         " configuration(s)";
}

// The sweep itself, once the folder is open: meta.json, the trials, the closing lines.
void run_in_folder(const Experiment& experiment, const std::vector<Trial>& trials,
                   const std::vector<char>& done, TrialDriver& driver, RunMeta& meta,
                   const Watchdog& watchdog, bool resuming) {
  Leader* leader = driver.leader;
  ConsoleReporter& reporter = driver.reporter;
  on_leader(leader != nullptr, [&] {
    meta = meta_for_start(leader->store, meta, resuming);
    meta.machine = MachineRecord{machine_state_now(), std::nullopt, std::nullopt};
    meta.watchdog = watchdog.active() ? WatchdogMark{experiment.timeout_s, ""}
                                      : WatchdogMark{std::nullopt, watchdog.inactive_reason()};
    mark_unfinished(&meta, leader->store.directory());
    leader->write_meta(meta);
  });
  if (leader) {
    driver.hangs.sweep_started(leader, meta);
    arm_interruption_mark(leader->store.directory(), meta);
    reporter.message("harness: " + what_runs(experiment, trials.size()) + " of \"" +
                     experiment.name + "\" -> " + leader->store.directory());
  }
  if (experiment.search.on) {
    const SearchSummary search = search_in_folder(experiment, trials, driver);
    if (leader) meta.search = search_mark(search);
  } else {
    run_every_trial(experiment, trials, done, driver, meta);
  }
  on_leader(leader != nullptr, [&] {
    leader->sweep_ended();
    disarm_interruption_mark();
    meta.end.unfinished.reset();
    meta.end.finished_at = utc_now();
    meta.machine->end = machine_state_now();
    meta.machine->cpu_shares = cpu_shares_between(meta.machine->start, *meta.machine->end);
    leader->write_meta(meta);
  });
}

// A resumed folder whose trials are all recorded: nothing is written (it may be read-only).
bool nothing_to_run(const Experiment& experiment, const std::vector<char>& done, bool resuming) {
  return resuming && !experiment.adaptive.on(experiment.repetitions) && !experiment.search.on &&
         std::count(done.begin(), done.end(), 1) == static_cast<std::ptrdiff_t>(done.size());
}

}  // namespace

std::string run_sweep(const Experiment& experiment, const std::vector<Trial>& trials,
                      const PluginRegistry& plugins, DataCache& data, const SweepOptions& options) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const bool resuming = !options.resume_directory.empty();
  std::unique_ptr<Leader> leader = open_on_leader(experiment, options, rank);
  ConsoleReporter reporter(leader ? options.verbosity : Verbosity::kQuiet,
                           experiment.search.on ? 0 : trials.size());
  const auto done = broadcast_done_flags(trials, leader ? &leader->store : nullptr);
  if (nothing_to_run(experiment, done, resuming)) {
    reporter.message("harness: nothing to run: all " + std::to_string(trials.size()) +
                     " trial(s) are recorded in " + options.resume_directory);
    return leader ? leader->store.directory() : std::string();
  }
  HangRecorder hangs;
  Watchdog watchdog(MPI_COMM_WORLD, experiment.timeout_s,
                    [&hangs](const std::string& message, bool failed) {
                      hangs.record(message, failed);
                    });
  RunMeta meta = collect_run_metadata(experiment, options.command, plugins, MPI_COMM_WORLD);
  if (const Json files = model_file_hashes(trials); !files.empty()) meta.model_files = files;
  meta.oversubscribed = options.oversubscribed.mark;
  if (leader && !options.oversubscribed.note.empty())
    reporter.message("harness: " + options.oversubscribed.note);
  TrialDriver driver{rank, plugins, data, hangs, &watchdog, leader.get(), reporter};
  try {
    run_in_folder(experiment, trials, done, driver, meta, watchdog, resuming);
  } catch (const ResultsWriteError& e) {
    if (leader) mark_write_failure(*leader, meta, e.what());
    const std::string directory =
        broadcast_string(leader ? leader->store.directory() : "", 0, MPI_COMM_WORLD);
    throw ResultsWriteError(std::string(e.what()) + "; every trial recorded before is kept in " +
                            directory + "/trials.jsonl: " +
                            (e.out_of_space() ? "make room" : "remove the cause above") +
                            ", then continue with harness --resume " + directory);
  }
  if (!leader) return {};
  const std::size_t noisy = reporter.noisy_trials();
  reporter.message("harness: done (" + status_tally(leader->store.runs()) +
                   (noisy ? "; " + std::to_string(noisy) + " noisy" : std::string()) +
                   "); results in " + leader->store.directory());
  reporter.message("harness: the Answer and report.md: scripts/plot " + leader->store.directory());
  return leader->store.directory();
}

}  // namespace harness

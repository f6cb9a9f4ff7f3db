#include "run/harness_app.h"

#include <cerrno>
#include <climits>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <optional>

#include "common/brief.h"
#include "common/exit_codes.h"
#include "common/input_error.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "mpi/mpi_runtime.h"
#include "mpi/string_broadcast.h"
#include "mpi/trial_groups.h"
#include "record/record_reference.h"
#include "record/record_schema.h"
#include "results/file_writing.h"
#include "run/console_listing.h"
#include "run/experiment_loading.h"
#include "run/oversubscribed_worlds.h"
#include "run/plan_memory.h"
#include "run/record_tools.h"
#include "run/run_meta_json.h"
#include "run/sweep_runner.h"
#include "run/trial_validation.h"
#include "search/search_summary.h"
#include "spec/json_path.h"
#include "spec/trial_expansion.h"

namespace harness {
namespace {

SweepOptions sweep_options(const CommandLine& cli) {
  SweepOptions options;
  options.results_base = cli.results_dir;
  options.resume_directory = cli.resume;
  options.command = cli.argv;
  options.verbosity =
      cli.quiet ? Verbosity::kQuiet : (cli.verbose ? Verbosity::kVerbose : Verbosity::kNormal);
  return options;
}

// The plugins, after the checks plugin loading makes; refusals and shadowing are always said
// (on stderr, unless the listing of --list-plugins says them).
PluginRegistry load_plugins(const CommandLine& cli, bool leader) {
  for (const auto& directory : cli.plugin_dirs) {
    std::error_code error;
    if (!std::filesystem::is_directory(directory, error))
      throw InputError("--plugin-dir " + directory + ": no such directory");
  }
  DiscoveryOptions discovery;
  discovery.allow_insecure = cli.allow_insecure_plugins;
  PluginRegistry plugins = PluginRegistry::discover(plugin_search_path(cli.plugin_dirs), discovery);
  if (!leader) return plugins;
  for (const auto& warning : plugin_path_warnings()) say("warning", warning);
  if (!cli.list_plugins)
    for (const auto& warning : plugins.warnings()) say("warning", warning);
  if (cli.verbose)
    for (const auto& problem : plugins.problems()) say("plugin not loaded", problem);
  return plugins;
}

// Ranks read their own files and memory, so they can disagree; they all leave with the first
// failing rank's message (rank 0's when it failed too), or all go on.
void agree_on_input_problem(const std::string& problem, int rank, int size) {
  int mine = problem.empty() ? size : rank, first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == size) return;
  const std::string message = broadcast_string(problem, first, MPI_COMM_WORLD);
  throw InputError(first == 0 ? message : "rank " + std::to_string(first) + ": " + message);
}

void validate_on_every_rank(const Experiment& experiment, const std::vector<Trial>& trials,
                            const PluginRegistry& plugins, DataCache& data, int launched_ranks,
                            int rank, int size) {
  std::string problem;
  try {
    validate_trials(experiment, trials, plugins, data, launched_ranks);
  } catch (const InputError& e) {
    problem = e.what();
  }
  agree_on_input_problem(problem, rank, size);
}

// Refused before the sweep is expanded: one too large for the host's memory would fail only
// after minutes of expanding.
void check_plan_fits(const Experiment& experiment, int rank, int size) {
  const std::string problem = plan_memory_problem(experiment, place_on_host(MPI_COMM_WORLD).ranks);
  agree_on_input_problem(problem.empty() ? "" : experiment.source + ": " + problem, rank, size);
}

int run_experiment(const CommandLine& cli, const MpiRuntime& mpi) {
  const bool leader = mpi.rank() == 0;
  const Experiment experiment = load_for_run(cli, mpi.rank());
  check_plan_fits(experiment, mpi.rank(), mpi.size());
  std::vector<Trial> trials = expand_trials(experiment);
  if (cli.plugins_needed) {
    if (leader) print_plugins_needed(trials);
    return leader ? listing_written() : kExitOk;
  }
  const OversubscribedWorlds crowded = find_oversubscribed_worlds(trials);
  trials = apply_oversubscribed_rule(std::move(trials), experiment.oversubscribed, crowded);
  const std::string crowded_note = oversubscribed_note(experiment.oversubscribed, crowded);
  check_resumed_experiment(cli, experiment, trials, mpi.rank());
  const PluginRegistry plugins = load_plugins(cli, leader);
  DataCache data(/*shapes_only=*/cli.dry_run);
  // A dry run may be made without mpirun: it reports the ranks needed instead of refusing.
  validate_on_every_rank(experiment, trials, plugins, data, cli.dry_run ? INT_MAX : mpi.size(),
                         mpi.rank(), mpi.size());
  if (cli.dry_run) {
    if (!leader) return kExitOk;
    print_trial_table(trials, experiment, crowded_note);
    return listing_written();
  }
  SweepOptions options = sweep_options(cli);
  options.oversubscribed = {crowded_note, oversubscribed_mark(experiment.oversubscribed, crowded)};
  run_sweep(experiment, trials, plugins, data, options);
  return kExitOk;
}

// What the command line asks for that needs no MPI and no experiment; nothing otherwise.
std::optional<int> listing_asked_for(const CommandLine& cli) {
  if (cli.list_plugins) {
    try {
      print_plugins(load_plugins(cli, /*leader=*/true));
    } catch (const InputError& e) {
      say("error", e.what());
      return kExitInputError;
    }
    return listing_written();
  }
  if (cli.fields) {
    print_field_reference();
    return listing_written();
  }
  if (cli.record_fields) {
    std::fputs((record_reference_markdown() + "\n" + search_reference_markdown() + "\n" +
                meta_reference_markdown())
                   .c_str(),
               stdout);
    return listing_written();
  }
  if (cli.record_schema) return print_schema(record_schema());
  if (cli.search_schema) return print_schema(search_json_schema());
  if (cli.meta_schema) return print_schema(meta_json_schema());
  if (!cli.check_records.empty()) return check_records(cli.check_records);
  if (!cli.upgrade_records.empty()) return print_upgraded_records(cli.upgrade_records);
  return std::nullopt;
}

// Whether some trial overlaps, read from the settings and the sweep's values: expanding the
// sweep here would double the time a large one takes to plan.
bool overlap_asked(const Experiment& experiment) {
  for (const auto& part : experiment.parts) {
    if (part.settings.value("overlap", false) == true) return true;
    for (const auto& axis : part.sweep.items()) {
      const auto paths = axis_paths(axis.key());
      for (std::size_t p = 0; p < paths.size(); ++p)
        if (paths[p] == "overlap")
          for (const auto& value : axis.value())
            if ((paths.size() == 1 ? value : value.at(p)) == true) return true;
    }
  }
  return false;
}

// Overlap needs MPI called from a second thread; every other job is fastest at
// MPI_THREAD_SINGLE (mpi/mpi_runtime.h). A rank that cannot read the experiment before MPI
// starts asks for the level every trial can run under.
int thread_level_for(const CommandLine& cli) {
  const auto experiment = read_here_before_mpi(cli);
  if (!experiment) return kThreadLevelWithOverlap;
  try {
    return overlap_asked(*experiment) ? kThreadLevelWithOverlap : kThreadLevelWithoutOverlap;
  } catch (const std::exception&) {  // said once MPI is up
    return kThreadLevelWithOverlap;
  }
}

}  // namespace

int run_harness(const CommandLine& cli, int* argc, char*** argv) {
  if (const auto listed = listing_asked_for(cli)) return *listed;
  MpiRuntime mpi(argc, argv, thread_level_for(cli));
  try {
    return run_experiment(cli, mpi);
  } catch (const InputError& e) {
    if (mpi.rank() == 0) say("error", e.what());
    return kExitInputError;
  } catch (const ResultsWriteError& e) {  // every rank has it: they leave together, no abort
    if (mpi.rank() == 0) say("error", e.what());
    return kExitFatal;
  } catch (const std::exception& e) {
    say(("rank " + std::to_string(mpi.rank()) + ": fatal").c_str(), e.what());
    MPI_Abort(MPI_COMM_WORLD, kExitFatal);
    return kExitFatal;
  }
}

}  // namespace harness

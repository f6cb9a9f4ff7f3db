#include "run/harness_app.h"

#include <climits>
#include <cstdio>

#include "common/exit_codes.h"
#include "common/input_error.h"
#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "mpi/mpi_runtime.h"
#include "run/console_listing.h"
#include "run/experiment_loading.h"
#include "run/sweep_runner.h"
#include "run/trial_validation.h"
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

int run_experiment(const CommandLine& cli, const MpiRuntime& mpi) {
  const bool leader = mpi.rank() == 0;
  const Experiment experiment = load_for_run(cli, mpi.rank());
  const auto trials = expand_trials(experiment);
  const PluginRegistry plugins = PluginRegistry::discover(plugin_search_path(cli.plugin_dirs));
  if (leader && cli.verbose)
    for (const auto& problem : plugins.problems())
      std::fprintf(stderr, "harness: plugin not loaded: %s\n", problem.c_str());
  DataCache data;
  // A dry run may be made without mpirun: it reports the ranks needed instead of refusing.
  validate_trials(experiment, trials, plugins, data, cli.dry_run ? INT_MAX : mpi.size());
  if (cli.dry_run) {
    if (leader) print_trial_table(trials);
    return kExitOk;
  }
  run_sweep(experiment, trials, plugins, data, sweep_options(cli));
  return kExitOk;
}

}  // namespace

int run_harness(const CommandLine& cli, int* argc, char*** argv) {
  if (cli.list_plugins) {
    print_plugins(PluginRegistry::discover(plugin_search_path(cli.plugin_dirs)));
    return kExitOk;
  }
  if (cli.fields) {
    print_field_reference();
    return kExitOk;
  }
  MpiRuntime mpi(argc, argv);
  try {
    return run_experiment(cli, mpi);
  } catch (const InputError& e) {
    if (mpi.rank() == 0) std::fprintf(stderr, "harness: error: %s\n", e.what());
    return kExitInputError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "harness: rank %d: fatal: %s\n", mpi.rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, kExitFatal);
    return kExitFatal;
  }
}

}  // namespace harness

// harness: loads model and communicator plugins and runs a JSON-specified sweep of
// distributed training trials or collective benchmarks under MPI.
#include <CLI/CLI.hpp>

#include <algorithm>
#include <climits>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "communicator_factory.h"
#include "data_cache.h"
#include "experiment.h"
#include "input_error.h"
#include "model_factory.h"
#include "mpi_runtime.h"
#include "plugin_registry.h"
#include "results_store.h"
#include "sweep_runner.h"
#include "trial.h"
#include "trial_validation.h"

namespace harness {
namespace {

constexpr int kExitInputError = 2;

struct CommandLine {
  std::string experiment_path;
  std::vector<std::string> plugin_dirs;
  std::vector<std::string> overrides;
  std::string resume;
  std::string results_dir = "results";
  bool dry_run = false;
  bool quiet = false;
  bool verbose = false;
  bool list_plugins = false;
  bool fields = false;
};

void print_plugins(const PluginRegistry& registry) {
  std::printf("%-12s %-13s %-8s %-40s %s\n", "NAME", "KIND", "VERSION", "CAPABILITIES", "PATH");
  for (const auto& p : registry.plugins()) {
    std::string capabilities;
    if (p.kind == plugin::PluginKind::kModel) {
      const auto c = model_capabilities(p);
      capabilities = std::string("input=") + plugin::input_kind_name(c.input_kind) +
                     (c.cuda ? " cpu,cuda" : " cpu");
    } else {
      const auto c = communicator_capabilities(p);
      capabilities = std::string(c.host_buffers ? "host" : "") +
                     (c.cuda_buffers ? (c.host_buffers ? "+cuda" : "cuda") : "") + " dtypes=";
      for (std::size_t i = 0; i < c.dtypes.size(); ++i)
        capabilities += std::string(i ? "," : "") + plugin::dtype_name(c.dtypes[i]);
      if (!c.unavailable_reason.empty()) capabilities += " UNAVAILABLE: " + c.unavailable_reason;
    }
    std::printf("%-12s %-13s %-8s %-40s %s\n", p.name.c_str(), plugin::plugin_kind_name(p.kind),
                p.version.c_str(), capabilities.c_str(), p.path.c_str());
  }
  for (const auto& problem : registry.problems()) std::printf("not loaded: %s\n", problem.c_str());
}

void print_field_reference() {
  std::printf("## Train settings (kind \"train\")\n\n%s\n",
              schema_reference_markdown(settings_schema_for("train")).c_str());
  std::printf("## Collective settings (kind \"collective\")\n\n%s",
              schema_reference_markdown(settings_schema_for("collective")).c_str());
}

void print_trial_table(const std::vector<Trial>& trials) {
  std::printf("%5s  %-10s %-16s %4s %6s  %s\n", "TRIAL", "KIND", "KEY", "REP", "SEED", "SETTINGS");
  for (const auto& t : trials)
    std::printf("%5zu  %-10s %-16s %4d %6llu  %s\n", t.index + 1, t.kind.c_str(), t.key.c_str(),
                t.repetition, static_cast<unsigned long long>(t.seed), describe_axes(t.axes).c_str());
  int ranks = 1;
  for (const auto& t : trials) ranks = std::max(ranks, t.settings["world_size"].get<int>());
  std::printf("%zu trial(s); run with mpirun -np %d\n", trials.size(), ranks);
}

// Rank 0 reads a text file and every rank gets its contents, so only the launching host
// needs the experiment file.
std::string read_on_leader(const std::string& path, int rank, std::string* error) {
  std::string text;
  int ok = 1;
  if (rank == 0) {
    std::ifstream file(path);
    std::stringstream buffer;
    buffer << file.rdbuf();
    text = buffer.str();
    ok = file ? 1 : 0;
  }
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    *error = path + ": cannot open the experiment file";
    return {};
  }
  int length = static_cast<int>(text.size());
  MPI_Bcast(&length, 1, MPI_INT, 0, MPI_COMM_WORLD);
  text.resize(static_cast<std::size_t>(length));
  MPI_Bcast(text.data(), length, MPI_CHAR, 0, MPI_COMM_WORLD);
  return text;
}

Experiment load_for_run(const CommandLine& cli, int rank) {
  std::string error;
  if (!cli.experiment_path.empty()) {
    const std::string text = read_on_leader(cli.experiment_path, rank, &error);
    if (!error.empty()) throw InputError(error);
    return parse_experiment(text, cli.experiment_path, cli.overrides);
  }
  // --resume without a file: the experiment recorded in the folder's meta.json.
  const std::string meta_path = cli.resume + "/meta.json";
  const std::string text = read_on_leader(meta_path, rank, &error);
  if (!error.empty()) throw InputError(cli.resume + ": no meta.json to resume from");
  const Json meta = Json::parse(text, nullptr, false);
  if (meta.is_discarded() || !meta.contains("experiment"))
    throw InputError(meta_path + ": has no \"experiment\" to resume");
  return parse_experiment(meta["experiment"].dump(), meta_path + "#/experiment", cli.overrides);
}

int run(const CommandLine& cli, const std::vector<std::string>& argv, int* argc, char*** raw_argv) {
  const auto plugin_path = plugin_search_path(cli.plugin_dirs);
  if (cli.list_plugins) {
    print_plugins(PluginRegistry::discover(plugin_path));
    return 0;
  }
  if (cli.fields) {
    print_field_reference();
    return 0;
  }

  MpiRuntime mpi(argc, raw_argv);
  const bool leader = mpi.rank() == 0;
  try {
    if (cli.experiment_path.empty() && cli.resume.empty())
      throw InputError("no experiment file given (usage: harness EXPERIMENT.json; see --help)");
    const Experiment experiment = load_for_run(cli, mpi.rank());
    const auto trials = expand_trials(experiment);
    const PluginRegistry plugins = PluginRegistry::discover(plugin_path);
    if (leader && cli.verbose)
      for (const auto& problem : plugins.problems())
        std::fprintf(stderr, "harness: plugin not loaded: %s\n", problem.c_str());
    DataCache data;
    // A dry run may be made without mpirun: it reports the ranks needed instead of refusing.
    validate_trials(experiment, trials, plugins, data, cli.dry_run ? INT_MAX : mpi.size());
    if (cli.dry_run) {
      if (leader) print_trial_table(trials);
      return 0;
    }
    SweepOptions options;
    options.results_base = cli.results_dir;
    options.resume_directory = cli.resume;
    options.command = argv;
    options.verbosity = cli.quiet ? Verbosity::kQuiet
                                  : (cli.verbose ? Verbosity::kVerbose : Verbosity::kNormal);
    run_sweep(experiment, trials, plugins, data, options);
    return 0;
  } catch (const InputError& e) {
    if (leader) std::fprintf(stderr, "harness: error: %s\n", e.what());
    return kExitInputError;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "harness: rank %d: fatal: %s\n", mpi.rank(), e.what());
    MPI_Abort(MPI_COMM_WORLD, 1);
    return 1;
  }
}

}  // namespace
}  // namespace harness

int main(int argc, char** argv) {
  harness::CommandLine cli;
  CLI::App app{
      "harness: distributed data-parallel training and allreduce benchmarks of anomaly-detection "
      "models.\nRun under MPI: mpirun -np 4 harness experiments/ring_vs_gloo.json"};
  app.set_version_flag("--version", std::string("harness ") + HARNESS_VERSION + " (plugin API " +
                                        std::to_string(harness::plugin::kApiVersion) + ")");
  app.add_option("experiment", cli.experiment_path, "experiment file (JSON)");
  app.add_option("--plugin-dir", cli.plugin_dirs,
                 "look for plugins here first (repeatable); then $HARNESS_PLUGIN_PATH, then "
                 "plugins/ beside the binary")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--set", cli.overrides, "override a field: path=value, e.g. settings.epochs=2 (repeatable)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_option("--resume", cli.resume,
                 "continue a results folder, running only trials missing from its trials.jsonl");
  app.add_option("--results-dir", cli.results_dir, "where results/<name>/<time>/ go")
      ->capture_default_str();
  app.add_flag("--dry-run", cli.dry_run, "validate, print the expanded trial table and exit");
  auto* quiet = app.add_flag("-q,--quiet", cli.quiet, "print nothing but errors");
  app.add_flag("-v,--verbose", cli.verbose, "print step-time breakdowns and plugin problems")
      ->excludes(quiet);
  app.add_flag("--list-plugins", cli.list_plugins, "list the plugins found and exit");
  app.add_flag("--fields", cli.fields, "print the experiment field reference (Markdown) and exit");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : 2;
  }
  std::vector<std::string> arguments(argv, argv + argc);
  return harness::run(cli, arguments, &argc, &argv);
}

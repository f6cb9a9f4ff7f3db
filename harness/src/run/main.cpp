// harness: loads model and communicator plugins and runs a JSON-specified sweep of
// distributed training trials or collective benchmarks under MPI. This file only parses the
// command line; run/harness_app.cpp does the rest.
#include <CLI/CLI.hpp>

#include "common/build_info.h"
#include "common/exit_codes.h"
#include "harness/plugin/version.h"
#include "run/command_line.h"
#include "run/harness_app.h"

namespace {

// What to run, and how: the experiment, its plugins, overrides, resuming, output.
void add_run_options(CLI::App& app, harness::CommandLine& cli) {
  app.add_option("experiment", cli.experiment_path, "experiment file (JSON)");
  app.add_option("--plugin-dir", cli.plugin_dirs,
                 "look for plugins here first (repeatable); then $HARNESS_PLUGIN_PATH, then "
                 "plugins/ beside the binary")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  app.add_flag("--allow-insecure-plugin-dir", cli.allow_insecure_plugins,
               "load plugins from directories or files other users can write (refused otherwise)");
  app.add_option("--set", cli.overrides,
                 "override a field: path=value, e.g. settings.epochs=2 or "
                 "'sweep.optimizer.lr=[0.001,0.01]' (repeatable)")
      ->expected(1)
      ->allow_extra_args(false)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  auto* resume = app.add_option(
      "--resume", cli.resume,
      "continue a results folder, running only trials missing from its trials.jsonl");
  app.add_flag("--extend", cli.extend,
               "with --resume: add the trials of a changed experiment or --set to the folder "
               "(refused otherwise)")
      ->needs(resume);
  app.add_option("--results-dir", cli.results_dir, "where results/<name>/<time>/ go")
      ->capture_default_str();
  app.add_flag("--dry-run", cli.dry_run, "validate, print the expanded trial table and exit");
  auto* quiet = app.add_flag("-q,--quiet", cli.quiet, "print nothing but errors");
  app.add_flag("-v,--verbose", cli.verbose,
               "also print when each trial starts, the nccl-tests per-size table of each "
               "collective trial, step-time breakdowns and plugin problems")
      ->excludes(quiet);
}

// What to print instead of running.
void add_listing_options(CLI::App& app, harness::CommandLine& cli) {
  app.add_flag("--list-plugins", cli.list_plugins, "list the plugins found and exit");
  app.add_flag("--plugins-needed", cli.plugins_needed,
               "print the plugins the experiment's trials use (model:<name>, comm:<name>, one a "
               "line; what scripts/run builds) and exit; no plugin is loaded");
  app.add_flag("--fields", cli.fields, "print the experiment field reference (Markdown) and exit");
  app.add_flag("--record-fields", cli.record_fields,
               "print the reference of the fields in trials.jsonl (Markdown) and exit");
  app.add_flag("--record-schema", cli.record_schema,
               "print the JSON Schema of a trial record (a line of trials.jsonl) and exit");
  app.add_flag("--search-schema", cli.search_schema,
               "print the JSON Schema of search.json (what a search decided) and exit");
  app.add_flag("--meta-schema", cli.meta_schema,
               "print the JSON Schema of meta.json (the job, the machine, how it ended) and exit");
  app.add_option("--check-records", cli.check_records,
                 "check each record of a trials.jsonl against the record schema, after "
                 "bringing older layouts to the newest; given a results folder, also its "
                 "meta.json and search.json against theirs; and exit");
  app.add_option("--upgrade-records", cli.upgrade_records,
                 "print each record of a trials.jsonl in the newest record layout and exit");
}

}  // namespace

int main(int argc, char** argv) {
  harness::CommandLine cli;
  CLI::App app{
      "harness: distributed data-parallel training and allreduce benchmarks of anomaly-detection "
      "models.\nRun under MPI: mpirun -np 4 harness experiments/ring_vs_gloo.json"};
  app.set_version_flag("--version", std::string("harness ") + harness::harness_version() +
                                        " (plugin API " +
                                        std::to_string(harness::plugin::kApiVersion) + ")");
  add_run_options(app, cli);
  add_listing_options(app, cli);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? harness::kExitOk : harness::kExitInputError;
  }
  cli.argv.assign(argv, argv + argc);
  return harness::run_harness(cli, &argc, &argv);
}

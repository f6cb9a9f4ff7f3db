// What the user asked for on the command line (parsed in main.cpp with CLI11).
#pragma once

#include <string>
#include <vector>

namespace harness {

struct CommandLine {
  std::string experiment_path;
  std::vector<std::string> plugin_dirs;
  bool allow_insecure_plugins = false;
  std::vector<std::string> overrides;  // --set path=value
  std::string resume;
  bool extend = false;  // with --resume: accept an experiment that differs from the recorded one
  std::string results_dir = "results";
  bool dry_run = false;
  bool quiet = false;
  bool verbose = false;
  bool list_plugins = false;
  bool plugins_needed = false;
  bool fields = false;
  bool record_fields = false;
  bool record_schema = false;
  bool search_schema = false;
  bool meta_schema = false;
  std::string check_records;    // a trials.jsonl or results folder to check against the schemas
  std::string upgrade_records;  // a trials.jsonl to print in the newest record layout
  std::vector<std::string> argv;  // as typed, for meta.json
};

}  // namespace harness

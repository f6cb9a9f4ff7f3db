#include "run/experiment_loading.h"

#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>

#include "common/input_error.h"
#include "mpi/string_broadcast.h"
#include "results/results_store.h"
#include "run/run_meta_json.h"
#include "run/trial_kinds.h"
#include "spec/trial_expansion.h"

namespace harness {
namespace {

// Rank 0's text on every rank, or, when rank 0 had none, its reason on every rank (ok false).
std::string share_from_leader(const std::string& text_or_reason, bool* ok) {
  int good = *ok ? 1 : 0;
  MPI_Bcast(&good, 1, MPI_INT, 0, MPI_COMM_WORLD);
  *ok = good == 1;
  return broadcast_string(text_or_reason, 0, MPI_COMM_WORLD);
}

// Experiment files are a few kilobytes; anything far bigger is a mistake (a data file given
// as the experiment, /dev/zero) that should not be read into memory.
constexpr std::uintmax_t kMaxExperimentBytes = 4u << 20;

// The file's text, or (ok false) why it cannot be an experiment file.
std::string read_experiment_file(const std::string& path, bool* ok) {
  namespace fs = std::filesystem;
  *ok = false;
  std::error_code error;
  if (!fs::is_regular_file(path, error))
    return path + ": " + (fs::exists(path, error) ? "not a regular file" : "no such file") +
           " (expected an experiment .json file)";
  const auto bytes = fs::file_size(path, error);
  if (!error && bytes > kMaxExperimentBytes)
    return path + ": " + std::to_string(bytes) + " bytes; an experiment file may have at most " +
           std::to_string(kMaxExperimentBytes) + " (is this the experiment?)";
  std::ifstream file(path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  if (!file) return path + ": cannot read the experiment file";
  *ok = true;
  return buffer.str();
}

Experiment parse_file_text(const CommandLine& cli, const std::string& text) {
  return parse_experiment(text, cli.experiment_path, cli.overrides, trial_kind_schemas());
}

Experiment parse_recorded_text(const CommandLine& cli, const std::string& text) {
  return parse_experiment(text, cli.resume + "/meta.json#/experiment", cli.overrides,
                          trial_kind_schemas());
}

Experiment load_file(const CommandLine& cli, int rank) {
  bool ok = true;
  const std::string text = rank == 0 ? read_experiment_file(cli.experiment_path, &ok) : "";
  const std::string shared = share_from_leader(text, &ok);
  if (!ok) throw InputError(shared);
  return parse_file_text(cli, shared);
}

// A results folder's meta.json; unset, with why, when it is missing, unreadable, newer than
// this harness reads or records no experiment.
std::optional<RunMeta> recorded_meta(const std::string& folder, std::string* problem) {
  Json document;
  try {
    document = ResultsStore::read_meta(folder);
  } catch (const InputError& e) {  // damaged: the message names meta.json and the line
    *problem = e.what();
    return std::nullopt;
  }
  try {
    RunMeta meta = read_run_meta(document);
    if (!meta.experiment.empty()) return meta;
    *problem = folder + "/meta.json: missing, unreadable or without an \"experiment\"";
  } catch (const InputError& e) {
    *problem = folder + "/meta.json: " + e.what();
  }
  return std::nullopt;
}

// --resume without a file: the experiment recorded in the folder's meta.json.
Experiment load_recorded(const CommandLine& cli, int rank) {
  std::string problem;
  const auto meta = rank == 0 ? recorded_meta(cli.resume, &problem) : std::nullopt;
  bool ok = meta.has_value();
  const auto text = share_from_leader(ok ? meta->experiment.dump() : problem, &ok);
  if (!ok) throw InputError(text + " to resume");
  return parse_recorded_text(cli, text);
}

}  // namespace

std::optional<Experiment> read_here_before_mpi(const CommandLine& cli) {
  try {
    bool ok = false;
    if (!cli.experiment_path.empty()) {
      const std::string text = read_experiment_file(cli.experiment_path, &ok);
      if (ok) return parse_file_text(cli, text);
    } else if (!cli.resume.empty()) {
      std::string problem;
      if (const auto meta = recorded_meta(cli.resume, &problem))
        return parse_recorded_text(cli, meta->experiment.dump());
    }
  } catch (const std::exception&) {  // said by load_for_run, with MPI up
  }
  return std::nullopt;
}

Experiment load_for_run(const CommandLine& cli, int rank) {
  if (!cli.experiment_path.empty()) return load_file(cli, rank);
  if (!cli.resume.empty()) return load_recorded(cli, rank);
  throw InputError("no experiment file given (usage: harness EXPERIMENT.json; see --help)");
}

std::vector<std::string> experiment_differences(const Json& recorded, const Json& current,
                                                std::size_t limit) {
  // Compared as sorted JSON: the same fields in another order are the same experiment.
  const auto before = nlohmann::json::parse(recorded.dump());
  const auto after = nlohmann::json::parse(current.dump());
  std::vector<std::string> differences;
  for (const auto& operation : nlohmann::json::diff(before, after)) {
    if (differences.size() == limit) {
      differences.push_back("...");
      break;
    }
    const std::string path = operation["path"].get<std::string>();
    differences.push_back((path.empty() ? "/" : path) + " (" + operation["op"].get<std::string>() +
                          ")");
  }
  return differences;
}

namespace {

// A model file whose content changed since the folder's trials were recorded: they are of
// another model, and their keys no longer match.
std::string changed_model_files(const RunMeta& meta, const std::vector<Trial>& trials) {
  const Json& recorded = meta.model_files;
  const Json current = model_file_hashes(trials);
  std::string changed;
  for (const auto& [path, hash] : recorded.items())
    if (current.contains(path) && current[path] != hash)
      changed += (changed.empty() ? "" : "; ") + path + " (content hash " +
                 hash.get<std::string>() + " then, " + current[path].get<std::string>() + " now)";
  return changed;
}

// --resume reads the folder's records and appends to them: a trials.jsonl that is no file
// (a directory, a device) would read as no records and fail at the first append.
std::string records_file_problem(const std::string& folder) {
  namespace fs = std::filesystem;
  const fs::path records = fs::path(folder) / "trials.jsonl";
  std::error_code error;
  const fs::file_status status = fs::status(records, error);
  if (!fs::exists(status) || fs::is_regular_file(status)) return "";
  return records.string() + ": is " +
         (fs::is_directory(status) ? std::string("a directory") : "not a regular file") +
         ", not the file of trial records --resume reads and appends to; move it away (the "
         "records, if any, belong in a file of that name) and resume again";
}

}  // namespace

void check_resumed_experiment(const CommandLine& cli, const Experiment& experiment,
                              const std::vector<Trial>& trials, int rank) {
  if (cli.resume.empty()) return;
  const std::string records = broadcast_string(
      rank == 0 ? records_file_problem(cli.resume) : std::string(), 0, MPI_COMM_WORLD);
  if (!records.empty()) throw InputError(records);  // not even --extend could append
  std::string problem;
  // A folder that is no results folder is refused when it is opened, saying so.
  if (rank == 0 && ResultsStore::is_results_folder(cli.resume)) {
    const auto meta = recorded_meta(cli.resume, &problem);
    if (!meta) {
      problem +=
          ", so this experiment cannot be checked against the one whose trials the folder holds; "
          "resuming could mix two experiments in one folder. Pass --extend to resume into "
          "it anyway";
    } else {
      std::string listed;
      for (const auto& d : experiment_differences(meta->experiment, experiment.document))
        listed += (listed.empty() ? "" : ", ") + d;
      if (!listed.empty())
        problem = cli.resume + ": the experiment differs from the one recorded in meta.json at " +
                  listed +
                  "; resuming would mix two experiments in one folder. Resume with the same "
                  "file and --set options, start a new run, or pass --extend to add the new "
                  "trials to this folder on purpose";
      else if (const std::string changed = changed_model_files(*meta, trials); !changed.empty())
        problem = cli.resume +
                  ": a file the trials read (a model file, a replay's job) changed since its "
                  "trials were recorded: " + changed +
                  "; the records are of another model or job. Restore the file, start a new "
                  "run, or pass --extend to add the new file's trials to this folder on purpose";
    }
  }
  problem = broadcast_string(problem, 0, MPI_COMM_WORLD);
  if (!problem.empty() && !cli.extend) throw InputError(problem);
}

}  // namespace harness

#include "run/experiment_loading.h"

#include <mpi.h>

#include <fstream>
#include <optional>
#include <sstream>

#include "common/input_error.h"
#include "mpi/string_broadcast.h"
#include "results/results_store.h"
#include "run/trial_kinds.h"

namespace harness {
namespace {

// Rank 0's text on every rank, or nothing on every rank when rank 0 had none (ok false).
std::optional<std::string> share_from_leader(const std::string& text, bool ok) {
  int good = ok ? 1 : 0;
  MPI_Bcast(&good, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!good) return std::nullopt;
  return broadcast_string(text, 0, MPI_COMM_WORLD);
}

std::string read_file(const std::string& path, bool* ok) {
  std::ifstream file(path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  *ok = static_cast<bool>(file);
  return buffer.str();
}

Experiment load_file(const CommandLine& cli, int rank) {
  bool ok = true;
  const std::string text = rank == 0 ? read_file(cli.experiment_path, &ok) : "";
  const auto shared = share_from_leader(text, ok);
  if (!shared) throw InputError(cli.experiment_path + ": cannot open the experiment file");
  return parse_experiment(*shared, cli.experiment_path, cli.overrides, trial_kind_schemas());
}

// --resume without a file: the experiment recorded in the folder's meta.json.
Experiment load_recorded(const CommandLine& cli, int rank) {
  const Json meta = rank == 0 ? ResultsStore::read_meta(cli.resume) : Json::object();
  const bool ok = meta.contains("experiment");
  const auto text = share_from_leader(ok ? meta["experiment"].dump() : "", ok);
  if (!text)
    throw InputError(cli.resume +
                     "/meta.json: missing, unreadable or without an \"experiment\" "
                     "to resume");
  return parse_experiment(*text, cli.resume + "/meta.json#/experiment", cli.overrides,
                          trial_kind_schemas());
}

}  // namespace

Experiment load_for_run(const CommandLine& cli, int rank) {
  if (!cli.experiment_path.empty()) return load_file(cli, rank);
  if (!cli.resume.empty()) return load_recorded(cli, rank);
  throw InputError("no experiment file given (usage: harness EXPERIMENT.json; see --help)");
}

}  // namespace harness

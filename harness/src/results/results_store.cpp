#include "results/results_store.h"

#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#include "common/brief.h"
#include "common/input_error.h"
#include "common/regular_file.h"
#include "common/strict_json.h"
#include "common/utc_time.h"
#include "record/trial_record.h"
#include "record/trials_file.h"
#include "results/file_writing.h"
#include "results/folder_links.h"

namespace harness {

namespace fs = std::filesystem;

ResultsStore ResultsStore::create(const std::string& base, const std::string& name) {
  const fs::path parent = fs::path(base) / name;
  std::error_code error;
  fs::create_directories(parent, error);
  if (error)
    throw InputError(parent.string() + ": cannot create the results folder: " + error.message());
  const std::string stamp = utc_time("%Y%m%dT%H%M%SZ");
  for (int attempt = 0;; ++attempt) {
    const fs::path candidate =
        parent / (attempt == 0 ? stamp : stamp + "-" + std::to_string(attempt));
    if (fs::create_directory(candidate, error)) {
      ResultsStore store;
      store.directory_ = candidate.string();
      store.lock_ = FolderLock::acquire(store.directory_);
      return store;
    }
    if (error) throw InputError(candidate.string() + ": cannot create: " + error.message());
  }
}

namespace {

constexpr const char* kCutOffFile = "trials.cut-off.txt";

// The record's typed view; InputError, prefixed with `where`, for a record it cannot read.
TrialRun run_of(Json record, const std::string& where) {
  try {
    return read_trial_run(std::move(record));
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
}

// A cut-off line is kept verbatim beside the records, never deleted: it may hold the start
// of a measurement someone wants to read.
void keep_cut_off_line(const std::string& directory, const std::string& line) {
  append_durably((fs::path(directory) / kCutOffFile).string(), line + "\n");
}

}  // namespace

ResultsStore ResultsStore::open(const std::string& directory, std::vector<std::string>* warnings) {
  std::error_code error;
  if (!fs::is_directory(directory, error))
    throw InputError(directory + ": --resume expects an existing results folder");
  if (!is_results_folder(directory))
    throw InputError(directory +
                     ": not a results folder (it has neither trials.jsonl nor meta.json); "
                     "--resume continues a folder a harness run made");
  refuse_links_in(directory);
  ResultsStore store;
  store.directory_ = directory;
  store.lock_ = FolderLock::acquire(directory);
  const std::string records = (fs::path(directory) / "trials.jsonl").string();
  TrialsFile file = read_trials_file(records);
  if (const std::string problem = file.first_problem(); !problem.empty())
    throw InputError(problem + ". --resume deletes no record: repair the line, or move it out "
                               "of the file, and resume again");
  for (TrialLine& line : file.lines)
    store.runs_.push_back(
        run_of(std::move(line.record), records + ":" + std::to_string(line.number) + ": "));
  if (file.cut_off) {
    keep_cut_off_line(directory, file.cut_off->text);
    warnings->push_back(records + ":" + std::to_string(file.cut_off->number) +
                        ": cut-off last line (an interrupted write) moved to " + kCutOffFile +
                        "; its trial runs again");
  }
  // Rewritten without a cut-off line, and with a newline after the last record (one written
  // whole but cut before its newline would share its line with the next record appended), so
  // that the file stays valid JSON Lines; the other lines stay as they were written.
  if (file.cut_off || !file.terminated) {
    std::string text;
    for (const TrialLine& line : file.lines) text += line.text + "\n";
    write_file_atomically(records, text);
  }
  return store;
}

std::set<std::string> ResultsStore::completed_keys() const {
  std::set<std::string> keys;
  for (const auto& run : runs_) keys.insert(run.identity.key);
  return keys;
}

const TrialRun& ResultsStore::append(TrialResult result) {
  TrialRun run = trial_run_of(std::move(result));
  append_durably((fs::path(directory_) / "trials.jsonl").string(), run.json.dump() + "\n");
  runs_.push_back(std::move(run));
  return runs_.back();
}

void ResultsStore::write_meta(const Json& meta) const {
  write_file_atomically((fs::path(directory_) / "meta.json").string(), meta.dump(2) + "\n");
}

Json ResultsStore::read_meta() const { return read_meta(directory_); }

bool ResultsStore::is_results_folder(const std::string& directory) {
  std::error_code error;
  return fs::exists(fs::path(directory) / "trials.jsonl", error) ||
         fs::exists(fs::path(directory) / "meta.json", error);
}

Json ResultsStore::read_meta(const std::string& directory) {
  const std::string path = (fs::path(directory) / "meta.json").string();
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return Json::object();  // a folder without one
  const StrictJson meta = parse_strict_json(
      read_regular_file(path, "the run's description, a JSON object"));
  if (!meta.problem.empty())
    throw InputError(path + ":" + std::to_string(meta.line) + ": " + meta.problem);
  if (!meta.value.is_object())
    throw InputError(path + ":1: " + brief(meta.value.dump(), 40) +
                     " is no JSON object, expected the run's description (a JSON object)");
  return meta.value;
}

}  // namespace harness

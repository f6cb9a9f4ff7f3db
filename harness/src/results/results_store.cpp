#include "results/results_store.h"

#include <filesystem>
#include <fstream>
#include <optional>
#include <utility>
#include <vector>

#include "common/input_error.h"
#include "common/utc_time.h"
#include "record/record_upgrade.h"
#include "record/trial_record.h"
#include "results/file_writing.h"

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

// What a record needs for --resume to know its trial: a string key and a string status (a line
// that is valid JSON but not such a record is dropped like a damaged one, never fatal).
bool is_trial_record(const Json& record) {
  return !record.is_discarded() && record.is_object() && record.contains("key") &&
         record["key"].is_string() && record.contains("status") && record["status"].is_string();
}

// A record of trials.jsonl read into its typed view; InputError, prefixed with `where`, for a
// layout newer than this harness reads or a record it cannot read.
TrialRun run_of(Json record, const std::string& where) {
  try {
    return read_trial_run(upgraded_record(std::move(record)));
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
}

// The non-empty lines of a file, with their 1-based numbers.
std::vector<std::pair<std::size_t, std::string>> read_lines(const std::string& path) {
  std::ifstream file(path);
  std::vector<std::pair<std::size_t, std::string>> lines;
  std::string line;
  for (std::size_t number = 1; std::getline(file, line); ++number)
    if (!line.empty()) lines.emplace_back(number, line);
  return lines;
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
  ResultsStore store;
  store.directory_ = directory;
  store.lock_ = FolderLock::acquire(directory);
  const auto lines = read_lines((fs::path(directory) / "trials.jsonl").string());
  std::optional<std::string> cut_off;  // the last line, when an interrupted write cut it
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const auto& [number, line] = lines[i];
    const std::string where = directory + "/trials.jsonl:" + std::to_string(number) + ": ";
    Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (is_trial_record(record)) {
      store.runs_.push_back(run_of(std::move(record), where));
    } else if (i + 1 == lines.size()) {
      cut_off = line;
    } else {
      throw InputError(where +
                       "damaged record; only the last line may be cut off by an interrupted "
                       "run, so this file was changed by something else. --resume deletes no "
                       "record: repair the line, or move it out of the file, and resume again");
    }
  }
  if (!cut_off) return store;
  keep_cut_off_line(directory, *cut_off);
  warnings->push_back(directory + "/trials.jsonl:" + std::to_string(lines.back().first) +
                      ": cut-off last line (an interrupted write) moved to " + kCutOffFile +
                      "; its trial runs again");
  // Rewrite without it so the file stays valid JSON Lines; the other lines stay as they were
  // written, in their own layout.
  std::string text;
  for (std::size_t i = 0; i + 1 < lines.size(); ++i) text += lines[i].second + "\n";
  write_file_atomically((fs::path(directory) / "trials.jsonl").string(), text);
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
  std::ifstream file(fs::path(directory) / "meta.json");
  if (!file) return Json::object();
  Json meta = Json::parse(file, nullptr, /*allow_exceptions=*/false);
  return meta.is_discarded() ? Json::object() : meta;
}

}  // namespace harness

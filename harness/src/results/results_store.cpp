#include "results/results_store.h"

#include <filesystem>
#include <fstream>

#include "common/input_error.h"
#include "common/utc_time.h"
#include "record/record_reference.h"
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

// What a record needs for --resume to know its trial: a string key and a string status (a line
// that is valid JSON but not such a record is dropped like a damaged one, never fatal).
bool is_trial_record(const Json& record) {
  return !record.is_discarded() && record.is_object() && record.contains("key") &&
         record["key"].is_string() && record.contains("status") && record["status"].is_string();
}

// A record of trials.jsonl read into its typed view; InputError, prefixed with `where`, for a
// layout newer than this harness reads or a record it cannot read.
TrialRun run_of(Json record, const std::string& where) {
  const int version = record_version_of(record);
  if (version < 0)
    throw InputError(where + "record_version is " + record["record_version"].dump() +
                     ", expected an integer");
  if (version > kRecordVersion)
    throw InputError(where + "record_version " + std::to_string(version) +
                     " is newer than this harness reads (up to " + std::to_string(kRecordVersion) +
                     "); continue the folder with the harness that wrote it");
  try {
    return read_trial_run(std::move(record));
  } catch (const InputError& e) {
    throw InputError(where + e.what());
  }
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
  std::ifstream file(fs::path(directory) / "trials.jsonl");
  std::string line;
  std::size_t number = 0;
  bool dropped = false;
  while (std::getline(file, line)) {
    ++number;
    if (line.empty()) continue;
    Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    if (!is_trial_record(record)) {
      warnings->push_back(directory + "/trials.jsonl:" + std::to_string(number) +
                          ": unreadable record dropped (interrupted write?); its trial runs again");
      dropped = true;
      continue;
    }
    store.runs_.push_back(
        run_of(std::move(record), directory + "/trials.jsonl:" + std::to_string(number) + ": "));
  }
  if (!dropped) return store;
  // Rewrite without the dropped lines so the file stays valid JSON Lines.
  std::string text;
  for (const auto& run : store.runs_) text += run.json.dump() + "\n";
  write_file_atomically((fs::path(directory) / "trials.jsonl").string(), text);
  return store;
}

std::set<std::string> ResultsStore::completed_keys() const {
  std::set<std::string> keys;
  for (const auto& run : runs_) keys.insert(run.identity.key);
  return keys;
}

const TrialRun& ResultsStore::append(const Json& record) {
  TrialRun run = read_trial_run(record);  // a record the harness cannot read is never written
  append_durably((fs::path(directory_) / "trials.jsonl").string(), record.dump() + "\n");
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

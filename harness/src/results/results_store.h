// The results folder: results/<name>/<UTC time>/ with trials.jsonl (one record per finished
// trial, fsynced as it is written; the source of truth that --resume reads) and meta.json.
// Other files are sinks' (summary.csv, points.csv). Only rank 0 touches it, and only one job at
// a time: the store holds the folder's lock (folder_lock.h) for its lifetime.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "common/json.h"
#include "record/trial_run.h"
#include "results/folder_lock.h"

namespace harness {

class ResultsStore {
 public:
  // A new folder under base/name/; adds a suffix if two runs start in the same second.
  static ResultsStore create(const std::string& base, const std::string& name);
  // An existing folder, for --resume: reads the records already there. A truncated last line
  // (a crash mid-write) is dropped with a warning, and only then is trials.jsonl rewritten.
  // InputError when it is no results folder or another job holds it.
  static ResultsStore open(const std::string& directory, std::vector<std::string>* warnings);

  const std::string& directory() const { return directory_; }
  std::set<std::string> completed_keys() const;
  // Every record of the folder, in the order written, each read once into its typed view.
  const std::vector<TrialRun>& runs() const { return runs_; }

  // Writes the trial's record to trials.jsonl (durably) and returns its typed view.
  const TrialRun& append(TrialResult result);
  void write_meta(const Json& meta) const;
  // meta.json, or an empty object when it is missing or unreadable.
  Json read_meta() const;
  // Whether `directory` holds trials.jsonl or meta.json, as every folder a run made does.
  static bool is_results_folder(const std::string& directory);
  // meta.json of any results folder.
  static Json read_meta(const std::string& directory);

 private:
  std::string directory_;
  FolderLock lock_;
  std::vector<TrialRun> runs_;
};

}  // namespace harness

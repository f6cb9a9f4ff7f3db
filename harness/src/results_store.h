// The results folder: results/<name>/<UTC time>/ with trials.jsonl (one record per finished
// trial, fsynced as it is written), summary.csv (rewritten from the records after each trial)
// meta.json, and for collective trials points.csv (one row per message size). Only rank 0
// touches it.
#pragma once

#include <set>
#include <string>
#include <vector>

#include "json.h"

namespace harness {

class ResultsStore {
 public:
  // A new folder under base/name/; adds a suffix if two runs start in the same second.
  static ResultsStore create(const std::string& base, const std::string& name);
  // An existing folder, for --resume: reads the records already there. A truncated last line
  // (a crash mid-write) is dropped with a warning.
  static ResultsStore open(const std::string& directory, std::vector<std::string>* warnings);

  const std::string& directory() const { return directory_; }
  std::set<std::string> completed_keys() const;
  const std::vector<Json>& records() const { return records_; }

  void append(const Json& record);
  void write_meta(const Json& meta) const;
  Json read_meta() const;

 private:
  void write_summary() const;
  void write_points() const;
  std::string directory_;
  std::vector<Json> records_;
};

// Writes text to path atomically (temporary file, fsync, rename).
void write_file_atomically(const std::string& path, const std::string& text);

// Scalars of a record flattened to dotted column names; arrays are left out.
void flatten_scalars(const Json& value, const std::string& prefix,
                     std::vector<std::pair<std::string, Json>>* out);

}  // namespace harness

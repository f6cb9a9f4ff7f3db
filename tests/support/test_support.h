// Helpers shared by the unit and MPI tests: one definition of each.
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/json.h"
#include "run/trial_kinds.h"
#include "spec/dataset_settings.h"
#include "spec/experiment.h"
#include "spec/schema.h"
#include "spec/train_settings.h"

#define EXPECT_CONTAINS(haystack, needle) \
  EXPECT_NE(std::string(haystack).find(needle), std::string::npos) << "in: " << (haystack)

namespace harness::testing {

// A file's whole text ("" when it cannot be read).
inline std::string read_file(const std::filesystem::path& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// A fresh directory of its own (mkdtemp), removed with everything in it when destroyed, so
// that two test runs at once never share a file.
class TempDir {
 public:
  TempDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "harness_test_XXXXXX").string();
    if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
    path_ = pattern;
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path_, ignored);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }
  // Writes text to a file in the directory and returns its path.
  std::string write(const std::string& name, const std::string& text) const {
    std::ofstream(path_ / name) << text;
    return file(name);
  }

 private:
  std::filesystem::path path_;
};

// An experiment parsed against the real trial kinds.
inline Experiment parse_experiment(const std::string& text, const std::string& source,
                                   const std::vector<std::string>& overrides) {
  return harness::parse_experiment(text, source, overrides, trial_kind_schemas());
}

// The default "dataset" settings with `changes` merged in, as JSON and typed.
inline Json dataset_json(const Json& changes = Json::object()) {
  Json dataset = with_defaults(train_settings_schema(), Json::object())["dataset"];
  deep_merge(dataset, changes);
  return dataset;
}
inline DatasetSettings dataset_settings(const Json& changes = Json::object()) {
  return dataset_settings_table().parse(dataset_json(changes));
}

}  // namespace harness::testing

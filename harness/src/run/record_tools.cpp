#include "run/record_tools.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "common/exit_codes.h"
#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "common/regular_file.h"
#include "common/strict_json.h"
#include "record/record_schema.h"
#include "record/record_version.h"
#include "record/trials_file.h"
#include "results/results_store.h"
#include "run/console_listing.h"
#include "run/run_meta_json.h"
#include "search/search_agreement.h"
#include "search/search_summary.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

// The file's lines by the readers' rules (record/trials_file.h); InputError for a file that
// cannot be read, which `code` then reports.
std::optional<TrialsFile> trials_of(const std::string& path, int* code) {
  try {
    return read_trials_file(path);
  } catch (const InputError& e) {
    std::printf("%s\n", e.what());
    *code = kExitInputError;
    return std::nullopt;
  }
}

void warn_cut_off(const TrialsFile& file, const std::string& path) {
  if (file.cut_off)
    say("warning", path + ":" + std::to_string(file.cut_off->number) +
                       ": cut-off last line (an interrupted write) skipped, as --resume skips it");
}

// Prints each problem after `where`; how many there were.
int print_problems(const std::vector<std::string>& problems, const std::string& where) {
  for (const std::string& problem : problems) std::printf("%s%s\n", where.c_str(), problem.c_str());
  return static_cast<int>(problems.size());
}

// A record of the newest layout is also held to what the harness writes now (every field its
// kind always writes, no undeclared one); older layouts lack fields that came later.
int line_problems(const TrialLine& line, const Json& schema, const std::string& where) {
  if (line.record.is_object() && line.written_version == kRecordVersion) {
    const int found = print_problems(schema_problems(schema, line.record), where);
    if (found > 0) return found;
  }
  if (line.problem.empty()) return 0;
  std::printf("%s\n", line.problem.c_str());
  return 1;
}

void say_older_layouts(const TrialsFile& file, const std::string& path) {
  std::map<int, int> older;  // layout -> records
  for (const TrialLine& line : file.lines)
    if (line.problem.empty() && line.written_version < kRecordVersion)
      ++older[line.written_version];
  for (const auto& [version, count] : older)
    std::printf(
        "%s: %d record(s) of the older layout record_version %d: read by --resume and the "
        "scripts as they are; `harness --upgrade-records %s` prints them in the newest "
        "layout (%d)\n",
        path.c_str(), count, version, path.c_str(), kRecordVersion);
}

int check_trial_records(const std::string& path) {
  if (!fs::exists(fs::symlink_status(path))) {
    std::printf("%s: missing, expected a file of trial records\n", path.c_str());
    return kExitInputError;
  }
  int code = kExitOk;
  const auto file = trials_of(path, &code);
  if (!file) return code;
  warn_cut_off(*file, path);
  const Json schema = record_schema();
  int problems = 0;
  for (const TrialLine& line : file->lines)
    problems += line_problems(line, schema, path + ":" + std::to_string(line.number) + ": ");
  if (problems > 0) return kExitInputError;
  say_older_layouts(*file, path);
  if (file->cut_off)
    std::printf("%s: every record but the cut-off last line is one the harness reads\n",
                path.c_str());
  else
    std::printf("%s: every record is one the harness reads\n", path.c_str());
  return kExitOk;
}

// meta.json as --resume and the scripts read it; held to the full layout of this harness's
// meta.json too, where a difference is only noted (an older harness wrote fewer fields).
int check_meta(const std::string& folder) {
  const std::string path = folder + "/meta.json";
  try {
    const Json meta = ResultsStore::read_meta(folder);
    if (meta.empty()) throw InputError(path + ": missing; --resume and the scripts need it");
    read_run_meta(meta);
    const auto differences = schema_problems(meta_json_schema(), meta);
    if (differences.empty()) {
      std::printf("%s: follows the meta.json schema\n", path.c_str());
    } else {
      std::printf(
          "%s: readable, but not in this harness's full layout (an older harness wrote "
          "it?):\n",
          path.c_str());
      print_problems(differences, path + ": note: ");
    }
    return kExitOk;
  } catch (const InputError& e) {
    const std::string what = e.what();
    std::printf("%s%s\n", what.rfind(path, 0) == 0 ? "" : (path + ": ").c_str(), what.c_str());
    return kExitInputError;
  }
}

// search.json against its schema and against the trials it names (search/search_agreement.h).
int check_search(const std::string& folder) {
  const std::string path = folder + "/search.json";
  try {
    const StrictJson search =
        parse_strict_json(read_regular_file(path, "the search's record, a JSON object"));
    if (!search.problem.empty())
      throw InputError(path + ":" + std::to_string(search.line) + ": " + search.problem);
    if (print_problems(schema_problems(search_json_schema(), search.value), path + ": ") > 0)
      return kExitInputError;
    std::vector<Json> records;
    for (const TrialLine& line : read_trials_file(folder + "/trials.jsonl").lines)
      if (line.problem.empty()) records.push_back(line.record);
    if (const std::string problem = search_disagreement(search.value, records); !problem.empty())
      throw InputError(path + ": " + problem);
  } catch (const InputError& e) {
    std::printf("%s\n", e.what());
    return kExitInputError;
  }
  std::printf("%s: follows the search.json schema, and its trials bear it out\n", path.c_str());
  return kExitOk;
}

}  // namespace

int print_schema(const Json& schema) {
  std::printf("%s\n", schema.dump(2).c_str());
  return listing_written();
}

int check_records(const std::string& path) {
  if (!fs::is_directory(path)) {
    const int code = check_trial_records(path);
    return code == kExitOk ? listing_written() : code;
  }
  int code = check_trial_records(path + "/trials.jsonl");
  const auto also = [&code](int next) {
    if (next != kExitOk) code = next;
  };
  also(check_meta(path));
  if (fs::exists(fs::symlink_status(path + "/search.json"))) also(check_search(path));
  return code == kExitOk ? listing_written() : code;
}

int print_upgraded_records(const std::string& path) {
  int code = kExitOk;
  const auto file = trials_of(path, &code);
  if (!file) return code;
  warn_cut_off(*file, path);
  for (const TrialLine& line : file->lines) {
    if (line.problem.empty()) {
      std::printf("%s\n", line.record.dump().c_str());
    } else {
      std::printf("%s\n", line.problem.c_str());
      code = kExitInputError;
    }
  }
  return code == kExitOk ? listing_written() : code;
}

}  // namespace harness

#include "run/record_tools.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

#include "common/exit_codes.h"
#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "record/record_schema.h"
#include "record/record_upgrade.h"
#include "run/run_meta_json.h"
#include "search/search_summary.h"
#include "run/console_listing.h"

namespace harness {
namespace {

namespace fs = std::filesystem;

// The non-empty lines of a file with their 1-based numbers; nothing when it cannot be read.
std::optional<std::vector<std::pair<std::size_t, std::string>>> lines_of(const std::string& path) {
  std::ifstream file(path);
  if (!file) return std::nullopt;
  std::vector<std::pair<std::size_t, std::string>> lines;
  std::string line;
  for (std::size_t number = 1; std::getline(file, line); ++number)
    if (!line.empty()) lines.emplace_back(number, line);
  return lines;
}

// Calls `use` with each record in the newest layout and its "path:line: "; a line that is no
// record, or of a layout this harness cannot read, is reported and counted. A cut-off last line
// (an interrupted write) is skipped with a warning, as --resume skips it.
int for_each_record(const std::string& path,
                    const std::function<int(const Json&, const std::string&)>& use) {
  const auto lines = lines_of(path);
  if (!lines) {
    say("error", "cannot read " + path);
    return kExitInputError;
  }
  int problems = 0;
  for (const auto& [number, line] : *lines) {
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    try {
      if (record.is_discarded() && number == lines->back().first) {
        say("warning", where + "cut-off last line (an interrupted write) skipped");
        continue;
      }
      if (record.is_discarded()) throw InputError("damaged line: not JSON");
      problems += use(upgraded_record(record), where);
    } catch (const InputError& e) {
      std::printf("%s%s\n", where.c_str(), e.what());
      ++problems;
    }
  }
  return problems == 0 ? kExitOk : kExitInputError;
}

// Prints each problem after `where`; how many there were.
int print_problems(const std::vector<std::string>& problems, const std::string& where) {
  for (const std::string& problem : problems)
    std::printf("%s%s\n", where.c_str(), problem.c_str());
  return static_cast<int>(problems.size());
}

int check_trial_records(const std::string& path) {
  const Json schema = record_schema();
  const int code = for_each_record(path, [&](const Json& record, const std::string& where) {
    return print_problems(schema_problems(schema, record), where);
  });
  if (code == kExitOk) std::printf("%s: every record follows the record schema\n", path.c_str());
  return code;
}

// One JSON document (meta.json, search.json) against its schema.
int check_document(const std::string& path, const Json& schema, const char* what) {
  std::ifstream file(path);
  const Json document = file.is_open() ? Json::parse(file, nullptr, /*allow_exceptions=*/false)
                                       : Json(Json::value_t::discarded);
  if (document.is_discarded()) {
    std::printf("%s: missing, unreadable or not JSON\n", path.c_str());
    return kExitInputError;
  }
  if (print_problems(schema_problems(schema, document), path + ": ") > 0) return kExitInputError;
  std::printf("%s: follows the %s schema\n", path.c_str(), what);
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
  also(check_document(path + "/meta.json", meta_json_schema(), "meta.json"));
  if (fs::exists(path + "/search.json"))
    also(check_document(path + "/search.json", search_json_schema(), "search.json"));
  return code == kExitOk ? listing_written() : code;
}

int print_upgraded_records(const std::string& path) {
  const int code = for_each_record(path, [](const Json& record, const std::string&) {
    std::printf("%s\n", record.dump().c_str());
    return 0;
  });
  return code == kExitOk ? listing_written() : code;
}

}  // namespace harness

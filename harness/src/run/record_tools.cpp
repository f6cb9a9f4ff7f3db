#include "run/record_tools.h"

#include <cstdio>
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
#include "run/console_listing.h"

namespace harness {
namespace {

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

}  // namespace

int print_schema(const Json& schema) {
  std::printf("%s\n", schema.dump(2).c_str());
  return listing_written();
}

int check_records(const std::string& path) {
  const Json schema = record_schema();
  const int code = for_each_record(path, [&](const Json& record, const std::string& where) {
    const auto problems = schema_problems(schema, record);
    for (const std::string& problem : problems) std::printf("%s%s\n", where.c_str(), problem.c_str());
    return static_cast<int>(problems.size());
  });
  if (code == kExitOk) std::printf("%s: every record follows the record schema\n", path.c_str());
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

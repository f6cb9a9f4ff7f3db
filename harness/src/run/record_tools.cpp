#include "run/record_tools.h"

#include <cstdio>
#include <fstream>
#include <functional>

#include "common/exit_codes.h"
#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "record/record_schema.h"
#include "record/record_upgrade.h"
#include "run/console_listing.h"

namespace harness {
namespace {

// Calls `use` with each non-empty line's record in the newest layout and its "path:line: ";
// a line that is no record, or of a layout this harness cannot read, is reported and counted.
int for_each_record(const std::string& path,
                    const std::function<int(const Json&, const std::string&)>& use) {
  std::ifstream file(path);
  if (!file) {
    say("error", "cannot read " + path);
    return kExitInputError;
  }
  int problems = 0;
  std::string line;
  for (std::size_t number = 1; std::getline(file, line); ++number) {
    if (line.empty()) continue;
    const std::string where = path + ":" + std::to_string(number) + ": ";
    const Json record = Json::parse(line, nullptr, /*allow_exceptions=*/false);
    try {
      if (record.is_discarded()) throw InputError("not JSON");
      problems += use(upgraded_record(record), where);
    } catch (const InputError& e) {
      std::printf("%s%s\n", where.c_str(), e.what());
      ++problems;
    }
  }
  return problems == 0 ? kExitOk : kExitInputError;
}

}  // namespace

int print_record_schema() {
  std::printf("%s\n", record_schema().dump(2).c_str());
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

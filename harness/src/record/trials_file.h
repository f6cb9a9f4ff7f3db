// trials.jsonl read back by the rules every reader shares, in the harness (--resume,
// --check-records, --upgrade-records) and in the scripts (scripts/harness_analysis/results.py,
// read_trials): a test feeds both the same lines (tests/fixtures/damaged_lines.json).
//
// A line is first JSON text (common/strict_json.h) holding an object with a string "key" and
// "status"; a line that is not is damage, allowed only as the last line when an interrupted
// write left it: no newline after it, and the start of a record that does not parse (its trial
// runs again). A record is then brought to the newest layout
// (record/record_upgrade.h) and must be one the harness could have written: its frame there,
// each field it holds of its declared type (record/record_schema.h), a known status, a world
// size of at least 1 and no negative count.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/json.h"

namespace harness {

struct TrialLine {
  std::size_t number = 0;  // 1-based
  std::string text;        // as written
  Json record;             // in the newest layout; null where it is none or of no layout read
  int written_version = -1;
  std::string problem;  // "path:line: what" where the line is refused; empty otherwise
};

struct TrialsFile {
  std::vector<TrialLine> lines;      // every non-blank line but a cut-off last one, in order
  std::optional<TrialLine> cut_off;  // the last line, when an interrupted write cut it
  bool terminated = true;            // a newline follows the last line (or there is none)
  // The first refused line's problem, or "".
  std::string first_problem() const;
};

// Why `line` is no trial record at all ("" when it is one: `record` then holds it as written).
std::string line_damage(const std::string& line, Json* record);

// Every line of the file at `path`; a file that is missing reads as no lines. InputError
// naming the path when it cannot be read (a folder, no regular file).
TrialsFile read_trials_file(const std::string& path);

}  // namespace harness

#include "record/trials_file.h"

#include <sys/stat.h>

#include <cstdint>
#include <utility>

#include "common/input_error.h"
#include "common/json_schema_check.h"
#include "common/regular_file.h"
#include "common/strict_json.h"
#include "record/record_schema.h"
#include "record/record_upgrade.h"
#include "record/record_version.h"
#include "record/trial_status.h"

namespace harness {
namespace {

const Json& schema() {
  static const Json record = record_schema();
  return record;
}

// What every record has in any layout: the fields readers group and label by. A record of the
// newest layout has all of the schema's frame.
const Json& older_frame() {
  static const Json frame = {"key", "status", "kind", "world_size", "axes", "settings"};
  return frame;
}

// Objects whose content is the experiment's, not the record's own figures.
bool is_free_object(const std::string& key) {
  return key == "settings" || key == "axes" || key == "model_files";
}

std::string type_words(const std::string& type) {
  if (type == "integer") return "an integer";
  if (type == "number") return "a number";
  if (type == "string") return "a string";
  if (type == "boolean") return "true or false";
  if (type == "object") return "an object";
  if (type == "array") return "an array";
  return type;  // null
}

// "an integer", "a string or null", "one of "a", "b"": what a field should hold.
std::string expected_words(const Json& declared) {
  if (declared.contains("const")) return declared["const"].dump();
  std::string words;
  if (declared.contains("enum")) {
    for (const Json& value : declared["enum"]) words += (words.empty() ? "" : ", ") + value.dump();
    return "one of " + words;
  }
  const Json types = declared.value("type", Json::array());
  for (const Json& type : types.is_array() ? types : Json::array({types}))
    words += (words.empty() ? "" : " or ") + type_words(type.get<std::string>());
  return words.empty() ? "a value" : words;
}

std::string missing_field(const std::string& name) {
  const Json& top = schema()["properties"];
  const Json& declared =
      top.contains(name) ? top[name] : schema()["$defs"]["train"]["properties"][name];
  return name + " is missing, expected " + expected_words(declared);
}

// An integer below zero outside the free objects, or "": every integer a record holds is a
// count, a size or an index. Walked without recursion in the scripts' order.
std::string negative_count(const Json& record) {
  Json top = Json::object();
  for (const auto& [key, value] : record.items())
    if (!is_free_object(key)) top[key] = value;
  std::vector<std::pair<std::string, const Json*>> stack{{"", &top}};
  while (!stack.empty()) {
    const auto [at, value] = stack.back();
    stack.pop_back();
    std::size_t index = 0;
    for (auto member = value->begin(); member != value->end(); ++member, ++index) {
      const std::string path =
          at + "/" + (value->is_object() ? member.key() : std::to_string(index));
      if (member->is_number_integer() && !member->is_number_unsigned() &&
          member->get<long long>() < 0)
        return path + " is " + member->dump() + ", expected a count (0 or more)";
      if (member->is_structured()) stack.emplace_back(path, &*member);
    }
  }
  return "";
}

// What is wrong with an upgraded record, or "": its frame, its fields' types, its status, its
// counts.
std::string frame_problem(const Json& record, int written_version) {
  const Json& required = written_version == kRecordVersion ? schema()["required"] : older_frame();
  for (const Json& name : required)
    if (!record.contains(name.get<std::string>())) return missing_field(name.get<std::string>());
  const auto found = schema_problems(schema(), record, SchemaCheck::kPresentFields);
  if (!found.empty()) return found.front();
  if (!parse_trial_status(record["status"].get<std::string>()))
    return "status is " + record["status"].dump() + ", expected one of " + trial_status_names();
  const Json& world_size = record["world_size"];
  const bool below_one = world_size.is_number_unsigned()
                             ? world_size.get<std::uint64_t>() == 0
                             : world_size.is_number_integer() && world_size.get<long long>() < 1;
  if (below_one) return "world_size is " + world_size.dump() + ", expected at least 1";
  return negative_count(record);
}

bool is_blank(const std::string& line) {
  return line.find_first_not_of(" \t\r\n\v\f") == std::string::npos;
}

// The lines of `text` as the scripts split them (at "\n" only), blank ones left out.
std::vector<std::pair<std::size_t, std::string>> lines_of(const std::string& text) {
  std::vector<std::pair<std::size_t, std::string>> lines;
  std::size_t number = 1;
  for (std::size_t start = 0; start <= text.size(); ++number) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    if (!is_blank(line)) lines.emplace_back(number, std::move(line));
    start = end + 1;
  }
  return lines;
}

// The record of `line` in the newest layout, or the line's problem.
void read_record(TrialLine* line, Json record, const std::string& where) {
  line->written_version = record_version_of(record);
  try {
    line->record = upgraded_record(std::move(record));
  } catch (const InputError& e) {  // a layout this harness does not read
    line->problem = where + e.what();
    return;
  }
  const std::string problem = frame_problem(line->record, line->written_version);
  if (problem.empty()) return;
  line->problem = where + problem +
                  " (the harness writes no such record, so this file was changed by something "
                  "else)";
}

// An interrupted write leaves the start of a record (it begins with "{" and does not parse)
// with no newline after it, on the last line: the harness writes each record and its newline
// in one write. A last line that ends with a newline, or parses, was not cut off.
bool is_cut_off_write(const std::string& line, bool last, bool terminated) {
  if (!last || terminated) return false;
  const std::size_t first = line.find_first_not_of(" \t\r\v\f");
  return first != std::string::npos && line[first] == '{' && !parse_strict_json(line).problem.empty();
}

}  // namespace

std::string TrialsFile::first_problem() const {
  for (const TrialLine& line : lines)
    if (!line.problem.empty()) return line.problem;
  return "";
}

std::string line_damage(const std::string& line, Json* record) {
  StrictJson parsed = parse_strict_json(line);
  if (!parsed.problem.empty()) return parsed.problem;
  const Json& value = parsed.value;
  // What identifies a trial (--resume): a string key and a string status.
  if (!value.is_object() || !value.contains("key") || !value["key"].is_string() ||
      !value.contains("status") || !value["status"].is_string())
    return "not a trial record (a JSON object with a string \"key\" and \"status\")";
  *record = std::move(parsed.value);
  return "";
}

TrialsFile read_trials_file(const std::string& path) {
  struct stat status {};
  if (::lstat(path.c_str(), &status) != 0) return {};  // no records yet
  const std::string text = read_regular_file(path, "a file of trial records, one JSON object a line");
  const auto lines = lines_of(text);
  TrialsFile file;
  const std::size_t last_character = text.find_last_not_of(" \t\r\n\v\f");
  file.terminated =
      last_character == std::string::npos || text.find('\n', last_character) != std::string::npos;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    TrialLine line{lines[i].first, lines[i].second, Json(), -1, ""};
    const std::string where = path + ":" + std::to_string(line.number) + ": ";
    Json record;
    if (const std::string damage = line_damage(line.text, &record); damage.empty()) {
      read_record(&line, std::move(record), where);
    } else if (is_cut_off_write(line.text, i + 1 == lines.size(), file.terminated)) {
      file.cut_off = std::move(line);
      break;
    } else {
      line.problem = where + "damaged record (" + damage + "); " +
                     (i + 1 == lines.size()
                          ? "a last line is cut off by an interrupted run only when it starts a "
                            "record and no newline follows it"
                          : "only the last line may be cut off by an interrupted run") +
                     ", so this file was changed by something else";
    }
    file.lines.push_back(std::move(line));
  }
  return file;
}

}  // namespace harness

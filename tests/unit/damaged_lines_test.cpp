// The harness's reader of trials.jsonl (record/trials_file.h) takes and refuses the lines of
// tests/fixtures/damaged_lines.json exactly as the scripts' reader does
// (tests/analysis/test_damaged_lines.py feeds it the same cases), so the two cannot drift.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "common/json.h"
#include "common/strict_json.h"
#include "record/trials_file.h"
#include "test_support.h"

namespace harness {
namespace {

Json damaged_lines() {
  std::ifstream file(std::string(HARNESS_SOURCE_DIR) + "/tests/fixtures/damaged_lines.json");
  return Json::parse(file);
}

std::string from_hex(const std::string& hex) {
  std::string bytes;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    bytes += static_cast<char>(std::stoi(hex.substr(i, 2), nullptr, 16));
  return bytes;
}

// The case's line, built as the fixture's description says.
std::string line_of(const Json& c, const Json& base) {
  std::string text;
  if (c.contains("line")) {
    text = c["line"].get<std::string>();
  } else if (c.contains("repeat")) {
    for (const Json& piece : c["repeat"])
      for (int i = 0; i < piece[1].get<int>(); ++i) text += piece[0].get<std::string>();
  } else if (c.contains("record")) {
    text = c["record"].dump();
  } else {
    Json record = base;
    const Json merge = c.value("merge", Json::object()), drop = c.value("drop", Json::array());
    for (const auto& [name, value] : merge.items()) record[name] = value;
    for (const Json& name : drop) record.erase(name.get<std::string>());
    text = record.dump();
  }
  if (c.contains("replace")) {
    const std::string from = c["replace"][0], to = c["replace"][1];
    const auto at = text.find(from);
    if (at != std::string::npos)
      text.replace(at, from.size(), to + from_hex(c.value("replace_hex", "")));
  }
  return from_hex(c.value("prefix_hex", "")) + text;
}

TEST(DamagedLines, TheHarnessReadsEachLineAsTheScriptsDo) {
  const Json fixture = damaged_lines();
  const testing::TempDir temp;
  const std::string path = (temp.path() / "trials.jsonl").string();
  const std::string base = fixture["base"].dump();
  for (const Json& c : fixture["cases"]) {
    SCOPED_TRACE(c["name"].get<std::string>());
    std::ofstream(path, std::ios::binary) << base << "\n"
                                          << line_of(c, fixture["base"]) << "\n"
                                          << base << "\n";
    const TrialsFile file = read_trials_file(path);
    const std::string refused = c["refused"];
    EXPECT_FALSE(file.cut_off);
    if (refused.empty()) {
      EXPECT_EQ(file.first_problem(), "");
      EXPECT_EQ(file.lines.size(), 3u);
    } else {
      EXPECT_NE(file.first_problem().find(path + ":2: " + refused), std::string::npos)
          << file.first_problem();
    }
  }
}

TEST(DamagedLines, AnyTextReadsAsAValueOrAProblemWithItsLine) {
  EXPECT_EQ(parse_strict_json("{\n\"a\": [1,\n2]}").value["a"][1], 2);
  const StrictJson broken = parse_strict_json("{\n\"a\": 1,\n\"b\": x}");
  EXPECT_EQ(broken.line, 3u);
  EXPECT_EQ(broken.problem.rfind("not JSON (", 0), 0u) << broken.problem;
  const StrictJson deep = parse_strict_json("[\n" + std::string(200, '['));
  EXPECT_EQ(deep.line, 2u);
  EXPECT_EQ(parse_strict_json("[1e400]").problem,
            "1e400 is no JSON number, expected a finite number or null");
  EXPECT_EQ(parse_strict_json("\"\xE2\x82\"").problem.rfind("byte 0xe2 is not UTF-8", 0), 0u);
  EXPECT_EQ(parse_strict_json("\"\xED\xA0\x80\"").problem.rfind("byte 0xed", 0),
            0u);  // a surrogate
  EXPECT_EQ(parse_strict_json("\"\xC3\xA9\xF0\x9F\x98\x80\"").problem, "");
}

TEST(DamagedLines, ACutOffLastLineIsSetAsideNotRefused) {
  const testing::TempDir temp;
  const std::string path = (temp.path() / "trials.jsonl").string();
  const std::string base = damaged_lines()["base"].dump();
  std::ofstream(path, std::ios::binary) << base << "\n\n" << base.substr(0, 60);
  const TrialsFile file = read_trials_file(path);
  EXPECT_EQ(file.first_problem(), "");
  ASSERT_TRUE(file.cut_off);
  EXPECT_EQ(file.cut_off->number, 3u);
  EXPECT_EQ(file.lines.size(), 1u);
}

// Only the start of a record with no newline after it is an interrupted write: a last line that
// a newline ends, or that parses, or that starts no record, is damage (--check-records exit 2).
TEST(DamagedLines, OnlyAnUnterminatedStartOfARecordIsACutOffLastLine) {
  const testing::TempDir temp;
  const std::string path = (temp.path() / "trials.jsonl").string();
  const std::string base = damaged_lines()["base"].dump();
  const auto read = [&](const std::string& text) {
    std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
    return read_trials_file(path);
  };
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  for (const std::string& damaged : {std::string("5\n"), base + "\n5\n", base + "\n5", deep + "\n",
                                     deep.substr(0, 50000), base.substr(0, 60) + "\n"}) {
    const TrialsFile file = read(damaged);
    EXPECT_FALSE(file.cut_off) << damaged.substr(0, 80);
    EXPECT_NE(file.first_problem().find("damaged record"), std::string::npos) << damaged.substr(0, 80);
  }
  EXPECT_TRUE(read(base + "\n" + base.substr(0, 60)).cut_off);
  const TrialsFile whole_without_newline = read(base + "\n" + base);
  EXPECT_FALSE(whole_without_newline.cut_off);
  EXPECT_FALSE(whole_without_newline.terminated);
  EXPECT_EQ(whole_without_newline.first_problem(), "");
  EXPECT_EQ(whole_without_newline.lines.size(), 2u);
}

}  // namespace
}  // namespace harness

// CSV with a header row and a 0/1 label column; every other column is a numeric feature.
#include <algorithm>

#include "common/brief.h"
#include "data/loaders.h"
#include "data/text_file_reader.h"

namespace harness {
namespace {

// "a, b, c, d, e, ...": enough of a header to recognise it, each name cut short.
std::string first_columns(const std::vector<std::string>& header) {
  constexpr std::size_t kShown = 5;
  std::string text;
  for (std::size_t c = 0; c < header.size() && c < kShown; ++c)
    text += (c == 0 ? "" : ", ") + brief(header[c], 24);
  return header.size() > kShown ? text + ", ..." : text;
}

}  // namespace

TabularData load_csv(const std::string& path, const std::string& label_column) {
  TextFileReader reader(path);
  std::string line;
  if (!reader.next(&line) || split_blanks(line).empty())
    throw InputError(path + ": the file is empty (expected a header row naming the columns)");
  const auto header = split_fields(line, ',');
  const auto label_it = std::find(header.begin(), header.end(), label_column);
  // One column is no CSV data set: nothing of such a file is echoed.
  if (header.size() < 2 && label_it == header.end())
    reader.fail(
        "not a CSV data set: its first line is no header of comma-separated columns "
        "(expected the label column \"" +
        brief(label_column) + "\" and at least one feature column)");
  if (label_it == header.end())
    reader.fail("no label column \"" + brief(label_column) + "\" among the header's " +
                std::to_string(header.size()) + " columns (" + first_columns(header) + ")");
  const auto label_index = static_cast<std::size_t>(label_it - header.begin());
  if (header.size() < 2)
    reader.fail("only the label column \"" + brief(label_column) +
                "\"; a data set needs at least one feature column besides it");

  TabularData data;
  data.cols = header.size() - 1;
  std::vector<float> row;
  while (reader.next(&line)) {
    if (split_blanks(line).empty()) continue;
    const auto fields = split_fields(line, ',');
    if (fields.size() != header.size())
      reader.fail("expected " + std::to_string(header.size()) + " fields as in the header, got " +
                  std::to_string(fields.size()));
    row.clear();
    int label = 0;
    for (std::size_t c = 0; c < fields.size(); ++c) {
      const float value = reader.number(fields[c], c);
      if (c != label_index) {
        row.push_back(value);
      } else if (value != 0.0f && value != 1.0f) {
        reader.fail("label \"" + brief(fields[c]) + "\" in column \"" + brief(label_column) +
                    "\" must be 0 (normal) or 1 (anomaly)");
      } else {
        label = static_cast<int>(value);
      }
    }
    data.append_row(row, label);
  }
  if (data.rows() == 0) throw InputError(path + ": has a header but no data rows");
  return data;
}

}  // namespace harness

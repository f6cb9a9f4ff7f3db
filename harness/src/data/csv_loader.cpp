// CSV with a header row and a 0/1 label column; every other column is a numeric feature.
#include <algorithm>

#include "data/loaders.h"
#include "data/text_file_reader.h"

namespace harness {

TabularData load_csv(const std::string& path, const std::string& label_column) {
  TextFileReader reader(path);
  std::string line;
  if (!reader.next(&line) || split_blanks(line).empty())
    throw InputError(path + ": the file is empty (expected a header row naming the columns)");
  const auto header = split_fields(line, ',');
  const auto label_it = std::find(header.begin(), header.end(), label_column);
  if (label_it == header.end())
    reader.fail("no label column \"" + label_column + "\" in the header (columns: " + line + ")");
  const auto label_index = static_cast<std::size_t>(label_it - header.begin());
  if (header.size() < 2)
    reader.fail("only the label column \"" + label_column +
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
        reader.fail("label \"" + fields[c] + "\" in column \"" + label_column +
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

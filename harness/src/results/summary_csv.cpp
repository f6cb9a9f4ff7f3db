#include "results/summary_csv.h"

#include <map>
#include <set>
#include <sstream>

#include "results/file_writing.h"  // csv_cell

namespace harness {

void flatten_scalars(const Json& value, const std::string& prefix,
                     std::vector<std::pair<std::string, Json>>* out) {
  if (value.is_object()) {
    for (const auto& item : value.items())
      flatten_scalars(item.value(), prefix.empty() ? item.key() : prefix + "." + item.key(), out);
  } else if (!value.is_array()) {
    out->emplace_back(prefix, value);
  }
}

std::string SummaryCsv::contents(const std::vector<TrialRun>& all) const {
  // Columns: the union of every record's scalar fields, in first-seen order: every field as
  // written, whatever its kind or layout, so the record itself and not its typed view.
  std::vector<std::string> columns;
  std::set<std::string> seen;
  std::vector<std::map<std::string, Json>> rows;
  for (const auto& run : all) {
    std::vector<std::pair<std::string, Json>> cells;
    flatten_scalars(run.json, "", &cells);
    std::map<std::string, Json> row;
    for (auto& [column, value] : cells) {
      if (seen.insert(column).second) columns.push_back(column);
      row[column] = value;
    }
    rows.push_back(std::move(row));
  }
  std::ostringstream csv;
  for (std::size_t c = 0; c < columns.size(); ++c) csv << (c ? "," : "") << columns[c];
  csv << "\n";
  for (const auto& row : rows) {
    for (std::size_t c = 0; c < columns.size(); ++c) {
      const auto it = row.find(columns[c]);
      csv << (c ? "," : "") << (it == row.end() ? "" : csv_cell(it->second));
    }
    csv << "\n";
  }
  return csv.str();
}

}  // namespace harness

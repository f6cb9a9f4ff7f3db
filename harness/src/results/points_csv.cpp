#include "results/points_csv.h"

#include <sstream>

#include "record/collective_point.h"
#include "results/file_writing.h"  // csv_cell

namespace harness {
namespace {

std::string header() {
  std::string text = "index,key,status,backend,algorithm,world_size,dtype,op";
  for (const auto& field : collective_point_fields()) text += std::string(",") + field.key;
  return text + "\n";
}

void write_rows(const Json& record, std::ostringstream& csv) {
  const Json& s = record["settings"];
  const Json backend = record.value("backend", Json::object());
  std::ostringstream identity;
  identity << record["index"] << "," << csv_cell(record["key"]) << "," << csv_cell(record["status"])
           << "," << csv_cell(backend.value("name", Json(""))) << ","
           << csv_cell(backend.value("algorithm", Json(""))) << "," << record["world_size"] << ","
           << csv_cell(s["dtype"]) << "," << csv_cell(s["op"]);
  for (const auto& point : record["points"]) {
    csv << identity.str();
    for (const auto& field : collective_point_fields())
      csv << "," << csv_cell(point.value(field.key, Json()));
    csv << "\n";
  }
}

}  // namespace

std::string PointsCsv::contents(const std::vector<Json>& all) const {
  std::ostringstream csv;
  bool any = false;
  for (const auto& record : all) {
    if (!record.contains("points") || !record["points"].is_array()) continue;
    if (!any) csv << header();
    any = true;
    write_rows(record, csv);
  }
  return any ? csv.str() : std::string();
}

}  // namespace harness

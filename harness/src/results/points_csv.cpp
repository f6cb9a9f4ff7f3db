#include "results/points_csv.h"

#include <sstream>

#include "record/record_json.h"
#include "results/file_writing.h"  // csv_cell

namespace harness {
namespace {

std::string header() {
  std::string text = "index,key,status,backend,algorithm,world_size,dtype,op";
  const Json columns = to_json(CollectivePoint{});  // the record's keys, in its order
  for (auto column = columns.begin(); column != columns.end(); ++column) text += "," + column.key();
  return text + "\n";
}

void write_rows(const TrialRun& run, const CollectiveFigures& collective, std::ostringstream& csv) {
  const BackendRecord backend = run.backend.value_or(BackendRecord{});
  std::ostringstream identity;
  identity << run.identity.index << "," << csv_cell(run.identity.key) << ","
           << csv_cell(std::string(trial_status_name(run.end.status))) << ","
           << csv_cell(backend.name) << "," << csv_cell(backend.algorithm) << ","
           << run.identity.world_size << "," << csv_cell(collective.dtype) << ","
           << csv_cell(collective.op);
  for (const CollectivePoint& point : collective.points) {
    const Json fields = to_json(point);  // each column as the record spells it
    csv << identity.str();
    for (const Json& value : fields) csv << "," << csv_cell(value);
    csv << "\n";
  }
}

}  // namespace

std::string PointsCsv::contents(const std::vector<TrialRun>& all) const {
  std::ostringstream csv;
  bool any = false;
  for (const auto& run : all) {
    if (!run.collective) continue;
    if (!any) csv << header();
    any = true;
    write_rows(run, *run.collective, csv);
  }
  return any ? csv.str() : std::string();
}

}  // namespace harness

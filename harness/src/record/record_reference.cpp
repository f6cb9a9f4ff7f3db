#include "record/record_reference.h"

#include <algorithm>
#include <sstream>
#include <utility>
#include <vector>

#include "record/field_collector.h"
#include "record/record_declaration.h"

namespace harness {
namespace {

bool has_path(const std::vector<DeclaredField>& rows, const std::string& path) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const DeclaredField& row) { return row.path == path; });
}

// Every kind's fields once, in the order the kinds declare them, each with the kinds that
// write it.
std::vector<RecordField> build_fields() {
  const auto frame = rows_of<FrameRecord>();
  const std::pair<RecordKinds, std::vector<DeclaredField>> kinds[] = {
      {RecordKinds::kTrain, rows_of<TrainRecord>()},
      {RecordKinds::kCollective, rows_of<CollectiveRecord>()},
      {RecordKinds::kReplay, rows_of<ReplayRecord>()}};
  std::vector<RecordField> fields;
  for (const auto& [kind, rows] : kinds)
    for (const DeclaredField& row : rows) {
      const auto known = std::find_if(fields.begin(), fields.end(),
                                      [&](const RecordField& f) { return f.path == row.path; });
      if (known != fields.end()) {
        known->kinds = known->kinds | kind;
        continue;
      }
      RecordField field;
      static_cast<DeclaredField&>(field) = row;
      field.kinds = kind;
      field.framed = has_path(frame, row.path);
      fields.push_back(std::move(field));
    }
  return fields;
}

std::string kind_table(RecordKinds section) {
  std::vector<const DeclaredField*> rows;
  for (const auto& field : record_fields())
    if (field.kinds == section) rows.push_back(&field);
  return fields_table(rows);
}

}  // namespace

const std::vector<RecordField>& record_fields() {
  static const std::vector<RecordField> all = build_fields();
  return all;
}

std::string fields_table(const std::vector<const DeclaredField*>& fields) {
  std::ostringstream out;
  out << "| field | type | unit | present | meaning |\n|---|---|---|---|---|\n";
  for (const DeclaredField* field : fields)
    out << "| `" << field->path << "` | " << field->type << " | " << field->unit << " | "
        << (field->when.empty() ? "always" : "when " + field->when) << " | " << field->meaning
        << " |\n";
  return out.str();
}

std::string record_reference_markdown() {
  std::ostringstream out;
  out << "## Every record (record_version " << kRecordVersion << ")\n\n"
      << kind_table(RecordKinds::kEvery) << "\n## Train records (kind \"train\")\n\n"
      << kind_table(RecordKinds::kTrain)
      << "\n## Collective records (kind \"collective\")\n\n"
      << kind_table(RecordKinds::kCollective)
      << "\n## Train and replay records (kinds \"train\" and \"replay\")\n\n"
      << kind_table(RecordKinds::kTrain | RecordKinds::kReplay)
      << "\n## Replay records (kind \"replay\")\n\n"
      << kind_table(RecordKinds::kReplay);
  return out.str();
}

}  // namespace harness

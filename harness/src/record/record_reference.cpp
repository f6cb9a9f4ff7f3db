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

// Every kind's fields once: those both kinds write, then each kind's own.
RecordField record_field(DeclaredField row, RecordKinds kinds, bool framed) {
  RecordField field;
  static_cast<DeclaredField&>(field) = std::move(row);
  field.kinds = kinds;
  field.framed = framed;
  return field;
}

std::vector<RecordField> build_fields() {
  const auto frame = rows_of<FrameRecord>();
  const auto train = rows_of<TrainRecord>(), collective = rows_of<CollectiveRecord>();
  std::vector<RecordField> fields;
  for (const DeclaredField& row : train) {
    const bool every = has_path(collective, row.path);
    fields.push_back(record_field(row, every ? RecordKinds::kEvery : RecordKinds::kTrain,
                                  has_path(frame, row.path)));
  }
  for (const DeclaredField& row : collective)
    if (!has_path(train, row.path))
      fields.push_back(record_field(row, RecordKinds::kCollective, false));
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
      << kind_table(RecordKinds::kCollective);
  return out.str();
}

}  // namespace harness

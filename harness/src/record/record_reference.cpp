#include "record/record_reference.h"

#include <algorithm>
#include <optional>
#include <sstream>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/type_traits.h"
#include "record/record_declaration.h"

namespace harness {
namespace {

// The reference's word for a value of type T, and its JSON Schema type.
template <typename T>
std::pair<std::string, Json> type_of() {
  if constexpr (IsOptional<T>::value) {
    return type_of<typename T::value_type>();
  } else if constexpr (std::is_same_v<T, bool>) {
    return {"boolean", {{"type", "boolean"}}};
  } else if constexpr (std::is_integral_v<T>) {
    return {"integer", {{"type", "integer"}}};
  } else if constexpr (std::is_floating_point_v<T>) {
    return {"number", {{"type", "number"}}};
  } else if constexpr (std::is_same_v<T, Json>) {
    return {"object", {{"type", "object"}}};
  } else if constexpr (IsVector<T>::value) {
    // A figure that is not finite (a diverged loss) is written as null.
    const bool integers = std::is_integral_v<typename T::value_type>;
    return {integers ? "array of integers" : "array of numbers",
            {{"type", "array"},
             {"items", {{"type", integers ? Json("integer") : Json::array({"number", "null"})}}}}};
  } else {
    return {"string", {{"type", "string"}}};  // text, and the status
  }
}

// Collects one row per declared field, with its full path and when it is there.
class FieldCollector {
 public:
  explicit FieldCollector(std::vector<RecordField>* rows) : rows_(rows) {}

  template <typename T>
  void field(T&, const FieldText& text) {
    add(text, type_of<T>());
  }

  void interval(double&, double&, const FieldText& text) {
    add(text, {"array of numbers",
               {{"type", "array"}, {"items", {{"type", "number"}}}, {"minItems", 2}, {"maxItems", 2}}});
  }

  template <typename Part>
  void object(Part&, const FieldText& text) {
    add(text, {"object", {{"type", "object"}}});
    typename Unwrapped<Part>::type sample{};
    inside(text, "", [&] { visit(*this, sample); });
  }

  template <typename Parts>
  void objects(Parts&, const FieldText& text) {
    add(text, {"array of objects", {{"type", "array"}, {"items", {{"type", "object"}}}}});
    typename Unwrapped<Parts>::type::value_type sample{};
    inside(text, "[]", [&] { visit(*this, sample); });
  }

  template <typename Declare>
  void group(const FieldText& text, Declare declare) {
    add(text, {"object", {{"type", "object"}}});
    inside(text, "", declare);
  }

  template <typename Part, typename Declare>
  void inline_part(std::optional<Part>&, Declare declare) {
    Part sample{};
    declare(sample);
  }

  template <typename Compute>
  void derived(Compute compute, const FieldText& text) {
    add(text, type_of<std::decay_t<decltype(compute())>>());
  }

 private:
  void add(const FieldText& text, std::pair<std::string, Json> type) {
    RecordField row;
    row.path = prefix_ + text.name;
    row.type = std::move(type.first);
    row.schema = std::move(type.second);
    if (text.presence == Presence::kNullable) {
      row.type += " or null";
      row.schema["type"] = Json::array({row.schema["type"], "null"});
    }
    row.unit = text.unit;
    row.when = text.presence == Presence::kWhen ? text.when : condition_;
    row.meaning = text.meaning;
    row.required = text.presence != Presence::kWhen;
    rows_->push_back(std::move(row));
  }

  // Fields inside `text`'s object (or its array's elements) are there when it is.
  template <typename Declare>
  void inside(const FieldText& text, const char* array_mark, Declare declare) {
    const std::string outer_prefix = prefix_, outer_condition = condition_;
    const std::string path = prefix_ + text.name;
    if (text.presence == Presence::kWhen) condition_ = text.when;
    if (text.presence == Presence::kNullable) condition_ = path + " is not null";
    prefix_ = path + array_mark + ".";
    declare();
    prefix_ = outer_prefix;
    condition_ = outer_condition;
  }

  std::vector<RecordField>* rows_;
  std::string prefix_;
  std::string condition_;
};

template <typename Record>
std::vector<RecordField> rows_of() {
  std::vector<RecordField> rows;
  FieldCollector collector(&rows);
  Record sample{};
  visit(collector, sample);
  return rows;
}

bool has_path(const std::vector<RecordField>& rows, const std::string& path) {
  return std::any_of(rows.begin(), rows.end(),
                     [&](const RecordField& row) { return row.path == path; });
}

// Every kind's fields once: those both kinds write, then each kind's own.
std::vector<RecordField> build_fields() {
  const auto frame = rows_of<FrameRecord>();
  auto train = rows_of<TrainRecord>(), collective = rows_of<CollectiveRecord>();
  std::vector<RecordField> fields;
  for (RecordField row : train) {
    const bool every = has_path(collective, row.path);
    row.kinds = every ? RecordKinds::kEvery : RecordKinds::kTrain;
    row.framed = has_path(frame, row.path);
    fields.push_back(std::move(row));
  }
  for (RecordField row : collective) {
    if (has_path(train, row.path)) continue;
    row.kinds = RecordKinds::kCollective;
    fields.push_back(std::move(row));
  }
  return fields;
}

void write_table(std::ostringstream& out, RecordKinds section) {
  out << "| field | type | unit | present | meaning |\n|---|---|---|---|---|\n";
  for (const auto& field : record_fields()) {
    if (field.kinds != section) continue;
    out << "| `" << field.path << "` | " << field.type << " | " << field.unit << " | "
        << (field.when.empty() ? "always" : "when " + field.when) << " | " << field.meaning
        << " |\n";
  }
}

}  // namespace

const std::vector<RecordField>& record_fields() {
  static const std::vector<RecordField> all = build_fields();
  return all;
}

std::string record_reference_markdown() {
  std::ostringstream out;
  out << "## Every record (record_version " << kRecordVersion << ")\n\n";
  write_table(out, RecordKinds::kEvery);
  out << "\n## Train records (kind \"train\")\n\n";
  write_table(out, RecordKinds::kTrain);
  out << "\n## Collective records (kind \"collective\")\n\n";
  write_table(out, RecordKinds::kCollective);
  return out.str();
}

}  // namespace harness

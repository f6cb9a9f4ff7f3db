// How a record field is declared. record/record_declaration.h names every field of a trial
// record once, as calls on a visitor; the writer, the reader, the reference and the JSON Schema
// are visitors (record/record_json.cpp, record/record_reader.cpp, record/record_reference.cpp).
//
// A visitor offers these operations (each `text` is a FieldText):
//   field(value, text)          a value: string, integer, number, boolean, JSON, a list of
//                               numbers, or an optional one of these
//   interval(low, high, text)   two numbers written as [low, high]
//   object(part, text)          a part (or optional part) written as an object of its fields
//   objects(parts, text)        a list (or optional list) of parts, as an array of objects
//   group(text, declare)        an object with no struct of its own: `declare()` names its fields
//   inline_part(part, declare)  an optional part whose fields sit beside its owner's
//   derived(compute, text)      written from the other fields; never read back
#pragma once

#include <type_traits>

namespace harness {

// When a field is in a record.
enum class Presence {
  kAlways,    // in every record of its kind that got this far: every ok record has it
  kNullable,  // always there; null when the figure does not exist (AUROC of a one-class set)
  kWhen,      // only when `when` holds; left out otherwise
};

// Shorthands for the declarations.
constexpr Presence kNullable = Presence::kNullable;
constexpr Presence kWhen = Presence::kWhen;

struct FieldText {
  const char* name;
  const char* unit;
  const char* meaning;
  Presence presence = Presence::kAlways;
  const char* when = "";
};

// `visit(visitor, part)` is declared once for a part and its const view: writers visit const
// parts, readers fill them.
template <typename Part, typename Type>
using IfPart = std::enable_if_t<std::is_same_v<std::remove_const_t<Part>, Type>>;

}  // namespace harness

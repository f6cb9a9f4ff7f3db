#include "compose/hierarchical_params.h"

#include <stdexcept>

#include "spec/schema.h"
#include "spec/settings_table.h"

namespace harness {
namespace {

const SettingsTable<HierarchicalParams>& params_table() {
  using P = HierarchicalParams;
  static const auto table =
      SettingsTable<P>()
          .add("intra", &P::intra, "the communicator plugin within each host")
          .add("intra_params", &P::intra_params, "its parameters")
          .add("inter", &P::inter, "the communicator plugin across hosts (mpi, gloo, ring)")
          .required()
          .add("inter_params", &P::inter_params, "its parameters");
  return table;
}

}  // namespace

HierarchicalParams parse_hierarchical_params(const Json& params) {
  if (!params.is_object())
    throw std::invalid_argument("expected an object {\"inter\": ..., ...}, got " + params.dump());
  const Schema schema = params_table().schema();
  ErrorList errors;
  validate_object(schema, "", params, "", /*check_required=*/true, errors);
  if (errors.empty()) return params_table().parse(with_defaults(schema, params));
  // "/inter: ..." names a field; a message about the object itself comes as ": ...".
  const std::string& first = errors.messages().front();
  throw std::invalid_argument(first.rfind(": ", 0) == 0 ? first.substr(2) : first);
}

plugin::Status with_level_prefix(const plugin::Status& status, const std::string& prefix) {
  const std::string message = prefix + status.message();
  switch (status.code()) {
    case plugin::StatusCode::kOk: return status;
    case plugin::StatusCode::kInvalidArgument: return plugin::Status::invalid_argument(message);
    case plugin::StatusCode::kUnsupported: return plugin::Status::unsupported(message);
    case plugin::StatusCode::kUnavailable: return plugin::Status::unavailable(message);
    case plugin::StatusCode::kInternal: break;
  }
  return plugin::Status::internal(message);
}

}  // namespace harness

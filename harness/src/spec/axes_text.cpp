#include "spec/axes_text.h"

namespace harness {
namespace {

// An object axis without JSON's quotes: {algorithm:ring,receive:auto}.
std::string compact(const Json& value) {
  if (!value.is_object()) return json_text(value);
  std::string text;
  for (const auto& item : value.items())
    text += (text.empty() ? "" : ",") + item.key() + ":" + compact(item.value());
  return "{" + text + "}";
}

}  // namespace

std::string json_text(const Json& value) {
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string describe_axes(const Json& axes) {
  std::string text;
  for (const auto& item : axes.items())
    text += (text.empty() ? "" : " ") + item.key() + "=" + json_text(item.value());
  return text.empty() ? "(no sweep)" : text;
}

std::string trial_label(const Json& axes) {
  std::string text;
  const auto add = [&text](const std::string& part) {
    text += (text.empty() ? "" : " ") + part;
  };
  for (const auto& item : axes.items()) {
    if (item.key() == "backend_params" && axes.contains("backend")) continue;  // with backend
    if (item.key() != "backend") {
      add(item.key() + "=" + compact(item.value()));
      continue;
    }
    // The backend as the report names it (gloo:ring), then its other parameters.
    std::string backend = "backend=" + json_text(item.value());
    const Json params = axes.value("backend_params", Json::object());
    for (const auto& param : params.items())
      if (param.key() == "algorithm")
        backend += ":" + json_text(param.value());
      else
        backend += " " + param.key() + "=" + compact(param.value());
    add(backend);
  }
  return text.empty() ? "(no sweep)" : text;
}

}  // namespace harness

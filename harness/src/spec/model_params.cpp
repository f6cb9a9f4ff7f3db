#include "spec/model_params.h"

#include "common/brief.h"
#include "common/input_error.h"

namespace harness {
namespace {

void set_host_owned(Json& params, const std::string& key, std::size_t value, const char* what) {
  if (params.contains(key) &&
      !(params[key].is_number_integer() && params[key].get<std::size_t>() == value))
    throw SettingError("model_params." + key, "set from the data set's " + std::to_string(value) +
                                                  " " + what + "; remove it or make it " +
                                                  std::to_string(value) + ", got " +
                                                  brief(params[key]));
  params[key] = value;
}

}  // namespace

Json model_params_for(const Json& user_params, std::size_t features, std::size_t window) {
  Json params = user_params;
  set_host_owned(params, "input_dim", features, "features");
  if (window > 0) set_host_owned(params, "window", window, "window length");
  return params;
}

}  // namespace harness

// A model plugin's parameters: the host owns the fields the data decide (input_dim, window),
// the user the rest.
#pragma once

#include "common/json.h"
#include "data/data_split.h"

namespace harness {

// The user's parameters with input_dim (features per step) and, for windowed data, window
// filled in. Throws SettingError when the user set one of them to a conflicting value.
Json model_params_for(const Json& user_params, const DataSplit& data);

}  // namespace harness

// A model plugin's parameters: the host owns the fields the data decide (input_dim, window),
// the user the rest.
#pragma once

#include <cstddef>

#include "common/json.h"

namespace harness {

// The user's parameters with input_dim (features per step) and, for windowed data (window >
// 0), window filled in. Throws SettingError when the user set one to a conflicting value.
Json model_params_for(const Json& user_params, std::size_t features, std::size_t window);

}  // namespace harness

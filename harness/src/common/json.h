// The host's JSON type. Ordered, so sweep axes and printed settings keep the file's order.
#pragma once

#include <nlohmann/json.hpp>

namespace harness {
using Json = nlohmann::ordered_json;
}

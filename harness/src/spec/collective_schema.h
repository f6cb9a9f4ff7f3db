#pragma once

#include "spec/schema.h"

namespace harness {

// The fields of "settings" for experiments of kind "collective" (the allreduce benchmark).
const Schema& collective_settings_schema();

}  // namespace harness

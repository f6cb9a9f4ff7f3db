#pragma once

#include "spec/schema.h"

namespace harness {

// The fields of "settings" for experiments of kind "train".
const Schema& train_settings_schema();

}  // namespace harness

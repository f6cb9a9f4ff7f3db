// Records of older layouts brought to the newest (record/record_version.h), one step per
// version, so that every reader reads one layout. scripts/harness_analysis/record_upgrade.py
// takes the same steps; a test runs both on the same files and compares.
#pragma once

#include "common/json.h"

namespace harness {

// The layout version of a record read back: record_version, or 1 for records that called it
// schema_version, or 0 when it has neither; -1 when record_version is there but no integer.
int record_version_of(const Json& record);

// The record in the newest layout. InputError when its version is not an integer from 0 to the
// newest (a newer one: the folder belongs to a newer harness).
Json upgraded_record(Json record);

}  // namespace harness

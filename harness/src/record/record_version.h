// The layout of trial records this harness writes, and the oldest it reads.
#pragma once

namespace harness {

// Bumped when a field changes meaning, unit or type, or goes away; added fields keep it. Each
// older layout has one upgrade step (record/record_upgrade.h), mirrored by the scripts'
// reader (scripts/harness_analysis/record_upgrade.py).
//   0: no version field
//   1: called the field schema_version
//   2: record_version
//   3: figures recorded once: no copies of settings or of other fields
inline constexpr int kRecordVersion = 3;

}  // namespace harness

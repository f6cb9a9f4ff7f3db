// Host-side calls into plugins: a Status that is not ok becomes an exception naming the call,
// for code paths where any plugin failure ends the trial (the trial records the message).
#pragma once

#include <stdexcept>
#include <string>

#include "harness/plugin/status.h"

namespace harness {

inline void throw_if_failed(const plugin::Status& status, const char* what) {
  if (!status.is_ok()) throw std::runtime_error(std::string(what) + ": " + status.message());
}

}  // namespace harness

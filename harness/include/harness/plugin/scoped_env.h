// An environment variable set for the lifetime of one object and restored (or unset) when it
// goes: for libraries configured through the environment at one call (NCCL reads NCCL_ALGO
// and NCCL_PROTO when a communicator is created), so a setting never leaks into later trials.
#pragma once

#include <cstdlib>
#include <optional>
#include <string>

namespace harness::plugin {

class ScopedEnv {
 public:
  // An empty value leaves the variable as it is.
  ScopedEnv(std::string name, const std::string& value) : name_(std::move(name)) {
    if (value.empty()) return;
    if (const char* old = std::getenv(name_.c_str())) previous_ = old;
    ::setenv(name_.c_str(), value.c_str(), 1);
    active_ = true;
  }
  ~ScopedEnv() {
    if (!active_) return;
    if (previous_)
      ::setenv(name_.c_str(), previous_->c_str(), 1);
    else
      ::unsetenv(name_.c_str());
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
  std::optional<std::string> previous_;
  bool active_ = false;
};

}  // namespace harness::plugin

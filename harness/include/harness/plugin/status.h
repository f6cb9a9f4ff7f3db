// Status: the only way an error crosses the plugin boundary. Plugin entry points and
// methods are noexcept; exceptions inside a plugin are caught and turned into a Status.
#pragma once

#include <exception>
#include <string>
#include <utility>

namespace harness::plugin {

enum class StatusCode { kOk = 0, kInvalidArgument, kUnsupported, kUnavailable, kInternal };

class Status {
 public:
  Status() = default;
  static Status ok() { return Status(); }
  static Status invalid_argument(std::string message) {
    return Status(StatusCode::kInvalidArgument, std::move(message));
  }
  static Status unsupported(std::string message) {
    return Status(StatusCode::kUnsupported, std::move(message));
  }
  static Status unavailable(std::string message) {
    return Status(StatusCode::kUnavailable, std::move(message));
  }
  static Status internal(std::string message) {
    return Status(StatusCode::kInternal, std::move(message));
  }

  bool is_ok() const noexcept { return code_ == StatusCode::kOk; }
  StatusCode code() const noexcept { return code_; }
  const std::string& message() const noexcept { return message_; }

 private:
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Runs body() (which returns a Status) and converts any escaping exception into a Status,
// so plugin methods can be written with ordinary C++ and still honour noexcept.
template <class Body>
Status guarded(Body&& body) noexcept {
  try {
    return body();
  } catch (const std::exception& e) {
    return Status::internal(e.what());
  } catch (...) {
    return Status::internal("unknown exception inside plugin");
  }
}

}  // namespace harness::plugin

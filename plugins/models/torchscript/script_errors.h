// LibTorch's exceptions as one readable line: c10::Error without its C++ backtrace, and an
// error raised inside TorchScript code as its last line ("RuntimeError: ..."), not the
// interpreter's traceback banner.
#pragma once

#include <exception>
#include <string>

namespace harness::plugins {

std::string script_error_text(const std::exception& error);

}  // namespace harness::plugins

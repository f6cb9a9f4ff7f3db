// What a failed trial or a refused setting says, from an exception's text: its first line only
// (LibTorch appends a C++ stack trace of dozens of lines to its messages), and for a failed
// allocation what it means: the bytes asked for, the memory available and whether an
// environment limit (ulimit -v) is what refused it.
#pragma once

#include <string>

namespace harness {

std::string failure_text(const std::string& what);

// The process's address-space limit (ulimit -v) as a clause, e.g. "the address space is limited
// to 781 MB (ulimit -v): a limit of this environment, not of the experiment"; empty when
// unlimited.
std::string address_space_limit_text();

}  // namespace harness

// Linux cross-memory attach (process_vm_readv), as Open MPI's vader uses for large messages:
// one process reads another's memory directly, one copy instead of two through a shared
// segment. Needs permission to ptrace the peer (same user; Yama's ptrace_scope and seccomp
// profiles may forbid it), so a group probes it once before relying on it.
#pragma once

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <string>

#include "harness/plugin/bootstrap.h"

namespace harness::plugins {

// Copies `bytes` from `address` in process `pid` to `local`. False (errno set) when the
// kernel refused or the peer's range is gone.
bool read_from_process(pid_t pid, std::uint64_t address, void* local, std::size_t bytes);

// Collective over `group`: whether every rank can read its next peer's memory. "" or why not
// (the same on every rank).
std::string probe_cross_memory_attach(plugin::Bootstrap& group);

}  // namespace harness::plugins

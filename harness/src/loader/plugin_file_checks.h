// What is checked about a plugin file before it is loaded, because loading runs its code
// (static constructors): the name says it is one of ours, nobody but its owner and root can
// have changed it (ssh's and sudo's rule), and its dynamic symbol table, read from the file
// without loading it, exports the plugin info symbol.
#pragma once

#include <string>

namespace harness {

// libharness_comm_<name>.so or libharness_model_<name>.so (the names hx_add_plugin builds).
bool named_like_plugin(const std::string& file_name);

// Empty unless `path` is a symbolic link that leads nowhere: "a symbolic link to X, which does
// not exist", or one that loops.
std::string broken_link_reason(const std::string& path);

// Why `path` (a plugin directory, or a file, followed through symlinks) may have been written
// by someone other than this user or root: writable by every user, or owned by another user.
// Empty when it is safe.
std::string insecure_reason(const std::string& path);

// Empty when the ELF file exports `symbol`; else why not (not ELF, symbol missing). Reads the
// file; runs nothing.
std::string check_exported_symbol(const std::string& path, const char* symbol);

}  // namespace harness

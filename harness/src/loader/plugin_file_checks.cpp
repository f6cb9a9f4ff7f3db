#include "loader/plugin_file_checks.h"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <regex>
#include <vector>

// Boost.DLL's ELF reader uses std::vector without including it.
#include <boost/dll/library_info.hpp>

namespace harness {

bool named_like_plugin(const std::string& file_name) {
  static const std::regex pattern("libharness_(comm|model)_[A-Za-z0-9_]+\\.so");
  return std::regex_match(file_name, pattern);
}

std::string insecure_reason(const std::string& path) {
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) return "cannot be examined";
  if (info.st_mode & S_IWOTH) return "is writable by every user";
  if (info.st_uid != 0 && info.st_uid != geteuid())
    return "is owned by another user (uid " + std::to_string(info.st_uid) + ")";
  return {};
}

std::string broken_link_reason(const std::string& path) {
  struct stat info {};
  if (lstat(path.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) return {};
  if (stat(path.c_str(), &info) == 0) return {};
  if (errno == ELOOP) return "a symbolic link that loops (it leads back to itself)";
  std::error_code error;
  const auto target = std::filesystem::read_symlink(path, error);
  return "a symbolic link to " + (error ? std::string("a target") : target.string()) +
         ", which does not exist";
}

std::string check_exported_symbol(const std::string& path, const char* symbol) {
  try {
    boost::dll::library_info info(path);
    const auto symbols = info.symbols();
    if (std::find(symbols.begin(), symbols.end(), symbol) == symbols.end())
      return std::string("does not export ") + symbol + " (not a harness plugin)";
    return {};
  } catch (const std::exception& e) {
    return std::string("not an ELF shared library (") + e.what() + ")";
  }
}

}  // namespace harness

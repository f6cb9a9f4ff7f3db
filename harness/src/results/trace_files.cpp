#include "results/trace_files.h"

#include <filesystem>
#include <system_error>

#include "results/file_writing.h"

namespace harness {

std::string file_trace(const Json& trace, const std::string& key, const std::string& directory) {
  // Keys are hex hashes (spec/trial.h): a folder name of ours, never a path.
  const std::string relative = "traces/" + (key.empty() ? std::string("unkeyed") : key) + "/trace.json";
  const std::filesystem::path path = std::filesystem::path(directory) / relative;
  std::error_code error;
  std::filesystem::create_directories(path.parent_path(), error);
  if (error)
    throw ResultsWriteError(path.parent_path().string() + ": cannot create: " + error.message());
  write_file_atomically(path.string(), trace.dump());
  return relative;
}

}  // namespace harness

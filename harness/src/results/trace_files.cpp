#include "results/trace_files.h"

#include <filesystem>

#include "results/file_writing.h"

namespace harness {

Json file_trace(Json record, const std::string& directory) {
  if (!record.contains("trace")) return record;
  // Keys are hex hashes; anything else would be no folder name of ours.
  const std::string key = record.value("key", std::string("unkeyed"));
  const std::string relative = "traces/" + key + "/trace.json";
  const std::filesystem::path path = std::filesystem::path(directory) / relative;
  std::filesystem::create_directories(path.parent_path());
  write_file_atomically(path.string(), record["trace"].dump());
  record.erase("trace");
  record["trace_file"] = relative;
  return record;
}

}  // namespace harness

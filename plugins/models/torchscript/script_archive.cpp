#include "script_archive.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "script_errors.h"

namespace harness::plugins {
namespace {

[[noreturn]] void refuse(const std::string& path, const std::string& why) {
  throw std::invalid_argument("/path: " + path + ": " + why);
}

void check_file(const std::string& path) {
  struct stat info {};
  if (path.empty()) refuse(path, "expected the path of a TorchScript file (torch.jit.save)");
  if (::stat(path.c_str(), &info) != 0) refuse(path, std::strerror(errno));
  if (!S_ISREG(info.st_mode)) refuse(path, "not a regular file");
  if (info.st_size == 0) refuse(path, "empty (0 bytes); expected a TorchScript archive");
  std::ifstream in(path, std::ios::binary);
  char magic[4] = {};
  if (!in.read(magic, sizeof magic))
    refuse(path, "cannot be read: " + std::string(std::strerror(errno)));
  // torch.jit.save writes a zip archive; anything else (a pickled state_dict from
  // torch.save, an ONNX file) is refused before LibTorch tries.
  if (std::memcmp(magic, "PK\x03\x04", 4) != 0)
    refuse(path,
           "not a TorchScript archive (torch.jit.save writes a zip file; this one starts "
           "otherwise: was it saved with torch.save or exported to another format?)");
}

}  // namespace

torch::jit::Module load_script_archive(const std::string& path) {
  check_file(path);
  try {
    return torch::jit::load(path, c10::Device(c10::kCPU));
  } catch (const std::exception& e) {
    refuse(path, "LibTorch cannot load it as TorchScript: " + script_error_text(e));
  }
}

void check_method_arity(const torch::jit::Module& module, const std::string& path,
                        const std::string& method, std::size_t arguments) {
  const auto found = module.find_method(method);
  if (!found) refuse(path, "the module has no " + method + "() method");
  const std::size_t given = found->function().getSchema().arguments().size() - 1;  // self
  if (given != arguments)
    refuse(path, "the module's " + method + "() takes " + std::to_string(given) +
                     " argument(s) besides self; the harness passes " + std::to_string(arguments) +
                     (method == "loss" ? " (the batch and forward's output)" : " (the batch)"));
}

}  // namespace harness::plugins

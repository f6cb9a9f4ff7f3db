// Loading a TorchScript archive (what torch.jit.save writes) with errors that name the file
// and what is wrong with it, never a LibTorch stack.
#pragma once

#include <torch/script.h>

#include <string>

namespace harness::plugins {

// Throws std::invalid_argument: no such file, not a regular file, empty, not a zip archive,
// or LibTorch cannot read it as TorchScript.
torch::jit::Module load_script_archive(const std::string& path);

// Throws std::invalid_argument unless `method` exists with `arguments` arguments besides self.
void check_method_arity(const torch::jit::Module& module, const std::string& path,
                        const std::string& method, std::size_t arguments);

}  // namespace harness::plugins

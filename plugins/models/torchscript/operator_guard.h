// A TorchScript file is code: its methods run in the harness's process, with its rights. Before
// any of them runs, the guard lists the operators of every method's graph (with the methods and
// functions it calls inlined) and refuses those that reach outside the model: files
// (torch.from_file, torch.save) and anything named like file, process or socket access. The
// model setting "allow_operators" lets named ones through, for a file the user has read.
// Code in a module's __setstate__ runs while LibTorch loads the file, before the graphs exist:
// the archive's TorchScript source is searched for the named operators before loading. That
// narrows what a file can do; files from strangers must still be read first (docs/security.md).
#pragma once

#include <torch/script.h>

#include <nlohmann/json.hpp>

#include <set>
#include <string>

namespace harness::plugins {

// model_params.allow_operators: absent, or an array of qualified operator names
// ("aten::from_file"). Throws std::invalid_argument naming the entry.
std::set<std::string> allowed_operators(const nlohmann::json& params);

// Before loading: the archive's source (its code/ entries) must not call aten::from_file or
// aten::save unless allowed. Throws std::invalid_argument naming the entry and the operator;
// an archive it cannot read is left to the loader's own error.
void refuse_unsafe_source(const std::string& path, const std::set<std::string>& allowed);

// Throws std::invalid_argument naming the operator, the method and the setting that allows it.
void refuse_unsafe_operators(const torch::jit::Module& module, const std::string& path,
                             const std::set<std::string>& allowed);

}  // namespace harness::plugins

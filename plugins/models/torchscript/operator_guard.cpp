#include "operator_guard.h"

#include <caffe2/serialize/inline_container.h>
#include <torch/csrc/jit/passes/inliner.h>

#include <array>
#include <memory>
#include <utility>
#include <stdexcept>

namespace harness::plugins {
namespace {

// Operators that read or write files, or would start processes or connections. The named ones
// exist in LibTorch today; the words catch those of later versions and of extension libraries.
bool reaches_outside(const std::string& op) {
  if (op == "aten::from_file" || op == "aten::save") return true;
  const std::string name = op.substr(op.find("::") == std::string::npos ? 0 : op.find("::") + 2);
  constexpr std::array<const char*, 8> kWords = {"file", "save", "load", "open",
                                                 "system", "spawn", "exec", "socket"};
  for (const char* word : kWords)
    if (name.find(word) != std::string::npos) return true;
  return false;
}

// The first unsafe operator in `block`, nested blocks (loops, branches) included.
std::string first_unsafe(const torch::jit::Block* block, const std::set<std::string>& allowed) {
  for (const torch::jit::Node* node : block->nodes()) {
    const std::string op = node->kind().toQualString();
    if (reaches_outside(op) && !allowed.count(op)) return op;
    for (const torch::jit::Block* inner : node->blocks())
      if (std::string found = first_unsafe(inner, allowed); !found.empty()) return found;
  }
  return {};
}

// The named operators as TorchScript source spells a call to them.
constexpr std::array<std::pair<const char*, const char*>, 2> kSourceCalls = {
    {{"aten::from_file", "torch.from_file("}, {"aten::save", "torch.save("}}};

// The name of the `def` the source text at `at` belongs to ("forward", "__setstate__").
std::string enclosing_function(const std::string& source, std::size_t at) {
  const std::size_t def = source.rfind("def ", at);
  if (def == std::string::npos) return "code";
  const std::size_t name = def + 4;
  return source.substr(name, source.find('(', name) - name);
}

bool is_source_entry(const std::string& record) {
  const std::string suffix = ".py";
  return record.rfind("code/", 0) == 0 && record.size() > suffix.size() &&
         record.compare(record.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void refuse_unsafe_source(const std::string& path, const std::set<std::string>& allowed) {
  std::unique_ptr<caffe2::serialize::PyTorchStreamReader> reader;
  try {
    reader = std::make_unique<caffe2::serialize::PyTorchStreamReader>(path);
  } catch (const std::exception&) {
    return;  // not an archive LibTorch reads: its loader says why
  }
  for (const auto& record : reader->getAllRecords()) {
    if (!is_source_entry(record)) continue;
    auto [data, size] = reader->getRecord(record);
    const std::string source(static_cast<const char*>(data.get()), size);
    for (const auto& [op, call] : kSourceCalls) {
      const std::size_t at = source.find(call);
      if (allowed.count(op) || at == std::string::npos) continue;
      throw std::invalid_argument(
          "/path: " + path + ": the module's " + enclosing_function(source, at) +
          "() uses operator " + op + " (" + record +
          "), which reaches outside the model (files); a model file is code, and a module's "
          "__setstate__ runs while the file is loaded, so the harness does not load it. Read "
          "the file's code first; to run it anyway, add \"" + op +
          "\" to model_params.allow_operators");
    }
  }
}

std::set<std::string> allowed_operators(const nlohmann::json& params) {
  std::set<std::string> allowed;
  if (!params.contains("allow_operators")) return allowed;
  const auto& list = params.at("allow_operators");
  const auto refuse = [](const std::string& pointer, const nlohmann::json& value) {
    throw std::invalid_argument(pointer +
                                ": expected qualified operator names such as \"aten::from_file\" "
                                "(the names the harness's refusal gives), got " + value.dump());
  };
  if (!list.is_array()) refuse("/allow_operators", list);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const auto& name = list[i];
    if (!name.is_string() || name.get<std::string>().find("::") == std::string::npos)
      refuse("/allow_operators/" + std::to_string(i), name);
    allowed.insert(name.get<std::string>());
  }
  return allowed;
}

void refuse_unsafe_operators(const torch::jit::Module& module, const std::string& path,
                             const std::set<std::string>& allowed) {
  for (const auto& method : module.get_methods()) {
    auto graph = method.graph()->copy();
    torch::jit::Inline(*graph);  // what forward calls (submodules, functions) is checked too
    const std::string op = first_unsafe(graph->block(), allowed);
    if (op.empty()) continue;
    throw std::invalid_argument(
        "/path: " + path + ": the module's " + method.name() + "() uses operator " + op +
        ", which reaches outside the model (files, processes); a model file is code, so the "
        "harness refuses it. Read the file's code first; to run it anyway, add \"" + op +
        "\" to model_params.allow_operators");
  }
}

}  // namespace harness::plugins

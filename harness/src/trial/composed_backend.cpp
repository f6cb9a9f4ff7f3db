#include "trial/composed_backend.h"

#include <stdexcept>

#include "trial/hierarchical_backend.h"

namespace harness {
namespace {

const std::vector<const ComposedBackend*>& composed_backends() {
  static const std::vector<const ComposedBackend*> all = {&hierarchical_backend()};
  return all;
}

}  // namespace

const ComposedBackend* find_composed_backend(const std::string& name) {
  for (const ComposedBackend* backend : composed_backends())
    if (backend->name == name) return backend;
  return nullptr;
}

std::vector<ComposedLevel> composed_levels(const ComposedBackend& backend, const Json& params) {
  std::vector<ComposedLevel> levels = backend.levels(params);
  for (const ComposedLevel& level : levels)
    if (find_composed_backend(level.plugin))
      throw std::invalid_argument("/" + level.field + ": " + level.plugin +
                                  " is composed itself; a level is a communicator plugin");
  return levels;
}

std::vector<std::string> communicator_plugins(const std::string& backend, const Json& params) {
  const ComposedBackend* composed = find_composed_backend(backend);
  if (!composed) return {backend};
  std::vector<std::string> names;
  for (const ComposedLevel& level : composed_levels(*composed, params)) names.push_back(level.plugin);
  return names;
}

std::string level_label(const ComposedLevel& level) {
  const auto algorithm = level.params.find("algorithm");
  if (algorithm == level.params.end() || !algorithm->is_string()) return level.plugin;
  return level.plugin + ":" + algorithm->get<std::string>();
}

}  // namespace harness

#include "run/console_listing.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>
#include <stdexcept>
#include <string>

#include "common/brief.h"
#include "common/exit_codes.h"
#include "loader/plugin_capabilities.h"
#include "run/adaptive_repetitions.h"
#include "run/trial_kinds.h"
#include "spec/axes_text.h"
#include "spec/experiment.h"
#include "trial/composed_backend.h"

namespace harness {

void say(const char* level, const std::string& text) {
  std::fprintf(stderr, "harness: %s: %s\n", level, printable(text).c_str());
}

int listing_written() {
  if (std::fflush(stdout) == 0 && !std::ferror(stdout)) return kExitOk;
  std::fprintf(stderr, "harness: error: could not write to standard output (%s)\n",
               std::strerror(errno));
  return kExitFatal;
}
namespace {

std::string model_capability_text(const PluginHandle& p) {
  const auto c = model_capabilities(p);
  return std::string("input=") + plugin::input_kind_name(c.input_kind) +
         (c.cuda ? " cpu,cuda" : " cpu");
}

std::string communicator_capability_text(const PluginHandle& p) {
  const auto c = communicator_capabilities(p);
  std::string text = std::string(c.host_buffers ? "host" : "") +
                     (c.cuda_buffers ? (c.host_buffers ? "+cuda" : "cuda") : "") + " dtypes=";
  for (std::size_t i = 0; i < c.dtypes.size(); ++i)
    text += std::string(i ? "," : "") + plugin::dtype_name(c.dtypes[i]);
  text += " collectives=";
  for (std::size_t i = 0; i < c.collectives.size(); ++i)
    text += std::string(i ? "," : "") + plugin::collective_name(c.collectives[i]);
  if (!c.unavailable_reason.empty()) text += " UNAVAILABLE: " + c.unavailable_reason;
  return text;
}

std::string search_plan_text(const SearchSettings& search) {
  const std::string resource =
      search.resource() == SearchResource::kRepetitions
          ? "each " + std::to_string(search.min_repetitions) + " to " +
                std::to_string(search.max_repetitions) + " times"
          : "from " + std::to_string(search.min_epochs) + " epoch(s) to the settings' epochs";
  char budget[32];
  std::snprintf(budget, sizeof budget, "%g s", search.budget_s);
  return "a search (" + search_method_name(search.method) + " by " +
         search_objective_name(search.objective) + ", eta " + std::to_string(search.eta) +
         ") picks its trials from these configurations, " + resource + ", for at most " + budget;
}

}  // namespace

void print_plugins(const PluginRegistry& registry, std::FILE* out) {
  std::fprintf(out, "%-12s %-13s %-8s %-40s %s\n", "NAME", "KIND", "VERSION", "CAPABILITIES",
               "PATH");
  for (const auto& p : registry.plugins()) {
    const std::string capabilities = p.kind == plugin::PluginKind::kModel
                                         ? model_capability_text(p)
                                         : communicator_capability_text(p);
    std::fprintf(out, "%-12s %-13s %-8s %-40s %s\n", p.name.c_str(),
                 plugin::plugin_kind_name(p.kind), p.version.c_str(), capabilities.c_str(),
                 p.path.c_str());
  }
  for (const auto& note : registry.not_built())
    if (!registry.find(note.kind, note.name))
      std::fprintf(out, "not built: %s %s: %s\n", plugin::plugin_kind_name(note.kind),
                   note.name.c_str(), printable(note.reason).c_str());
  // The whole inventory: broken, refused and shadowed files as well as files not named like
  // plugins.
  for (const auto* list : {&registry.warnings(), &registry.problems()})
    for (const auto& problem : *list)
      std::fprintf(out, "not loaded: %s\n", printable(problem).c_str());
}

void print_field_reference(std::FILE* out) {
  const auto& kinds = trial_kinds();
  for (std::size_t k = 0; k < kinds.size(); ++k) {
    std::string title = kinds[k].name;
    title[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(title[0])));
    std::fprintf(out, "%s## %s settings (kind \"%s\")\n\n%s", k ? "\n" : "", title.c_str(),
                 kinds[k].name.c_str(), schema_reference_markdown(kinds[k].schema()).c_str());
  }
  std::fprintf(out, "\n## The search block (\"search\", at the top level)\n\n%s",
               schema_reference_markdown(search_schema()).c_str());
}

void print_plugins_needed(const std::vector<Trial>& trials, std::FILE* out) {
  std::set<std::string> needed;
  for (const auto& trial : trials) {
    const Json& settings = trial.settings;
    if (settings.contains("model")) needed.insert("model:" + settings["model"].get<std::string>());
    if (!settings.contains("backend")) continue;
    try {
      for (const auto& name : communicator_plugins(settings["backend"].get<std::string>(),
                                                   settings.value("backend_params", Json::object())))
        needed.insert("comm:" + name);
    } catch (const std::invalid_argument&) {
      // Wrong parameters of a composed backend name no level; the dry run says what is wrong.
    }
  }
  for (const auto& line : needed) std::fprintf(out, "%s\n", line.c_str());
}

void print_trial_table(const std::vector<Trial>& trials, const Experiment& experiment,
                       const std::string& oversubscribed_note, std::FILE* out) {
  const AdaptiveRepetitions& adaptive = experiment.adaptive;
  const Estimator& estimator = experiment.estimator;
  std::fprintf(out, "%5s  %-10s %-16s %4s %6s  %s\n", "TRIAL", "KIND", "KEY", "REP", "SEED",
               "SETTINGS");
  int ranks = 1;
  for (const auto& t : trials) {
    std::fprintf(out, "%5zu  %-10s %-16s %4d %6llu  %s\n", t.index + 1, t.kind.c_str(),
                 t.key.c_str(), t.repetition, static_cast<unsigned long long>(t.seed),
                 describe_axes(t.axes).c_str());
    ranks = std::max(ranks, t.world_size);
  }
  if (!oversubscribed_note.empty()) std::fprintf(out, "%s\n", oversubscribed_note.c_str());
  if (experiment.search.on) {
    std::fprintf(out, "%s\n%zu configuration(s); run with mpirun -np %d\n",
                 search_plan_text(experiment.search).c_str(), trials.size(), ranks);
    return;
  }
  if (adaptive.on(experiment.repetitions))
    std::fprintf(out,
                 "then adaptive repetitions: a point whose speed figures are still wider than "
                 "%s (%s) runs again, up to %d repetitions, for at most %g s in all\n",
                 target_text(adaptive, estimator).c_str(),
                 estimator.kind == EstimatorKind::kKBest ? "k_best" : "95% interval of the median",
                 adaptive.max_repetitions, adaptive.budget_s);
  std::fprintf(out, "%zu trial(s); run with mpirun -np %d\n", trials.size(), ranks);
}

}  // namespace harness

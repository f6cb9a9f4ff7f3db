#include "paired_ratio_reporter.h"

#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <utility>

#include "metrics/statistics.h"

namespace harness::bench {
namespace {

// `name` with its path segment `from` replaced by `to`; "" when it has no such segment.
std::string swap_segment(const std::string& name, const std::string& from, const std::string& to) {
  const std::string needle = "/" + from + "/";
  const auto at = name.find(needle);
  if (at == std::string::npos) return {};
  return name.substr(0, at) + "/" + to + "/" + name.substr(at + needle.size());
}

// Without Google Benchmark's "/real_time" suffix, which every collective benchmark has.
std::string display_name(std::string name) {
  const std::string suffix = "/real_time";
  if (name.size() > suffix.size() &&
      name.compare(name.size() - suffix.size(), suffix.size(), suffix) == 0)
    name.resize(name.size() - suffix.size());
  return name;
}

}  // namespace

PairedRatioReporter::PairedRatioReporter(std::string candidate, std::string reference,
                                         std::string target_note)
    : PairedRatioReporter(std::vector<Pairing>{
          {std::move(candidate), std::move(reference), std::move(target_note)}}) {}

PairedRatioReporter::PairedRatioReporter(std::vector<Pairing> pairings)
    : ConsoleReporter(isatty(STDOUT_FILENO) ? OO_ColorTabular : OO_Tabular),
      pairings_(std::move(pairings)) {}

void PairedRatioReporter::ReportRuns(const std::vector<Run>& runs) {
  // With repetitions the console shows the aggregates; the ratios need every repetition.
  std::vector<Run> aggregates;
  std::copy_if(runs.begin(), runs.end(), std::back_inserter(aggregates),
               [](const Run& run) { return run.run_type == Run::RT_Aggregate; });
  ConsoleReporter::ReportRuns(aggregates.empty() ? runs : aggregates);
  for (const Run& run : runs) {
    if (run.run_type != Run::RT_Iteration || run.error_occurred) continue;
    const std::string name = run.benchmark_name();
    if (!seconds_.count(name)) order_.push_back(name);
    // Per iteration, in seconds, whatever the benchmark's display unit.
    seconds_[name].push_back(run.GetAdjustedRealTime() /
                             benchmark::GetTimeUnitMultiplier(run.time_unit));
  }
}

void PairedRatioReporter::Finalize() {
  ConsoleReporter::Finalize();
  for (const Pairing& pairing : pairings_) print_table(pairing);
}

void PairedRatioReporter::print_table(const Pairing& pairing) const {
  bool header = false;
  for (const std::string& name : order_) {
    const std::string reference_name = swap_segment(name, pairing.candidate, pairing.reference);
    if (reference_name.empty() || !seconds_.count(reference_name)) continue;
    const auto& candidate = seconds_.at(name);
    const auto& reference = seconds_.at(reference_name);
    const std::size_t pairs = std::min(candidate.size(), reference.size());
    std::vector<double> ratios;
    for (std::size_t i = 0; i < pairs; ++i) ratios.push_back(candidate[i] / reference[i]);
    const SampleSummary ratio = summarise(ratios);
    const double reference_median = percentile(reference, 50);
    const double candidate_median = percentile(candidate, 50);
    if (!header) {
      std::printf("\n%-44s %12s %12s %8s %19s %11s\n", "pair", (pairing.reference + " us").c_str(),
                  (pairing.candidate + " us").c_str(), "ratio", "95% CI (coverage)", "added us");
      header = true;
    }
    std::printf("%-44s %12.3f %12.3f %8.3f [%6.3f, %6.3f] (%3.0f%%) %+11.3f\n",
                display_name(swap_segment(name, pairing.candidate, "*")).c_str(),
                reference_median * 1e6, candidate_median * 1e6, ratio.median, ratio.median_ci.low,
                ratio.median_ci.high, ratio.median_ci.coverage * 100,
                (candidate_median - reference_median) * 1e6);
  }
  if (header)
    std::printf("ratio = %s time / %s time per repetition, median over repetitions; %s\n",
                pairing.candidate.c_str(), pairing.reference.c_str(), pairing.target_note.c_str());
}

}  // namespace harness::bench

// Google Benchmark's console output, then tables of paired ratios: every benchmark whose
// name has the path segment `candidate` (e.g. ".../plugin/...") beside the one with
// `reference` in its place (".../direct/..."): both medians, the time ratio candidate /
// reference with the 95% confidence interval of its median over the repetitions, and the time
// the candidate adds. Run with --benchmark_repetitions (and random interleaving) for an
// uncertainty; with one repetition the interval is the single ratio.
#pragma once

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

namespace harness::bench {

// One table: the benchmarks with segment `candidate` against those with `reference`.
struct Pairing {
  std::string candidate, reference, target_note;
};

class PairedRatioReporter : public benchmark::ConsoleReporter {
 public:
  PairedRatioReporter(std::string candidate, std::string reference, std::string target_note);
  // Several tables, in this order (e.g. harness over bare, then scripted over built-in).
  explicit PairedRatioReporter(std::vector<Pairing> pairings);

  void ReportRuns(const std::vector<Run>& runs) override;
  void Finalize() override;

 private:
  void print_table(const Pairing& pairing) const;

  std::vector<Pairing> pairings_;
  std::map<std::string, std::vector<double>> seconds_;  // per name, one per repetition
  std::vector<std::string> order_;                      // names as first reported
};

}  // namespace harness::bench

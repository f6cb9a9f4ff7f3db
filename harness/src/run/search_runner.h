// Runs a search on every rank: rank 0 replays the records to decide each rung and names the
// next trial, every rank runs it; the console says each rung's decision in a line and
// search.json is rewritten whenever a rung is decided.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "search/search_summary.h"
#include "record/trial_run.h"
#include "results/console_reporter.h"
#include "spec/experiment.h"
#include "spec/trial.h"

namespace harness {

struct SearchHooks {
  std::function<void(const Trial& trial, std::size_t position)> run;  // collective
  std::function<const std::vector<TrialRun>&()> records;              // rank 0 only
  std::function<void(const SearchSummary& summary)> write;            // rank 0 only: search.json
  ConsoleReporter* reporter = nullptr;
};

// Collective over MPI_COMM_WORLD; `leader` says whether this rank holds the records. Returns
// search.json's content on rank 0 (an empty summary elsewhere).
SearchSummary run_search(const Experiment& experiment, const std::vector<Trial>& trials, bool leader,
                const SearchHooks& hooks);

}  // namespace harness

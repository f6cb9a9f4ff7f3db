// The host's hot paths, one process: gradient fusion pack/unpack at each model plugin's size,
// the distributed sampler's per-epoch shuffle, the learning-rate schedule, parsing, expanding
// and validating each shipped experiment, appending (fsynced) a trial record, and the results
// folder's CSVs over a whole sweep of cheap trials (the sinks' schedule beside a rewrite after
// every trial: the time per trial should stay flat as the sweep grows).
// Run by scripts/benchmark host.
#include <benchmark/benchmark.h>
#include <mpi.h>
#include <torch/torch.h>

#include <unistd.h>

#include <algorithm>
#include <climits>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "data/data_cache.h"
#include "loader/plugin_registry.h"
#include "record/record_reader.h"
#include "record/record_upgrade.h"
#include "results/aggregates_csv.h"
#include "results/file_writing.h"
#include "results/points_csv.h"
#include "results/results_store.h"
#include "results/summary_csv.h"
#include "run/trial_kinds.h"
#include "run/trial_validation.h"
#include "spec/experiment.h"
#include "spec/trial_expansion.h"
#include "train/distributed_sampler.h"
#include "train/fusion_buffer.h"
#include "train/lr_schedule.h"
#include "train/model_factory.h"

namespace {

namespace fs = std::filesystem;
using harness::Json;

std::string read_text(const fs::path& path) {
  std::ifstream file(path);
  if (!file) throw std::runtime_error(path.string() + ": cannot read");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

harness::PluginRegistry& plugins() {
  static harness::PluginRegistry registry =
      harness::PluginRegistry::discover(harness::plugin_search_path({}));
  return registry;
}

// --- fusion: every gradient of a model into one flat buffer and back -----------------------

void register_fusion(const std::string& model, const Json& params) {
  benchmark::RegisterBenchmark(("fusion/pack_unpack/" + model).c_str(), [=](benchmark::State&
                                                                                state) {
    const auto* plugin = plugins().find(harness::plugin::PluginKind::kModel, model);
    if (!plugin) return state.SkipWithError(("no model plugin " + model).c_str());
    auto instance = harness::create_model(*plugin, params);
    auto parameters = instance->parameters();
    for (auto& p : parameters) p.mutable_grad() = torch::ones_like(p);
    harness::FusionBuffer fusion(parameters, /*extra_slots=*/1);
    for (auto _ : state) {
      fusion.pack_gradients();
      fusion.unpack_gradients();
    }
    state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                            static_cast<int64_t>(fusion.view().bytes()));
    state.counters["elements"] = static_cast<double>(fusion.gradient_elements());
  })->Unit(benchmark::kMicrosecond);
}

// --- sampler and schedule -----------------------------------------------------------------

void sampler_epoch(benchmark::State& state) {
  harness::DistributedSampler sampler(static_cast<std::size_t>(state.range(0)), /*world=*/4,
                                      /*rank=*/1, /*seed=*/7);
  std::uint64_t epoch = 0;
  for (auto _ : state) {
    sampler.set_epoch(epoch++);
    benchmark::DoNotOptimize(sampler.indices());
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}

void lr_schedule(benchmark::State& state) {
  const harness::LrSchedule schedule(0.001, harness::LrRule::kSqrt, 8, /*warmup_steps=*/500);
  std::uint64_t step = 0;
  double sum = 0;
  for (auto _ : state) sum += schedule.at(step++ % 1000);
  benchmark::DoNotOptimize(sum);
}

// --- experiments: what every run does before its first trial ------------------------------

void register_experiment(const fs::path& path) {
  benchmark::RegisterBenchmark(
      ("experiment/parse_expand_validate/" + path.stem().string()).c_str(),
      [path](benchmark::State& state) {
        const std::string text = read_text(path);
        const auto kinds = harness::trial_kind_schemas();
        harness::DataCache data;  // loaded once, as in a run
        for (auto _ : state) {
          auto experiment = harness::parse_experiment(text, path.string(), {}, kinds);
          auto trials = harness::expand_trials(experiment);
          harness::validate_trials(experiment, trials, plugins(), data, INT_MAX);
          benchmark::DoNotOptimize(trials.data());
        }
      })
      ->Unit(benchmark::kMicrosecond);
}

// --- results: one finished trial made durable ----------------------------------------------

// The first line of the mixed results fixture: a real train record.
std::string fixture_record_line() {
  std::istringstream lines(
      read_text(fs::path(HARNESS_SOURCE_DIR) / "tests/fixtures/mixed_results/trials.jsonl"));
  std::string first;
  std::getline(lines, first);
  return first;
}

void results_append(benchmark::State& state) {
  const std::string first = fixture_record_line();
  // The trial's typed record, as its kind hands it to the store.
  const harness::TrainRecord record =
      harness::read_train_record(harness::upgraded_record(Json::parse(first)));
  const fs::path base = fs::temp_directory_path() / ("harness_bench_" + std::to_string(getpid()));
  {
    auto store = harness::ResultsStore::create(base.string(), "append");
    for (auto _ : state) store.append(record);
  }
  fs::remove_all(base);
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(first.size()));
}

// --- results: the CSV sinks over a sweep -----------------------------------------------------

// A sweep of `trials` records of the fixture's first, 5 repetitions per point.
std::vector<harness::TrialRun> sweep_records(std::size_t trials) {
  const Json record = Json::parse(fixture_record_line());
  std::vector<harness::TrialRun> records;
  for (std::size_t i = 0; i < trials; ++i) {
    Json r = record;
    r["status"] = "ok";
    r["key"] = "trial-" + std::to_string(i);
    r["point"] = "point-" + std::to_string(i / 5);
    r["repetition"] = i % 5;
    r["throughput"]["samples_per_s"] = 1000.0 + static_cast<double>(i % 7);
    records.push_back(harness::read_trial_run(harness::upgraded_record(std::move(r))));
  }
  return records;
}

// Every record through summary.csv, points.csv and aggregates.csv, as a sweep hands them on;
// every_trial: each file rewritten after every trial instead (what the sinks did before).
void csv_sinks(benchmark::State& state, bool every_trial) {
  const auto trials = static_cast<std::size_t>(state.range(0));
  const std::vector<harness::TrialRun> records = sweep_records(trials);
  const fs::path dir =
      fs::temp_directory_path() / ("harness_bench_csv_" + std::to_string(getpid()));
  fs::create_directories(dir);
  for (auto _ : state) {
    std::vector<std::unique_ptr<harness::RewrittenFile>> sinks;
    sinks.push_back(std::make_unique<harness::SummaryCsv>(dir.string()));
    sinks.push_back(std::make_unique<harness::PointsCsv>(dir.string()));
    sinks.push_back(std::make_unique<harness::AggregatesCsv>(dir.string(), harness::Estimator{}));
    std::vector<harness::TrialRun> all;
    for (const harness::TrialRun& record : records) {
      all.push_back(record);
      for (auto& sink : sinks) {
        if (!every_trial) {
          sink->record_added(record, all);
        } else if (const std::string text = sink->contents(all); !text.empty()) {
          harness::write_file_atomically((dir / "every_trial.csv").string(), text);
        }
      }
    }
    for (auto& sink : sinks) sink->sweep_ended(all);
  }
  fs::remove_all(dir);
  state.SetComplexityN(state.range(0));
  state.counters["per_trial"] = benchmark::Counter(
      static_cast<double>(trials),
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void register_benchmarks() {
  register_fusion("autoencoder", Json{{"hidden", {10, 3}}});
  register_fusion("lstm", Json{{"hidden_size", 32}, {"latent_size", 8}});
  register_fusion(
      "transformer",
      Json{{"d_model", 32}, {"heads", 4}, {"layers", 1}, {"feedforward", 64}, {"latent_size", 8}});
  benchmark::RegisterBenchmark("sampler/epoch_indices", sampler_epoch)
      ->Arg(10000)
      ->Arg(1000000)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RegisterBenchmark("lr_schedule/at", lr_schedule);
  std::vector<fs::path> experiments;
  for (const auto& entry : fs::directory_iterator(fs::path(HARNESS_SOURCE_DIR) / "experiments"))
    if (entry.path().extension() == ".json") experiments.push_back(entry.path());
  std::sort(experiments.begin(), experiments.end());
  for (const auto& path : experiments) register_experiment(path);
  benchmark::RegisterBenchmark("results/append_fsync", results_append)
      ->Unit(benchmark::kMicrosecond);
  // The old way only up to 500 trials: it takes minutes beyond (quadratic).
  for (const bool every_trial : {false, true}) {
    auto* b = benchmark::RegisterBenchmark(
        every_trial ? "results/csv_sinks_rewrite_every_trial" : "results/csv_sinks", csv_sinks,
        every_trial);
    for (const int trials : {250, 500, 1000, 2000})
      if (!every_trial || trials <= 500) b->Arg(trials);
    b->Complexity()->Unit(benchmark::kMillisecond)->Iterations(1);
  }
}

}  // namespace

int main(int argc, char** argv) {
  // Validation asks plugins about their parameters; the mpi plugin needs MPI up.
  MPI_Init(&argc, &argv);
  benchmark::Initialize(&argc, argv);
  torch::set_num_threads(1);
  register_benchmarks();
  benchmark::RunSpecifiedBenchmarks();
  MPI_Finalize();
  return 0;
}

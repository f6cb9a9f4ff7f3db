// One training step per model plugin at world 1 (forward, backward, bucket pack, allreduce
// through the mpi plugin, unpack, optimizer), exactly as a train trial's timing phase runs it,
// beside the same model stepped by a bare LibTorch loop (forward, MSE, backward, Adam) on the
// same data: the harness-over-bare time ratio says what the harness costs per step. The
// autoencoder and the Transformer are also stepped as TorchScript files of the same
// architecture (build/models, exported at build time) through the torchscript plugin: the
// torchscript-over-harness ratio is the cost of the indirection.
// Run by scripts/benchmark models (one process; MPI starts as a singleton). On a GPU machine,
// HARNESS_BENCH_BACKEND=nccl runs both sides on the GPU (scripts/gpu_check).
#include <mpi.h>
#include <torch/cuda.h>
#include <torch/torch.h>

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "data/data_cache.h"
#include "loader/plugin_call.h"
#include "loader/plugin_registry.h"
#include "paired_ratio_reporter.h"
#include "run/trial_kinds.h"
#include "spec/experiment.h"
#include "spec/model_params.h"
#include "spec/train_settings.h"
#include "spec/trial_expansion.h"
#include "train/data_tensor.h"
#include "train/gradient_reducer.h"
#include "train/model_factory.h"
#include "train/train_loop.h"
#include "train/training_setup.h"
#include "trial/backend_join.h"
#include "mpi/mpi_runtime.h"

namespace {

using harness::Json;

// The models and batch sizes measured: the tutorial's autoencoder on tabular data, the sequence
// models on windows of a synthetic series, each at a small and a large batch.
constexpr const char* kExperiment = R"({
  "name": "model_step_benchmark",
  "seed": 1,
  "kind": "train",
  "settings": {"backend": "mpi", "optimizer": {"name": "adam", "lr": 0.001}, "epochs": 1},
  "sweep": {
    "model, model_params, dataset": [
      ["autoencoder", {"hidden": [10, 3], "activation": "relu"},
       {"kind": "synthetic", "rows": 4096, "dim": 20}],
      ["lstm", {"hidden_size": 32, "latent_size": 8},
       {"kind": "synthetic_series", "length": 4096, "dim": 4, "window": 16, "stride": 1}],
      ["transformer", {"d_model": 32, "heads": 4, "layers": 1, "feedforward": 64, "latent_size": 8},
       {"kind": "synthetic_series", "length": 4096, "dim": 4, "window": 16, "stride": 1}]
    ],
    "batch_size": [32, 256]
  }
})";

struct Process {
  harness::PluginRegistry plugins =
      harness::PluginRegistry::discover(harness::plugin_search_path({}));
  harness::DataCache data;
  harness::TrialContext context{MPI_COMM_WORLD, 0, 1, &plugins, &data};
};

// A train trial's objects, built once and stepped by the harness benchmark.
struct HarnessStep {
  HarnessStep(const harness::TrainSettings& settings, std::uint64_t seed, Process& process)
      : backend(harness::join_backend(process.context, settings.backend, settings.backend_params,
                                      harness::plugin::DType::kFloat32,
                                      torch::cuda::is_available())),
        setup(checked_setup(settings, seed, process)),
        reducer(setup.model->parameters(), harness::reducer_options(settings, process.context.rank,
                                                          process.context.size),
                *backend.communicator, nullptr),
        buffers(setup.model->buffers(), settings.broadcast_buffers, *backend.communicator,
                reducer.fault()),
        loop(settings, seed, process.context, setup, {reducer, nullptr, &buffers, nullptr}) {}

  harness::TrainingSetup checked_setup(const harness::TrainSettings& settings, std::uint64_t seed,
                                       Process& process) {
    if (backend.problem.any()) throw std::runtime_error(backend.problem.reason);
    return harness::set_up_training(settings, seed, process.context, backend);
  }

  harness::JoinedBackend backend;
  harness::TrainingSetup setup;
  harness::GradientReducer reducer;
  harness::BufferSync buffers;
  harness::TrainingLoop loop;
};

// The same model (a fresh instance, same seed) and data, stepped by plain LibTorch.
struct BareStep {
  BareStep(const harness::TrainSettings& settings, const harness::TrainingSetup& harness_setup)
      : model(on_device(
            harness::create_model(
                *harness_setup.model_plugin,
                harness::model_params_for(settings.model_params, harness_setup.data->features,
                                          harness_setup.data->window)),
            harness_setup.device)),
        data(as_batches(harness_setup, settings.batch_size)),
        optimizer(model->parameters(), torch::optim::AdamOptions(settings.optimizer.lr)) {}

  static std::shared_ptr<harness::plugin::Model> on_device(
      std::shared_ptr<harness::plugin::Model> model, const c10::Device& device) {
    harness::throw_if_failed(model->to_device(device), "model to_device");
    return model;
  }

  static std::vector<at::Tensor> as_batches(const harness::TrainingSetup& setup,
                                            std::size_t batch) {
    auto all = harness::as_tensor(setup.data->train, setup.device);
    std::vector<at::Tensor> batches;
    for (int64_t start = 0; start + static_cast<int64_t>(batch) <= all.size(0);
         start += static_cast<int64_t>(batch))
      batches.push_back(all.narrow(0, start, static_cast<int64_t>(batch)).contiguous());
    return batches;
  }

  void step() {
    const at::Tensor& x = data[next++ % data.size()];
    at::Tensor reconstruction;
    harness::throw_if_failed(model->forward(x, &reconstruction), "model forward");
    auto loss = torch::mse_loss(reconstruction, x);
    optimizer.zero_grad();
    loss.backward();
    optimizer.step();
    // The harness step waits for its loss (it reads the reduced value); so does this one.
    if (x.is_cuda()) torch::cuda::synchronize();
  }

  std::shared_ptr<harness::plugin::Model> model;
  std::vector<at::Tensor> data;
  torch::optim::Adam optimizer;
  std::size_t next = 0;
};

Process& process() {
  static Process instance;
  return instance;
}

// One sweep point's two steps, built on first use (the benchmark functions run many times).
struct Rig {
  harness::TrainSettings settings;
  std::uint64_t seed = 0;
  bool with_bare = true;  // the scripted twin needs no bare loop of its own
  std::unique_ptr<HarnessStep> harness;
  std::unique_ptr<BareStep> bare;

  void build() {
    if (harness) return;
    torch::manual_seed(seed);
    harness = std::make_unique<HarnessStep>(settings, seed, process());
    if (!with_bare) return;
    torch::manual_seed(seed);
    bare = std::make_unique<BareStep>(settings, harness->setup);
  }
};

// Cleared before MPI_Finalize: the mpi plugin's communicator frees MPI objects.
std::vector<std::unique_ptr<Rig>>& rigs() {
  static std::vector<std::unique_ptr<Rig>> all;
  return all;
}

void count_samples(benchmark::State& state, std::size_t batch) {
  state.counters["samples_per_s"] =
      benchmark::Counter(static_cast<double>(batch) * static_cast<double>(state.iterations()),
                         benchmark::Counter::kIsRate);
}

template <class Step>
void register_step(const std::string& name, Rig* rig, Step step) {
  benchmark::RegisterBenchmark(name.c_str(), [rig, step](benchmark::State& state) {
    rig->build();
    for (auto _ : state) step(*rig);
    count_samples(state, rig->settings.batch_size);
  })->Unit(benchmark::kMicrosecond);
}

Rig* new_rig(const harness::Trial& trial) {
  rigs().push_back(std::make_unique<Rig>());
  Rig* rig = rigs().back().get();
  rig->settings = harness::parse_train_settings(trial.settings);
  rig->seed = trial.seed;
  return rig;
}

// The built-in model's TorchScript twin, when the build exported one.
void register_scripted_twin(const harness::Trial& trial, const std::string& prefix,
                            const std::string& suffix) {
  const std::string model = trial.settings["model"].get<std::string>();
  const std::string path = std::string(HARNESS_MODEL_DIR) + "/" + model + ".pt";
  if (model == "lstm" || !std::filesystem::exists(path)) return;
  harness::Trial scripted = trial;
  scripted.settings["model"] = "torchscript";
  scripted.settings["model_params"] = {{"path", path}};
  Rig* rig = new_rig(scripted);
  rig->with_bare = false;
  register_step(prefix + "/torchscript" + suffix, rig,
                [](Rig& r) { r.harness->loop.timing_step(); });
}

void register_trial(const harness::Trial& trial) {
  Rig* rig = new_rig(trial);
  const std::string prefix = "train_step/" + rig->settings.model;
  const std::string suffix = "/batch:" + std::to_string(rig->settings.batch_size);
  register_step(prefix + "/harness" + suffix, rig, [](Rig& r) { r.harness->loop.timing_step(); });
  register_step(prefix + "/bare" + suffix, rig, [](Rig& r) { r.bare->step(); });
  register_scripted_twin(trial, prefix, suffix);
}

}  // namespace

int main(int argc, char** argv) {
  int provided = 0;  // as the harness starts (overlap's communication thread needs it)
  MPI_Init_thread(&argc, &argv, harness::kThreadLevelWithOverlap, &provided);
  benchmark::Initialize(&argc, argv);
  torch::set_num_threads(1);
  std::vector<std::string> overrides;
  if (const char* backend = std::getenv("HARNESS_BENCH_BACKEND"))
    overrides.push_back(std::string("settings.backend=\"") + backend + "\"");
  const auto experiment = harness::parse_experiment(kExperiment, "model_step_benchmark", overrides,
                                                    harness::trial_kind_schemas());
  for (const auto& trial : harness::expand_trials(experiment)) register_trial(trial);
  harness::bench::PairedRatioReporter reporter(
      {{"harness", "bare", "target: ratio <= 1.05"},
       {"torchscript", "harness",
        "the TorchScript file against the built-in plugin of the same "
        "architecture, both through the harness; target: ratio <= 1.10"}});
  benchmark::RunSpecifiedBenchmarks(&reporter);
  rigs().clear();
  MPI_Finalize();
  return 0;
}

#include "train/training_setup.h"

#include <torch/torch.h>

#include <stdexcept>

#include "data/data_cache.h"
#include "loader/plugin_call.h"
#include "mpi/trial_groups.h"
#include "spec/model_params.h"
#include "train/model_factory.h"
#include "train/model_objective.h"

namespace harness {

TrainingSetup set_up_training(const TrainSettings& settings, std::uint64_t seed,
                              const TrialContext& context, const JoinedBackend& backend) {
  TrainingSetup setup;
  setup.model_plugin = context.plugins->find(plugin::PluginKind::kModel, settings.model);
  if (!setup.model_plugin)
    throw std::runtime_error(
        "model plugin not found on this rank (check --plugin-dir on every host)");
  setup.data = &context.data->get(settings.dataset, settings.train_on_normal_only);
  torch::manual_seed(seed);
  setup.model = create_model(
      *setup.model_plugin,
      model_params_for(settings.model_params, setup.data->features, setup.data->window));
  if (backend.on_cuda) setup.device = c10::Device(c10::kCUDA, local_rank(context.comm));
  throw_if_failed(setup.model->to_device(setup.device), "model to device");
  return setup;
}

Json describe_model(const TrainingSetup& setup) {
  return {{"name", setup.model_plugin->name},
          {"version", setup.model_plugin->version},
          {"parameters", parameter_count(*setup.model)},
          {"objective", describe_objective(*setup.model)}};
}

Json describe_data(const DataSplit& data) {
  return {{"description", data.description}, {"features", data.features},
          {"window", data.window},           {"train_rows", data.train.rows()},
          {"test_rows", data.test.rows()},   {"test_anomalies", data.test.anomalies()}};
}

}  // namespace harness

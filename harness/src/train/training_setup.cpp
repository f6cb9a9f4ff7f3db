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

ModelRecord describe_model(const TrainingSetup& setup) {
  ModelRecord model;
  model.name = setup.model_plugin->name;
  model.version = setup.model_plugin->version;
  model.parameters = static_cast<long long>(parameter_count(*setup.model));
  model.objective = describe_objective(*setup.model);
  return model;
}

DataRecord describe_data(const DataSplit& data) {
  DataRecord out;
  out.description = data.description;
  out.features = static_cast<long long>(data.features);
  out.window = static_cast<long long>(data.window);
  out.train_rows = static_cast<long long>(data.train.rows());
  out.test_rows = static_cast<long long>(data.test.rows());
  out.test_anomalies = static_cast<long long>(data.test.anomalies());
  return out;
}

}  // namespace harness

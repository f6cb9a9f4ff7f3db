#include "train/train_validation.h"

#include <torch/torch.h>

#include <algorithm>
#include <stdexcept>

#include "common/human_units.h"
#include "data/data_cache.h"
#include "loader/plugin_call.h"
#include "loader/plugin_capabilities.h"
#include "mpi/deadline.h"
#include "spec/model_params.h"
#include "train/data_tensor.h"
#include "train/model_factory.h"
#include "train/model_objective.h"
#include "trial/plugin_validation.h"

namespace harness {
namespace {

const DataSplit* load_or_report(const TrainSettings& settings, ValidationContext& context) {
  try {
    return &context.data.get(settings.dataset, settings.train_on_normal_only);
  } catch (const SettingError& e) {
    context.add(e);
  } catch (const InputError& e) {
    context.errors.add(e.what());  // a file problem, named by file:line
  }
  return nullptr;
}

bool input_kinds_match(const TrainSettings& settings, const PluginHandle& model,
                       const DataSplit& split, ValidationContext& context) {
  const auto takes = model_capabilities(model).input_kind;
  const auto data_kind =
      split.sequence ? plugin::InputKind::kSequence : plugin::InputKind::kTabular;
  if (takes == data_kind || takes == plugin::InputKind::kAny) return true;
  context.add(
      "model",
      "model \"" + model.name + "\" takes " + plugin::input_kind_name(takes) +
          " input but data set kind \"" + dataset_kind_name(settings.dataset.kind) + "\" is " +
          plugin::input_kind_name(data_kind) +
          (split.sequence ? " (windows); use a sequence model such as lstm or transformer"
                          : "; use a tabular model such as autoencoder, or a series data set"));
  return false;
}

// What the host trains: fp32 parameters, at least one.
void check_parameters(plugin::Model& model) {
  const auto parameters = model.parameters();
  if (parameters.empty())
    throw std::runtime_error("the model has no trainable parameter; there is nothing to train");
  for (std::size_t i = 0; i < parameters.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (parameters[j].unsafeGetTensorImpl() == parameters[i].unsafeGetTensorImpl())
        throw std::runtime_error("parameter " + std::to_string(i) + " is parameter " +
                                 std::to_string(j) +
                                 " again (a tied weight): the model must list each tensor once, "
                                 "or its gradient is reduced twice");
    if (parameters[i].scalar_type() != torch::kFloat32)
      throw std::runtime_error("parameter " + std::to_string(i) + " of shape " +
                               shape_text(parameters[i]) + " is " +
                               std::string(c10::toString(parameters[i].scalar_type())) +
                               "; the harness trains fp32 parameters");
  }
}

// One training-mode loss and one eval-mode scoring on a few rows of the data set, as the
// trial will compute them: a model that cannot take the data's shape fails here, named.
// The data set's first rows; zeros of its shape under --dry-run, which only shapes it.
at::Tensor validation_batch(const DataSplit& split) {
  constexpr int64_t kRows = 4;
  if (split.train.rows() > 0) {
    const auto all = as_tensor(split.train, c10::kCPU);
    return all.narrow(0, 0, std::min<int64_t>(kRows, all.size(0)));
  }
  std::vector<int64_t> shape{kRows};
  if (split.sequence) shape.push_back(static_cast<int64_t>(split.window));
  shape.push_back(static_cast<int64_t>(split.features));
  return torch::zeros(shape);
}

void check_forward(plugin::Model& model, const DataSplit& split, Deadline& deadline) {
  const auto batch = validation_batch(split);
  const plugin::ModelObjective objective = model.objective();
  try {
    deadline.set_activity(objective.own_loss ? "forward() or loss() in training mode"
                                             : "forward() in training mode");
    training_loss(model, batch);  // with autograd: a loss without gradient is named here
    torch::NoGradGuard no_grad;
    throw_if_failed(model.set_training(false), "model eval mode");
    deadline.set_activity(objective.own_score ? "score() in evaluation mode"
                                              : "forward() in evaluation mode");
    sample_scores(model, batch);
  } catch (const std::exception& e) {
    throw std::runtime_error("on a batch of the data set's shape " + shape_text(batch) + ": " +
                             e.what());
  }
}

// 'model "torchscript" (/path/model.pt)': which module a message is about.
std::string model_label(const TrainSettings& settings) {
  std::string label = "model \"" + settings.model + "\"";
  const Json* path =
      settings.model_params.is_object() ? find_path(settings.model_params, "path") : nullptr;
  if (path && path->is_string()) label += " (" + path->get<std::string>() + ")";
  return label;
}

// The model accepts its parameters and the data: it is built once per distinct configuration.
void check_model(const TrainSettings& settings, const PluginHandle& model, const DataSplit& split,
                 ValidationContext& context) {
  if (!input_kinds_match(settings, model, split, context)) return;
  try {
    Deadline deadline(context.timeout_s, model_label(settings));
    deadline.set_activity("loading the model");
    auto created =
        create_model(model, model_params_for(settings.model_params, split.features, split.window));
    check_parameters(*created);
    check_forward(*created, split, deadline);
  } catch (const SettingError& e) {
    context.add(e);
  } catch (const std::exception& e) {
    // A plugin's message about its parameters starts with their pointer, which stays first.
    const std::string text = e.what();
    context.add_inside("model_params",
                       text.rfind('/', 0) == 0 ? text : model_label(settings) + ": " + text);
  }
}

// A setting the trial's choices do not read would be silently ignored: the data set kind's
// fields, and sgd's momentum.
void check_settings_read(const TrainSettings& settings, ValidationContext& context) {
  const Json* dataset = find_path(context.given, "dataset");
  const auto read = dataset_fields_read(settings.dataset);
  const std::string kind = dataset_kind_name(settings.dataset.kind);
  if (dataset && dataset->is_object())
    for (const auto& field : dataset->items())
      if (field.key() != "kind" && std::find(read.begin(), read.end(), field.key()) == read.end())
        context.add(
            "dataset." + field.key(),
            "data set kind \"" + kind + "\"" +
                (settings.dataset.kind == DatasetKind::kCsv && !settings.dataset.test_path.empty()
                     ? " with a test_path"
                     : "") +
                " does not read it (it reads " + human_list(read) + "); remove it");
  if (context.is_given("optimizer.momentum") && settings.optimizer.kind != OptimizerKind::kSgd)
    context.add("optimizer.momentum",
                "only optimizer sgd reads it, and this trial's optimizer is adam; remove it");
}

// The untimed steps opening the timing phase are not bounded by max_steps (training's) or
// min_time_s; more of them than the phase may time is a mistake that would run for hours.
void check_warmup_steps(const TrainSettings& settings, ValidationContext& context) {
  if (settings.warmup_steps > settings.max_timing_steps)
    context.add("warmup_steps", "expected at most max_timing_steps (" +
                                    std::to_string(settings.max_timing_steps) +
                                    ", the most steps the timing phase times), got " +
                                    std::to_string(settings.warmup_steps));
}

}  // namespace

void validate_train_trial(const TrainSettings& settings, ValidationContext& context) {
  check_settings_read(settings, context);
  check_warmup_steps(settings, context);
  const auto communicators = check_backend(context, settings.backend, settings.backend_params);
  check_compression(context, communicators, settings.compression);
  if (settings.strategy == Strategy::kSharded)
    check_offered(context, "strategy", settings.backend, communicators,
                  {plugin::Collective::kReduceScatter, plugin::Collective::kAllgather},
                  ", which strategy sharded runs on; use strategy ddp or a backend that offers "
                  "both");
  const PluginHandle* model =
      find_plugin_or_report(context, plugin::PluginKind::kModel, "model", settings.model);
  const DataSplit* split = load_or_report(settings, context);
  const std::string configuration =
      context.part.pointer + " model " + settings.model + settings.model_params.dump() +
      dataset_identity(settings.dataset) + (settings.train_on_normal_only ? "normal" : "all");
  if (model && split && context.first_time(configuration))
    check_model(settings, *model, *split, context);
}

}  // namespace harness

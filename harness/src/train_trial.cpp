#include "train_trial.h"

#include <torch/torch.h>

#include <chrono>
#include <cmath>
#include <deque>
#include <numeric>

#include "communicator_factory.h"
#include "data_cache.h"
#include "detection_metrics.h"
#include "distributed_sampler.h"
#include "fusion_buffer.h"
#include "lr_schedule.h"
#include "model_factory.h"
#include "mpi_runtime.h"
#include "series_data.h"
#include "trial_record.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;
using plugin::Status;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void check(const Status& status, const char* what) {
  if (!status.is_ok()) throw std::runtime_error(std::string(what) + ": " + status.message());
}

// Everything a trial builds before its first step.
struct TrainingSetup {
  const DataSplit* data = nullptr;
  const PluginHandle* model_plugin = nullptr;
  const PluginHandle* backend_plugin = nullptr;
  std::shared_ptr<plugin::Model> model;
  std::shared_ptr<plugin::Communicator> communicator;
  torch::Device device = torch::kCPU;
};

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const Json& options,
                                                        std::vector<at::Tensor> parameters,
                                                        double lr) {
  const std::string name = options["name"].get<std::string>();
  const double weight_decay = options["weight_decay"].get<double>();
  if (name == "sgd")
    return std::make_unique<torch::optim::SGD>(
        parameters, torch::optim::SGDOptions(lr)
                        .momentum(options["momentum"].get<double>())
                        .weight_decay(weight_decay));
  return std::make_unique<torch::optim::Adam>(
      parameters, torch::optim::AdamOptions(lr).weight_decay(weight_decay));
}

void set_lr(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

// All samples as one tensor [rows, sample_shape...] on device.
torch::Tensor as_tensor(const TabularData& data, const torch::Device& device) {
  std::vector<int64_t> shape{static_cast<int64_t>(data.rows())};
  shape.insert(shape.end(), data.sample_shape.begin(), data.sample_shape.end());
  return torch::from_blob(const_cast<float*>(data.values.data()), shape, torch::kFloat32).to(device);
}

// Per-sample mean squared reconstruction error, in batches, without gradients.
std::vector<double> anomaly_scores(plugin::Model& model, const TabularData& data,
                                   const torch::Device& device) {
  torch::NoGradGuard no_grad;
  check(model.set_training(false), "model eval mode");
  auto all = as_tensor(data, device);
  std::vector<double> scores;
  scores.reserve(data.rows());
  for (int64_t start = 0; start < all.size(0); start += 4096) {
    auto x = all.narrow(0, start, std::min<int64_t>(4096, all.size(0) - start));
    at::Tensor reconstruction;
    check(model.forward(x, &reconstruction), "model forward");
    auto errors =
        (reconstruction - x).pow(2).flatten(1).mean(1).to(torch::kCPU, torch::kFloat64).contiguous();
    scores.insert(scores.end(), errors.data_ptr<double>(), errors.data_ptr<double>() + errors.numel());
  }
  check(model.set_training(true), "model train mode");
  return scores;
}

std::vector<double> zscore_scores(const TabularData& data) {
  std::vector<double> scores(data.rows(), 0.0);
  for (std::size_t r = 0; r < data.rows(); ++r) {
    for (std::size_t c = 0; c < data.cols; ++c) scores[r] += data.values[r * data.cols + c] * data.values[r * data.cols + c];
    scores[r] /= static_cast<double>(data.cols);
  }
  return scores;
}

Json json_or_null(const std::optional<double>& value) { return value ? Json(*value) : Json(); }

std::uint64_t parameter_hash(FusionBuffer& fusion) {
  fusion.pack_values();
  auto values = fusion.flat().narrow(0, 0, static_cast<int64_t>(fusion.gradient_elements()))
                    .to(torch::kCPU)
                    .contiguous();
  return fnv1a64(values.data_ptr(), static_cast<std::size_t>(values.numel()) * sizeof(float));
}

Json detection_metrics(const std::vector<double>& test_scores, const std::vector<int>& labels,
                       const std::vector<double>& train_scores, double threshold_percentile) {
  Json out = Json::object();
  const auto roc = auroc(test_scores, labels);
  const auto pr = auprc(test_scores, labels);
  const auto best = best_f1(test_scores, labels);
  out["auroc"] = json_or_null(roc);
  out["auprc"] = json_or_null(pr);
  out["best_f1"] = best ? Json(best->f1) : Json();
  out["best_f1_threshold"] = best ? Json(best->threshold) : Json();
  const double threshold = percentile(train_scores, threshold_percentile);
  const F1Result at = f1_at(test_scores, labels, threshold);
  out["threshold_percentile"] = threshold_percentile;
  out["threshold"] = threshold;
  out["f1_at_threshold"] = at.f1;
  out["precision_at_threshold"] = at.precision;
  out["recall_at_threshold"] = at.recall;
  return out;
}

TrainingSetup set_up(const Trial& trial, const TrialContext& context, Json* record) {
  const Json& s = trial.settings;
  TrainingSetup setup;
  setup.model_plugin = context.plugins->find(plugin::PluginKind::kModel, s["model"]);
  setup.backend_plugin =
      context.plugins->find(plugin::PluginKind::kCommunicator, s["backend"]);
  if (!setup.model_plugin || !setup.backend_plugin)
    throw std::runtime_error("plugin not found on this rank (check --plugin-dir on every host)");

  setup.data = &context.data->get(s["dataset"], s["train_on"].get<std::string>());
  torch::manual_seed(trial.seed);
  setup.model = create_model(*setup.model_plugin, model_params_for(s["model_params"], *setup.data));
  const auto capabilities = communicator_capabilities(*setup.backend_plugin);
  if (capabilities.requires_cuda)
    setup.device = torch::Device(torch::kCUDA, local_rank(context.comm));
  check(setup.model->to_device(setup.device), "model to device");
  setup.communicator = join_group(*setup.backend_plugin, s["backend_params"], context.comm);

  (*record)["backend"] = {{"name", setup.backend_plugin->name},
                          {"version", setup.backend_plugin->version},
                          {"algorithm", setup.communicator->describe()}};
  (*record)["model"] = {{"name", setup.model_plugin->name},
                        {"version", setup.model_plugin->version},
                        {"parameters", parameter_count(*setup.model)}};
  (*record)["data"] = {{"description", setup.data->description},
                       {"features", setup.data->features},
                       {"window", setup.data->window},
                       {"train_rows", setup.data->train.rows()},
                       {"test_rows", setup.data->test.rows()},
                       {"test_anomalies", setup.data->test.anomalies()}};
  return setup;
}

}  // namespace

Json run_train_trial(const Trial& trial, const TrialContext& context) {
  const auto trial_start = Clock::now();
  Json record = new_trial_record("train", trial, context.size);
  const Json& s = trial.settings;
  torch::set_num_threads(s["threads"].get<int>());

  // Training reduces fp32 gradients.
  GroupProblem problem = agree_on_problem(
      context.comm,
      backend_problem(context.plugins->find(plugin::PluginKind::kCommunicator, s["backend"]),
                      torch::cuda::is_available(), plugin::DType::kFloat32));
  TrainingSetup setup;
  if (problem.status.empty()) {
    GroupProblem local;
    try {
      setup = set_up(trial, context, &record);
    } catch (const GroupJoinError& e) {
      local = {e.unsupported ? "skipped" : "failed", e.what()};
    } catch (const std::exception& e) {
      local = {"failed", e.what()};
    }
    problem = agree_on_problem(context.comm, local);
  }
  if (!problem.status.empty()) return finish_record(record, problem.status, problem.reason, trial_start);

  GroupProblem local;
  try {
    plugin::Model& model = *setup.model;
    plugin::Communicator& communicator = *setup.communicator;
    FusionBuffer fusion(model.parameters(), /*extra_slots=*/1);

    // Horovod's broadcast_parameters: everyone starts from rank 0's initial weights.
    fusion.pack_values();
    check(communicator.broadcast(fusion.view(), 0), "broadcast");
    check(communicator.synchronize(), "synchronize");
    fusion.unpack_values();

    const DataSplit& data = *setup.data;
    auto train = as_tensor(data.train, setup.device);
    DistributedSampler sampler(data.train.rows(), context.size, context.rank, trial.seed);
    const auto batch = static_cast<std::size_t>(s["batch_size"].get<long long>());
    const std::size_t steps_per_epoch = (sampler.shard_size() + batch - 1) / batch;
    const auto epochs = s["epochs"].get<std::uint64_t>();
    const auto max_steps = s["max_steps"].get<std::uint64_t>();
    const auto warmup_steps = s["warmup_steps"].get<std::uint64_t>();
    const auto lr_warmup_steps = static_cast<std::uint64_t>(
        std::llround(s["lr_warmup_epochs"].get<double>() * steps_per_epoch));
    const double base_lr = s["optimizer"]["lr"].get<double>();
    const LrSchedule schedule(base_lr, parse_lr_rule(s["lr_rule"]), context.size, lr_warmup_steps);
    auto optimizer = make_optimizer(s["optimizer"], model.parameters(), schedule.at(0));
    const Json target = s["target_loss"];

    std::vector<double> step_losses, epoch_losses;
    double compute_s = 0, allreduce_s = 0, optimizer_s = 0;
    std::uint64_t step = 0, timed_steps = 0, timed_samples = 0, steps_to_target = 0;
    double time_to_target = -1, window_sum = 0;
    std::deque<double> window;
    std::string status = "ok", reason;
    const auto training_start = Clock::now();

    for (std::uint64_t epoch = 0; epoch < epochs && status == "ok"; ++epoch) {
      if (max_steps && step >= max_steps) break;
      sampler.set_epoch(epoch);
      const auto shard = sampler.indices();
      auto order = torch::from_blob(const_cast<std::size_t*>(shard.data()),
                                    {static_cast<int64_t>(shard.size())}, torch::kInt64)
                       .to(setup.device);
      double epoch_loss = 0;
      std::size_t epoch_steps = 0;
      for (std::size_t start = 0; start < shard.size(); start += batch) {
        if (max_steps && step >= max_steps) break;
        const auto rows = static_cast<int64_t>(std::min(batch, shard.size() - start));
        const auto t0 = Clock::now();
        auto x = train.index_select(0, order.narrow(0, static_cast<int64_t>(start), rows));
        at::Tensor reconstruction;
        check(model.forward(x, &reconstruction), "model forward");
        auto loss = torch::mse_loss(reconstruction, x);
        optimizer->zero_grad();
        loss.backward();
        fusion.pack_gradients();
        fusion.set_extra(0, loss);
        const auto t1 = Clock::now();
        check(communicator.allreduce(fusion.view(), {plugin::ReduceOp::kAvg, nullptr}),
              "allreduce");
        check(communicator.synchronize(), "synchronize");
        const auto t2 = Clock::now();
        fusion.unpack_gradients();
        const double global_loss = fusion.extra(0);  // mean of the ranks' batch losses
        set_lr(*optimizer, schedule.at(step));
        optimizer->step();
        const auto t3 = Clock::now();

        ++step;
        if (step > warmup_steps) {
          compute_s += seconds_between(t0, t1);
          allreduce_s += seconds_between(t1, t2);
          optimizer_s += seconds_between(t2, t3);
          ++timed_steps;
          timed_samples += static_cast<std::uint64_t>(rows);
        }
        step_losses.push_back(global_loss);
        if (!std::isfinite(global_loss)) {  // every rank sees the same reduced value
          status = "diverged";
          reason = "global loss became " + std::to_string(global_loss) + " at step " +
                   std::to_string(step);
          break;
        }
        epoch_loss += global_loss;
        ++epoch_steps;
        window.push_back(global_loss);
        window_sum += global_loss;
        if (window.size() > 10) {
          window_sum -= window.front();
          window.pop_front();
        }
        if (!target.is_null() && time_to_target < 0 &&
            window_sum / window.size() <= target.get<double>()) {
          steps_to_target = step;
          time_to_target = seconds_between(training_start, Clock::now());
        }
      }
      if (epoch_steps) epoch_losses.push_back(epoch_loss / epoch_steps);
    }
    const double train_seconds = seconds_between(training_start, Clock::now());

    // Bit-identical parameters on every rank, or the averaging is broken.
    std::uint64_t hash = parameter_hash(fusion);
    std::vector<std::uint64_t> hashes(static_cast<std::size_t>(context.size));
    check_mpi(MPI_Allgather(&hash, 1, MPI_UINT64_T, hashes.data(), 1, MPI_UINT64_T, context.comm),
              "MPI_Allgather");
    bool consistent = true;
    for (auto h : hashes) consistent = consistent && h == hashes[0];

    // Per-rank timings, gathered on rank 0.
    const double timed_time = compute_s + allreduce_s + optimizer_s;
    const double per_step = timed_steps ? 1e3 / timed_steps : 0;
    double mine[5] = {timed_time > 0 ? timed_samples / timed_time : 0, compute_s * per_step,
                      allreduce_s * per_step, optimizer_s * per_step, timed_time * per_step};
    std::vector<double> all(5 * static_cast<std::size_t>(context.size));
    check_mpi(MPI_Gather(mine, 5, MPI_DOUBLE, all.data(), 5, MPI_DOUBLE, 0, context.comm),
              "MPI_Gather");

    if (context.rank == 0) {
      Json per_rank = Json::array();
      double total_rate = 0, means[5] = {0, 0, 0, 0, 0};
      for (int r = 0; r < context.size; ++r) {
        per_rank.push_back(all[5 * r]);
        total_rate += all[5 * r];
        for (int k = 1; k < 5; ++k) means[k] += all[5 * r + k] / context.size;
      }
      record["lr"] = {{"base", base_lr}, {"peak", schedule.peak()}, {"warmup_steps", lr_warmup_steps}};
      record["steps"] = step;
      record["timed_steps"] = timed_steps;
      record["steps_per_epoch"] = steps_per_epoch;
      record["epochs_completed"] = epoch_losses.size();
      record["throughput"] = {{"samples_per_s", timed_steps ? Json(total_rate) : Json()},
                              {"samples_per_s_per_rank", per_rank}};
      record["step_time_ms"] = {{"total", means[4]}, {"compute", means[1]},
                                {"allreduce", means[2]}, {"optimizer", means[3]}};
      record["bytes_reduced_per_step"] = fusion.view().bytes();
      record["train_time_s"] = train_seconds;
      record["params_consistent"] = consistent;
      record["param_hash"] = stable_hash(std::to_string(hash));
      record["loss"] = {{"final", epoch_losses.empty() ? Json() : Json(epoch_losses.back())},
                        {"per_epoch", epoch_losses}, {"per_step", step_losses}};
      record["target"] = {{"loss", target},
                          {"reached", time_to_target >= 0},
                          {"steps", time_to_target >= 0 ? Json(steps_to_target) : Json()},
                          {"time_s", time_to_target >= 0 ? Json(time_to_target) : Json()}};
      if (status == "ok") {
        const auto test_scores = anomaly_scores(model, data.test, setup.device);
        const auto train_scores = anomaly_scores(model, data.train, setup.device);
        double normal_sum = 0;
        std::size_t normals = 0;
        for (std::size_t i = 0; i < test_scores.size(); ++i)
          if (!data.test.labels[i]) {
            normal_sum += test_scores[i];
            ++normals;
          }
        record["loss"]["validation"] = normals ? Json(normal_sum / normals) : Json();
        record["detection"] = detection_metrics(test_scores, data.test.labels, train_scores,
                                                s["threshold_percentile"].get<double>());
        // The baseline a model must beat: the mean squared z-score of the sample (the data
        // are standardised with training statistics), no learning at all.
        const auto baseline = zscore_scores(data.test);
        record["detection"]["zscore_auroc"] = json_or_null(auroc(baseline, data.test.labels));
        if (data.sequence) {
          // Window scores spread back onto the points they cover.
          std::vector<int> point_labels;
          const auto points = point_scores(data.test_layout, test_scores, &point_labels);
          record["detection_points"] = detection_metrics(points, point_labels, train_scores,
                                                         s["threshold_percentile"].get<double>());
          const auto baseline_points = point_scores(data.test_layout, baseline, &point_labels);
          record["detection_points"]["zscore_auroc"] = json_or_null(auroc(baseline_points, point_labels));
        }
      }
      if (!consistent && status == "ok") {
        // The metrics stand (they are rank 0's model), but the replicas drifted apart: the
        // backend's reduction is not bitwise identical on every rank.
        status = "inconsistent";
        reason = "parameters differ between ranks after training";
      }
    }
    return finish_record(record, status, reason, trial_start);
  } catch (const std::exception& e) {
    local = {"failed", e.what()};
  }
  return finish_record(record, local.status, local.reason, trial_start);
}

}  // namespace harness

#include "train/train_loop.h"

#include <torch/torch.h>

#include <array>
#include <chrono>
#include <cmath>

#include "metrics/statistics.h"
#include "train/data_tensor.h"
#include "train/distributed_sampler.h"
#include "train/lr_schedule.h"
#include "train/optimizer_factory.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double>(b - a).count();
}

void check(const plugin::Status& status, const char* what) {
  if (!status.is_ok()) throw std::runtime_error(std::string(what) + ": " + status.message());
}

class TrainingLoop {
 public:
  TrainingLoop(const TrainSettings& settings, std::uint64_t seed, const TrialContext& context,
               TrainingSetup& setup, plugin::Communicator& communicator, FusionBuffer& fusion)
      : settings_(settings),
        setup_(setup),
        communicator_(communicator),
        fusion_(fusion),
        train_(as_tensor(setup.data->train, setup.device)),
        sampler_(setup.data->train.rows(), context.size, context.rank, seed),
        schedule_(settings.optimizer.lr, settings.lr_rule, context.size, lr_warmup_steps()),
        optimizer_(make_optimizer(settings.optimizer, setup.model->parameters(), schedule_.at(0))) {
    outcome_.steps_per_epoch = steps_per_epoch();
    outcome_.peak_lr = schedule_.peak();
    outcome_.lr_warmup_steps = lr_warmup_steps();
  }

  TrainOutcome run() {
    started_ = Clock::now();
    for (std::uint64_t epoch = 0; epoch < settings_.epochs && running(); ++epoch) run_epoch(epoch);
    outcome_.train_seconds = seconds_between(started_, Clock::now());
    return outcome_;
  }

 private:
  std::size_t steps_per_epoch() const {
    return (sampler_.shard_size() + settings_.batch_size - 1) / settings_.batch_size;
  }
  std::uint64_t lr_warmup_steps() const {
    return static_cast<std::uint64_t>(
        std::llround(settings_.lr_warmup_epochs * static_cast<double>(steps_per_epoch())));
  }
  bool running() const {
    const bool budget_left = !settings_.max_steps || outcome_.steps < settings_.max_steps;
    return outcome_.status == TrialStatus::kOk && budget_left;
  }

  void run_epoch(std::uint64_t epoch) {
    sampler_.set_epoch(epoch);
    auto shard = sampler_.indices();
    const auto order =
        torch::from_blob(shard.data(), {static_cast<int64_t>(shard.size())}, torch::kInt64)
            .to(setup_.device);
    double loss_sum = 0;
    std::size_t steps = 0;
    for (std::size_t start = 0; start < shard.size() && running(); start += settings_.batch_size) {
      const auto rows = static_cast<int64_t>(std::min(settings_.batch_size, shard.size() - start));
      const double loss = step(order.narrow(0, static_cast<int64_t>(start), rows), rows);
      if (!std::isfinite(loss)) break;
      loss_sum += loss;
      ++steps;
    }
    if (steps) outcome_.epoch_losses.push_back(loss_sum / static_cast<double>(steps));
  }

  // One step; returns the global loss (the mean of the ranks' batch losses).
  double step(const at::Tensor& indices, int64_t rows) {
    const auto t0 = Clock::now();
    auto x = train_.index_select(0, indices);
    at::Tensor reconstruction;
    check(setup_.model->forward(x, &reconstruction), "model forward");
    auto loss = torch::mse_loss(reconstruction, x);
    optimizer_->zero_grad();
    loss.backward();
    fusion_.pack_gradients();
    fusion_.set_extra(0, loss);
    const auto t1 = Clock::now();
    check(communicator_.allreduce(fusion_.view(), {plugin::ReduceOp::kAvg, nullptr}), "allreduce");
    check(communicator_.synchronize(), "synchronize");
    const auto t2 = Clock::now();
    fusion_.unpack_gradients();
    const double global_loss = fusion_.extra(0);
    set_lr(*optimizer_, schedule_.at(outcome_.steps));
    optimizer_->step();
    const auto t3 = Clock::now();
    ++outcome_.steps;
    if (outcome_.steps > settings_.warmup_steps) time_step({t0, t1, t2, t3}, rows);
    record_loss(global_loss);
    return global_loss;
  }

  void time_step(const std::array<Clock::time_point, 4>& t, int64_t rows) {
    outcome_.phases.compute_s += seconds_between(t[0], t[1]);
    outcome_.phases.allreduce_s += seconds_between(t[1], t[2]);
    outcome_.phases.optimizer_s += seconds_between(t[2], t[3]);
    ++outcome_.timed_steps;
    outcome_.timed_samples += static_cast<std::uint64_t>(rows);
  }

  // Every rank sees the same reduced loss, so every rank takes the same branch here.
  void record_loss(double global_loss) {
    outcome_.step_losses.push_back(global_loss);
    if (!std::isfinite(global_loss)) {
      outcome_.status = TrialStatus::kDiverged;
      outcome_.reason = "global loss became " + std::to_string(global_loss) + " at step " +
                        std::to_string(outcome_.steps);
      return;
    }
    recent_.add(global_loss);
    if (settings_.target_loss && !outcome_.steps_to_target &&
        recent_.value() <= *settings_.target_loss) {
      outcome_.steps_to_target = outcome_.steps;
      outcome_.seconds_to_target = seconds_between(started_, Clock::now());
    }
  }

  const TrainSettings& settings_;
  TrainingSetup& setup_;
  plugin::Communicator& communicator_;
  FusionBuffer& fusion_;
  at::Tensor train_;
  DistributedSampler sampler_;
  LrSchedule schedule_;
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  MovingMean recent_{10};  // the target is judged on the 10-step moving mean
  TrainOutcome outcome_;
  Clock::time_point started_;
};

}  // namespace

TrainOutcome run_training(const TrainSettings& settings, std::uint64_t seed,
                          const TrialContext& context, TrainingSetup& setup,
                          plugin::Communicator& communicator, FusionBuffer& fusion) {
  return TrainingLoop(settings, seed, context, setup, communicator, fusion).run();
}

}  // namespace harness

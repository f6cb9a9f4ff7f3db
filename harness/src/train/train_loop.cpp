#include "train/train_loop.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>

#include "common/seconds_between.h"
#include "mpi/max_over_ranks.h"
#include "mpi/watchdog.h"
#include "train/data_tensor.h"
#include "train/flat_parameters.h"
#include "train/model_objective.h"
#include "train/optimizer_factory.h"
#include "train/shard_check.h"
#include "train/sharded_parameters.h"
#include "trial/backend_fault.h"
#include "trial/group_agreement.h"

namespace harness {
namespace {

using Clock = std::chrono::steady_clock;

std::vector<at::Tensor> optimized(const StepParts& parts, const std::vector<at::Tensor>& model) {
  if (parts.sharded) return parts.sharded->master_shards();
  if (parts.flat) return parts.flat->pieces();
  return model;
}

}  // namespace

struct TrainingLoop::StepResult {
  double global_loss = 0;  // the mean of the ranks' batch losses
  double compute_s = 0, exposed_comm_s = 0, comm_s = 0, optimizer_s = 0;
  std::int64_t arrival_ns = 0;  // backward ended

  double total_s() const { return compute_s + exposed_comm_s + optimizer_s; }
};

TrainingLoop::TrainingLoop(const TrainSettings& settings, std::uint64_t seed,
                           const TrialContext& context, TrainingSetup& setup,
                           const StepParts& parts)
    : settings_(settings),
      context_(context),
      setup_(setup),
      reducer_(parts.reducer),
      sharded_(parts.sharded),
      buffers_(parts.buffers),
      timeline_(parts.timeline),
      train_(as_tensor(setup.data->train, setup.device)),
      sampler_(setup.data->train.rows(), context.size, context.rank, seed),
      schedule_(settings.optimizer.lr, settings.lr_rule, context.size, lr_warmup_steps()),
      optimizer_(make_optimizer(settings.optimizer, optimized(parts, setup.model->parameters()),
                                schedule_.at(0))) {
  outcome_.steps_per_epoch = steps_per_epoch();
  outcome_.peak_lr = schedule_.peak();
  outcome_.lr_warmup_steps = lr_warmup_steps();
}

TrainingLoop::~TrainingLoop() = default;

std::size_t TrainingLoop::optimizer_state_bytes() const {
  return harness::optimizer_state_bytes(*optimizer_);
}

TrainOutcome TrainingLoop::train() {
  started_ = Clock::now();
  try {
    for (std::uint64_t epoch = 0; epoch < settings_.epochs && running(); ++epoch) run_epoch(epoch);
    // A backend call of the last step that failed after its status went.
    leave_on_fault(context_.comm, reducer_.fault(), context_.watchdog);
  } catch (const GroupFailure& failure) {  // on every rank, at the same step
    outcome_.status = failure.problem().status;
    outcome_.reason = failure.problem().reason;
  }
  outcome_.train_seconds = seconds_between(started_, Clock::now());
  return outcome_;
}

std::size_t TrainingLoop::steps_per_epoch() const {
  return (sampler_.shard_size() + settings_.batch_size - 1) / settings_.batch_size;
}

std::uint64_t TrainingLoop::lr_warmup_steps() const {
  return static_cast<std::uint64_t>(
      std::llround(settings_.lr_warmup_epochs * static_cast<double>(steps_per_epoch())));
}

bool TrainingLoop::running() const {
  const bool budget_left = !settings_.max_steps || outcome_.steps < settings_.max_steps;
  return outcome_.status == TrialStatus::kOk && budget_left;
}

void TrainingLoop::run_epoch(std::uint64_t epoch) {
  sampler_.set_epoch(epoch);
  auto shard = sampler_.indices();
  const auto order =
      torch::from_blob(shard.data(), {static_cast<int64_t>(shard.size())}, torch::kInt64)
          .to(setup_.device);
  const std::size_t losses_before = outcome_.step_losses.size();
  for (std::size_t start = 0; start < shard.size() && running(); start += settings_.batch_size) {
    const auto rows = static_cast<int64_t>(std::min(settings_.batch_size, shard.size() - start));
    train_step(order.narrow(0, static_cast<int64_t>(start), rows));
  }
  // The epoch's loss: the mean of its finite step losses (a diverged step ends the epoch).
  double sum = 0;
  std::size_t steps = 0;
  for (std::size_t i = losses_before; i < outcome_.step_losses.size(); ++i)
    if (std::isfinite(outcome_.step_losses[i])) {
      sum += outcome_.step_losses[i];
      ++steps;
    }
  if (steps) outcome_.epoch_losses.push_back(sum / static_cast<double>(steps));
}

TrainingLoop::StepResult TrainingLoop::run_step(const at::Tensor& indices, double lr) {
  WatchedOperation watched_step(context_.watchdog, "training step", steps_run_, context_.size);
  if (timeline_) timeline_->begin_step(steps_run_);
  const auto t0 = Clock::now();
  // The buffers' broadcast is communication the step waits for, not compute.
  const bool buffers_sent = buffers_ && buffers_->keep_in_step();
  const auto synced = buffers_sent ? Clock::now() : t0;
  auto forward_ended = synced;
  const std::optional<std::string> failure = forward_backward(indices, &forward_ended);
  const auto t1 = Clock::now();
  StepCommunication communication;
  {
    WatchedOperation watched_allreduce(context_.watchdog, "gradient allreduce", steps_run_,
                                       context_.size);
    communication = reducer_.finish_step();
  }
  if (reducer_.any_rank_failed()) leave_failed_step(failure);
  const auto t2 = Clock::now();
  StepResult result;
  result.global_loss = reducer_.global_loss();
  set_lr(*optimizer_, lr);
  optimizer_->step();
  const auto t3 = Clock::now();
  if (sharded_) {
    WatchedOperation watched_allgather(context_.watchdog, "parameter allgather", steps_run_,
                                       context_.size);
    sharded_->gather();
  }
  const auto t4 = Clock::now();
  if (timeline_) {
    if (buffers_sent) timeline_->span(StepTimeline::Lane::kCompute, "buffer broadcast", t0, synced);
    timeline_->span(StepTimeline::Lane::kCompute, "forward", synced, forward_ended);
    timeline_->span(StepTimeline::Lane::kCompute, "backward", forward_ended, t1);
    timeline_->span(StepTimeline::Lane::kCompute, "optimizer", t2, t3);
    if (sharded_) timeline_->span(StepTimeline::Lane::kCompute, "allgather", t3, t4);
  }
  // The parameters' allgather is communication the next forward waits for.
  const double gathered_s = seconds_between(t3, t4);
  result.compute_s = seconds_between(synced, t1);
  result.exposed_comm_s = seconds_between(t0, synced) + seconds_between(t1, t2) + gathered_s;
  result.comm_s = seconds_between(t0, synced) + communication.comm_s + gathered_s;
  result.optimizer_s = seconds_between(t2, t3);
  result.arrival_ns =
      std::chrono::duration_cast<std::chrono::nanoseconds>(t1.time_since_epoch()).count();
  ++steps_run_;
  return result;
}

// This rank's forward and backward; what raised, if anything (the reducer then carries the
// failure to the other ranks).
std::optional<std::string> TrainingLoop::forward_backward(const at::Tensor& indices,
                                                          Clock::time_point* forward_ended) {
  try {
    auto loss = training_loss(*setup_.model, train_.index_select(0, indices));
    *forward_ended = Clock::now();
    if (reducer_.zeroes_gradients())
      reducer_.zero_gradients();
    else
      optimizer_->zero_grad();
    reducer_.begin_step(loss);
    loss.backward();
    return std::nullopt;
  } catch (const std::exception& e) {
    reducer_.fail_step();  // the other ranks are about to reduce: this one takes part
    return e.what();
  }
}

// Every rank learned from the step's allreduce that some rank failed: they agree on whose
// message to keep (the lowest failed rank's) and leave the step together, before the optimizer.
void TrainingLoop::leave_failed_step(const std::optional<std::string>& failure) {
  GroupProblem local = reducer_.fault().problem();
  if (failure) local = {TrialStatus::kFailed, *failure};
  GroupProblem agreed = agree_on_problem(context_.comm, local, context_.watchdog);
  if (!agreed.any())  // the flag came through the allreduce corrupted: still a failure
    agreed = {TrialStatus::kFailed,
              "the gradient allreduce reported a failed rank, and no rank "
              "says it failed (the backend's result is wrong)"};
  agreed.reason += " (step " + std::to_string(steps_run_) + ")";
  throw GroupFailure(agreed);
}

void TrainingLoop::train_step(const at::Tensor& indices) {
  const StepResult step = run_step(indices, schedule_.at(outcome_.steps));
  // Training steps only: the timed steps measure the strategy, not this check.
  if (sharded_)
    if (GroupProblem wrong = check_shards(reducer_, context_.comm, context_.watchdog, steps_run_ - 1);
        wrong.any())
      throw GroupFailure(wrong);
  outcome_.step_seconds.push_back(step.total_s());
  ++outcome_.steps;
  record_loss(step.global_loss);
}

// Every rank sees the same reduced loss, so every rank takes the same branch here.
void TrainingLoop::record_loss(double global_loss) {
  outcome_.step_losses.push_back(global_loss);
  const double first = outcome_.step_losses.front();
  const bool exploded = settings_.divergence_factor > 0 && std::isfinite(first) && first > 0 &&
                        global_loss > settings_.divergence_factor * first;
  if (!std::isfinite(global_loss) || exploded) {
    outcome_.status = TrialStatus::kDiverged;
    outcome_.reason = "global loss became " + std::to_string(global_loss) + " at step " +
                      std::to_string(outcome_.steps) +
                      (exploded ? ", more than divergence_factor (" +
                                      std::to_string(settings_.divergence_factor) +
                                      ") times the first step's " + std::to_string(first)
                                : std::string());
    return;
  }
  recent_.add(global_loss);
  if (settings_.target_loss && !outcome_.steps_to_target &&
      recent_.value() <= *settings_.target_loss) {
    outcome_.steps_to_target = outcome_.steps;
    outcome_.seconds_to_target = seconds_between(started_, Clock::now());
  }
}

StepSamples TrainingLoop::time_steps(QuietGate& gate) {
  for (std::uint64_t i = 0; i < settings_.warmup_steps; ++i) timing_step();
  if (timeline_) timeline_->start(context_.comm, context_.watchdog);
  StepSamples samples = gate.measure([this] { return timed_rounds(); });
  leave_on_fault(context_.comm, reducer_.fault(), context_.watchdog);
  return samples;
}

StepSamples TrainingLoop::timed_rounds() {
  StepSamples samples;
  samples.samples_per_step = timing_batch_size();
  constexpr std::size_t kMinimumSteps = 5;
  const auto started = Clock::now();
  std::size_t round = kMinimumSteps;
  while (samples.steps() < settings_.max_timing_steps) {
    time_round(std::min<std::size_t>(round, settings_.max_timing_steps - samples.steps()),
               &samples);
    // Every rank decides on the slowest rank's numbers, so all run the same steps.
    const double timed =
        max_over_ranks(seconds_between(started, Clock::now()), context_.comm, context_.watchdog);
    if (timed >= settings_.min_time_s) break;
    const double per_step = std::max(timed / static_cast<double>(samples.steps()), 1e-9);
    round = static_cast<std::size_t>(std::ceil((settings_.min_time_s - timed) / per_step)) + 1;
  }
  samples.wall_seconds = seconds_between(started, Clock::now());
  return samples;
}

void TrainingLoop::timing_step() { run_step(next_timing_batch(), schedule_.peak()); }

std::size_t TrainingLoop::timing_batch_size() const {
  return std::min(settings_.batch_size, sampler_.shard_size());
}

at::Tensor TrainingLoop::next_timing_batch() {
  if (!timing_order_.defined()) {
    sampler_.set_epoch(0);
    auto shard = sampler_.indices();
    timing_order_ =
        torch::from_blob(shard.data(), {static_cast<int64_t>(shard.size())}, torch::kInt64)
            .to(setup_.device, /*non_blocking=*/false, /*copy=*/true);
  }
  const std::size_t batch = timing_batch_size();
  const std::size_t batches =
      std::max<std::size_t>(1, static_cast<std::size_t>(timing_order_.size(0)) / batch);
  const auto start = static_cast<int64_t>((next_timing_batch_++ % batches) * batch);
  return timing_order_.narrow(0, start, static_cast<int64_t>(batch));
}

void TrainingLoop::time_round(std::size_t steps, StepSamples* samples) {
  for (std::size_t i = 0; i < steps; ++i) {
    const StepResult step = run_step(next_timing_batch(), schedule_.peak());
    samples->compute_s.push_back(step.compute_s);
    samples->exposed_comm_s.push_back(step.exposed_comm_s);
    samples->comm_s.push_back(step.comm_s);
    samples->optimizer_s.push_back(step.optimizer_s);
    samples->arrival_ns.push_back(step.arrival_ns);
    samples->total_s.push_back(step.total_s());
  }
}

}  // namespace harness

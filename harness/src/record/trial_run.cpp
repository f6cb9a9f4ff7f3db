#include "record/trial_run.h"

#include <type_traits>
#include <utility>
#include <variant>

#include "record/record_json.h"
#include "record/record_reader.h"

namespace harness {
namespace {

std::string setting_text(const Json& settings, const char* key) {
  const auto found = settings.find(key);
  return found != settings.end() && found->is_string() ? found->get<std::string>() : "";
}

template <typename Record>
void take_frame(Record& record, TrialRun* run) {
  run->identity = std::move(record.identity);
  run->end = std::move(record.end);
  run->verdict = std::move(record.verdict);
  run->backend = std::move(record.backend);
  run->machine_speed = std::move(record.machine_speed);
}

void take_train(TrainRecord& record, TrialRun* run) {
  take_frame(record, run);
  if (!record.training && !record.timing && !record.detection) return;  // trained nothing
  TrainFigures& train = run->train.emplace();
  if (record.timing) {
    train.throughput = record.timing->throughput;
    train.step_time_ms = record.timing->step_time_ms;
  }
  train.timed = train.throughput.has_value();
  if (record.training) {
    train.steps = record.training->steps;
    if (!record.training->epoch_losses.empty())
      train.final_loss = record.training->epoch_losses.back();
    train.target = record.training->target;
  }
  if (record.detection) train.auroc = record.detection->auroc;
  if (record.detection_points) train.points_auroc = record.detection_points->auroc;
}

void take_collective(CollectiveRecord& record, TrialRun* run) {
  take_frame(record, run);
  if (!record.points) return;  // measured nothing
  CollectiveFigures& collective = run->collective.emplace();
  collective.dtype = setting_text(run->identity.settings, "dtype");
  collective.op = setting_text(run->identity.settings, "op");
  collective.timing = setting_text(run->identity.settings, "timing");
  collective.points = std::move(*record.points);
}

void take_replay(ReplayRecord& record, TrialRun* run) {
  take_frame(record, run);
  if (!record.timing || !record.timing->step_time_ms || !record.job) return;  // timed nothing
  run->replay = ReplayFigures{*record.timing->step_time_ms, record.job->step_ms};
}

void take_frame_only(FrameRecord& record, TrialRun* run) {
  run->identity = std::move(record.identity);
  run->end = std::move(record.end);
}

}  // namespace

TrialRun trial_run_of(TrialResult result) {
  TrialRun run;
  run.json = to_json(result);
  std::visit(
      [&run](auto& record) {
        using Record = std::decay_t<decltype(record)>;
        if constexpr (std::is_same_v<Record, TrainRecord>) take_train(record, &run);
        if constexpr (std::is_same_v<Record, CollectiveRecord>) take_collective(record, &run);
        if constexpr (std::is_same_v<Record, ReplayRecord>) take_replay(record, &run);
        if constexpr (std::is_same_v<Record, FrameRecord>) take_frame_only(record, &run);
      },
      result);
  return run;
}

TrialRun read_trial_run(Json record) {
  TrialRun run;
  const Json kind = record.is_object() && record.contains("kind") ? record["kind"] : Json();
  if (kind == Json("collective")) {
    CollectiveRecord collective = read_collective_record(record);
    take_collective(collective, &run);
  } else if (kind == Json("replay")) {
    ReplayRecord replay = read_replay_record(record);
    take_replay(replay, &run);
  } else {
    TrainRecord train = read_train_record(record);
    take_train(train, &run);
  }
  run.json = std::move(record);
  return run;
}

}  // namespace harness

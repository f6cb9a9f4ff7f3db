// A model that trains normally (one linear layer) except on the job's last rank, whose
// training-mode forward raises from its `from_call`-th call on: one rank's exception must fail
// the trial on every rank with that rank's message, never leave the others waiting in the
// step's allreduce.
#include <mpi.h>
#include <torch/torch.h>

#include <stdexcept>
#include <string>

#include "harness/plugin/module_model.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::Status;

class RankRaisingModel final : public harness::plugin::ModuleModel {
 public:
  static constexpr const char* kName = "rank_raising";
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription = "test plugin: forward raises on the last rank";

  static harness::plugin::ModelCapabilities capabilities() {
    return {harness::plugin::InputKind::kTabular, /*cuda=*/false};
  }

  explicit RankRaisingModel(const nlohmann::json& json) {
    harness::plugin::Params params(json, {"input_dim", "from_call"});
    const long long input_dim = params.integer("input_dim", 20, 1, 1 << 20);
    from_call_ = params.integer("from_call", 3, 1, 1 << 20);
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    raises_ = size > 1 && rank == size - 1;
    layer_ = module_->register_module("layer", torch::nn::Linear(input_dim, input_dim));
  }

  Status forward(const at::Tensor& input, at::Tensor* reconstruction) noexcept override {
    return harness::plugin::guarded([&] {
      if (module_->is_training() && raises_ && ++calls_ >= from_call_)
        throw std::runtime_error("the last rank's forward raised at call " +
                                 std::to_string(calls_));
      *reconstruction = layer_->forward(input);
      return Status::ok();
    });
  }

 private:
  torch::nn::Linear layer_{nullptr};
  long long from_call_ = 3, calls_ = 0;
  bool raises_ = false;
};

}  // namespace

HARNESS_REGISTER_MODEL(RankRaisingModel)

#include "train/model_agreement.h"

#include <ATen/core/Tensor.h>

#include <vector>

#include "mpi/string_broadcast.h"
#include "mpi/watchdog.h"
#include "train/model_objective.h"

namespace harness {
namespace {

std::string tensors_text(const std::vector<at::Tensor>& tensors, const char* what) {
  long long elements = 0;
  std::string shapes;
  for (const auto& tensor : tensors) {
    elements += tensor.numel();
    shapes += (shapes.empty() ? "" : ", ") + shape_text(tensor);
  }
  if (tensors.empty()) return std::string(what) + ": none";
  return std::to_string(elements) + " " + what + " in " + std::to_string(tensors.size()) +
         " tensor(s): " + shapes;
}

}  // namespace

std::string architecture_text(plugin::Model& model) {
  return tensors_text(model.parameters(), "parameters") + "; " +
         tensors_text(model.buffers(), "buffer elements");
}

GroupProblem agree_on_architecture(plugin::Model& model, const TrialContext& context) {
  const std::string mine = architecture_text(model);
  std::string leaders;
  {
    WatchedOperation watched(context.watchdog, "architecture agreement", 0, context.size);
    leaders = broadcast_string(mine, 0, context.comm);
  }
  GroupProblem local;
  if (mine != leaders)
    local = {TrialStatus::kFailed,
             "its model differs from rank 0's, so rank 0's weights cannot be broadcast to it: " +
                 mine + " here; " + leaders +
                 " on rank 0 (every rank must load the same architecture: the same model file "
                 "content on every host)"};
  return agree_on_problem(context.comm, local, context.watchdog);
}

}  // namespace harness

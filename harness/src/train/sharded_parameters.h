// The parameter side of sharded data parallel (ZeRO stage 2): each gradient bucket's
// parameters become views into one flat buffer laid out as the bucket (FSDP's flat parameter),
// and this rank keeps block r of that buffer as its fp32 master shard, the only parameters its
// optimizer sees (so its optimizer state is 1/world of the model's). After the optimizer has
// stepped the shards with the reduce-scattered gradient shards, gather() all-gathers the
// updated shards into the flat buffers, which are the model's parameters, before the next
// forward.
#pragma once

#include <ATen/core/Tensor.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "harness/plugin/communicator.h"
#include "measurement/reduction_memory.h"
#include "train/fusion_buffer.h"
#include "train/gradient_reducer.h"
#include "train/optimizer_pieces.h"
#include "train/step_timeline.h"

namespace harness {

class ShardedParameters {
 public:
  // After the initial broadcast (the shards start from the replicas' common values). The
  // reducer must be sharded; its gradient shards become the master shards' .grad().
  ShardedParameters(const GradientReducer& reducer, plugin::Communicator& communicator, int rank,
                    ReductionMemory* memory = nullptr);

  // What the optimizer steps: the master shards, cut into pieces (train/optimizer_pieces.h;
  // each a view of its shard, its .grad() the same piece of the gradient shard).
  std::vector<at::Tensor> master_shards() const { return pieces_; }
  // Collective: the updated shards into every rank's parameters. A failed call is kept in the
  // reducer's fault() and told in the next step's status.
  void gather();
  // The parameters' memory on this rank: the flat buffers (the whole model, padded) and the
  // master shards.
  std::size_t parameter_bytes() const;

 private:
  struct Bucket {
    std::unique_ptr<FusionBuffer> values;  // the bucket's parameters, bound as views
    at::Tensor master;                     // this rank's block, stepped by the optimizer
  };
  plugin::Communicator& communicator_;
  BackendFault& fault_;
  std::vector<Bucket> buckets_;
  std::vector<at::Tensor> pieces_;
};

}  // namespace harness

#include "train/distributed_sampler.h"

#include <numeric>
#include <stdexcept>
#include <string>

#include "common/random.h"

namespace harness {

DistributedSampler::DistributedSampler(std::size_t dataset_size, int world_size, int rank,
                                       std::uint64_t seed, bool shuffle)
    : dataset_size_(dataset_size),
      world_size_(world_size),
      rank_(rank),
      seed_(seed),
      shuffle_(shuffle) {
  if (world_size < 1 || rank < 0 || rank >= world_size)
    throw std::invalid_argument("sampler: rank " + std::to_string(rank) +
                                " is outside world of size " + std::to_string(world_size));
  if (dataset_size == 0) throw std::invalid_argument("sampler: the data set is empty");
  shard_size_ = (dataset_size + world_size - 1) / world_size;
}

std::vector<std::size_t> DistributedSampler::indices() const {
  std::vector<std::size_t> order(dataset_size_);
  std::iota(order.begin(), order.end(), 0);
  if (shuffle_) {
    SplitMix64 rng(seed_ * 0x9e3779b97f4a7c15ULL + epoch_);
    for (std::size_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.below(i)]);
  }
  const std::size_t total = shard_size_ * static_cast<std::size_t>(world_size_);
  for (std::size_t i = 0; order.size() < total; ++i) order.push_back(order[i % dataset_size_]);

  std::vector<std::size_t> shard;
  shard.reserve(shard_size_);
  for (std::size_t i = static_cast<std::size_t>(rank_); i < total; i += world_size_)
    shard.push_back(order[i]);
  return shard;
}

}  // namespace harness

// DistributedSampler semantics (PyTorch): every epoch, one permutation of the data set seeded
// by seed + epoch and identical on all ranks, padded by repeating its head to a multiple of
// the world size; rank r takes positions r, r + N, r + 2N, ... Shards are disjoint (up to the
// padding) and of equal size, so every rank runs the same number of steps.
#pragma once

#include <cstdint>
#include <vector>

namespace harness {

class DistributedSampler {
 public:
  DistributedSampler(std::size_t dataset_size, int world_size, int rank, std::uint64_t seed,
                     bool shuffle = true);

  void set_epoch(std::uint64_t epoch) { epoch_ = epoch; }
  std::size_t shard_size() const { return shard_size_; }
  std::vector<std::size_t> indices() const;

 private:
  std::size_t dataset_size_;
  int world_size_;
  int rank_;
  std::uint64_t seed_;
  bool shuffle_;
  std::uint64_t epoch_ = 0;
  std::size_t shard_size_;
};

}  // namespace harness

// The bootstrap of a PyTorch process group (plugin/bootstrap.h over the c10d::Store that
// torch.distributed hands a backend): each call writes this rank's part under a key of its own
// and reads the others' parts, which the store's get waits for up to the store's timeout.
#pragma once

#include <torch/csrc/distributed/c10d/Store.hpp>

#include <cstdint>
#include <string>

#include "harness/plugin/bootstrap.h"

namespace harness::torch_binding {

class StoreBootstrap final : public plugin::Bootstrap {
 public:
  // `scope`: the keys' prefix, one per subgroup of the group (the hierarchical backend's levels)
  StoreBootstrap(c10::intrusive_ptr<c10d::Store> store, int rank, int size,
                 std::string scope = "harness")
      : store_(std::move(store)), rank_(rank), size_(size), scope_(std::move(scope)) {}

  int rank() const noexcept override { return rank_; }
  int size() const noexcept override { return size_; }
  plugin::Status allgather(const void* mine, void* all, std::size_t bytes) noexcept override;
  plugin::Status broadcast(void* data, std::size_t bytes, int root) noexcept override;
  plugin::Status barrier() noexcept override;
  std::string describe() const override { return "PyTorch c10d store"; }

  // Tells the other ranks that this rank's collective failed (the first failure is kept), so
  // that their waits end with its message instead of the process group's timeout.
  void announce_failure(const std::string& message) noexcept;
  // A failure some rank announced, or "".
  std::string announced_failure() noexcept;

 private:
  // Every rank makes the same calls in the same order, so the n-th call's keys match.
  std::string next_key() { return scope_ + "/bootstrap/" + std::to_string(calls_++); }

  c10::intrusive_ptr<c10d::Store> store_;
  int rank_, size_;
  std::string scope_;
  std::uint64_t calls_ = 0;
};

}  // namespace harness::torch_binding

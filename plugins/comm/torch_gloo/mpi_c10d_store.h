// A c10d Store over the gloo plugin's MPI rendezvous (MpiStore), so that PyTorch's own
// ProcessGroupGloo joins a group of the harness's MPI ranks without a TCPStore server or a port
// to agree on. ProcessGroupGloo's constructor uses set, get and wait only (gloo's full-mesh
// rendezvous); the other calls of a Store are refused, naming themselves.
#pragma once

#include <torch/csrc/distributed/c10d/Store.hpp>
#include <torch/version.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "../gloo/mpi_store.h"

namespace harness::plugins {

class MpiC10dStore final : public c10d::Store {
 public:
  explicit MpiC10dStore(MpiStore& rendezvous) : rendezvous_(rendezvous) {}

  void set(const std::string& key, const std::vector<std::uint8_t>& value) override;
  std::vector<std::uint8_t> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  std::vector<std::uint8_t> compareSet(const std::string& key,
                                       const std::vector<std::uint8_t>& expected,
                                       const std::vector<std::uint8_t>& desired) override;
  std::int64_t add(const std::string& key, std::int64_t value) override;
  bool deleteKey(const std::string& key) override;
  bool check(const std::vector<std::string>& keys) override;
  std::int64_t getNumKeys() override;
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 8)
  // PyTorch 2.8 made clone() part of a Store: a second handle on the same rendezvous, valid
  // while the group joins (the rendezvous is init()'s).
  c10::intrusive_ptr<c10d::Store> clone() override;
#endif

 private:
  MpiStore& rendezvous_;
};

}  // namespace harness::plugins

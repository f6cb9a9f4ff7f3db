#include "store_bootstrap.h"

#include <cstring>
#include <exception>
#include <vector>

namespace harness::torch_binding {
namespace {

constexpr const char* kFailureKey = "harness/failure";

template <class Body>
plugin::Status through_store(const char* what, Body&& body) noexcept {
  try {
    body();
    return plugin::Status::ok();
  } catch (const std::exception& e) {
    return plugin::Status::unavailable(std::string("the c10d store's ") + what +
                                       " failed: " + e.what());
  }
}

}  // namespace

plugin::Status StoreBootstrap::allgather(const void* mine, void* all, std::size_t bytes) noexcept {
  const std::string key = next_key();
  return through_store("allgather", [&] {
    const auto* own = static_cast<const std::uint8_t*>(mine);
    store_->set(key + "/" + std::to_string(rank_), std::vector<std::uint8_t>(own, own + bytes));
    auto* out = static_cast<std::uint8_t*>(all);
    for (int r = 0; r < size_; ++r) {
      const std::vector<std::uint8_t> part = store_->get(key + "/" + std::to_string(r));
      if (part.size() != bytes)
        throw std::runtime_error("rank " + std::to_string(r) + " sent " +
                                 std::to_string(part.size()) + " bytes where this rank sent " +
                                 std::to_string(bytes) + " (do all ranks use the same backend?)");
      std::memcpy(out + bytes * static_cast<std::size_t>(r), part.data(), bytes);
    }
  });
}

plugin::Status StoreBootstrap::broadcast(void* data, std::size_t bytes, int root) noexcept {
  const std::string key = next_key();
  return through_store("broadcast", [&] {
    auto* own = static_cast<std::uint8_t*>(data);
    if (rank_ == root) {
      store_->set(key, std::vector<std::uint8_t>(own, own + bytes));
      return;
    }
    const std::vector<std::uint8_t> value = store_->get(key);
    if (value.size() != bytes)
      throw std::runtime_error("rank " + std::to_string(root) + " sent " +
                               std::to_string(value.size()) + " bytes where this rank expected " +
                               std::to_string(bytes));
    std::memcpy(own, value.data(), bytes);
  });
}

plugin::Status StoreBootstrap::barrier() noexcept {
  const unsigned char mine = 1;
  std::vector<unsigned char> all(static_cast<std::size_t>(size_));
  return allgather(&mine, all.data(), 1);
}

void StoreBootstrap::announce_failure(const std::string& message) noexcept {
  try {
    const std::string text = "rank " + std::to_string(rank_) + ": " + message;
    // compareSet keeps the first rank's message when several fail.
    store_->compareSet(kFailureKey, {}, std::vector<std::uint8_t>(text.begin(), text.end()));
  } catch (...) {
    // The store is gone: the peers' waits end at their timeout instead.
  }
}

std::string StoreBootstrap::announced_failure() noexcept {
  try {
    if (!store_->check({kFailureKey})) return {};
    const std::vector<std::uint8_t> text = store_->get(kFailureKey);
    return std::string(text.begin(), text.end());
  } catch (...) {
    return {};
  }
}

}  // namespace harness::torch_binding

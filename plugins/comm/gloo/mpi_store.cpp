#include "mpi_store.h"

#include "harness/plugin/mpi_status.h"

#include <cstring>
#include <stdexcept>
#include <thread>

namespace harness::plugins {
namespace {

constexpr int kSetTag = 7301;

void check(int code, const char* what) {
  const plugin::Status status = plugin::mpi_status(code, what);
  if (!status.is_ok()) throw std::runtime_error("rendezvous: " + status.message());
}

}  // namespace

MpiStore::MpiStore(MPI_Comm comm, std::chrono::milliseconds timeout) : timeout_(timeout) {
  check(MPI_Comm_dup(comm, &comm_), "MPI_Comm_dup");
  MPI_Comm_rank(comm_, &rank_);
  MPI_Comm_size(comm_, &size_);
  sent_to_.assign(static_cast<std::size_t>(size_), 0);
  received_from_.assign(static_cast<std::size_t>(size_), 0);
}

MpiStore::~MpiStore() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (finalized) return;
  // finish() was not reached (rendezvous failed): peers may never receive what we sent, so
  // waiting would hang. Let MPI complete the sends on its own and leave their buffers alive.
  for (auto& request : send_requests_) MPI_Request_free(&request);
  for (auto& buffer : send_buffers_) buffer.release();
  MPI_Comm_free(&comm_);
}

void MpiStore::set(const std::string& key, const std::vector<char>& data) {
  values_[key] = data;
  // Message: 4-byte key length, key, value.
  const auto key_length = static_cast<std::uint32_t>(key.size());
  auto message = std::make_unique<std::vector<char>>(4 + key.size() + data.size());
  std::memcpy(message->data(), &key_length, 4);
  std::memcpy(message->data() + 4, key.data(), key.size());
  if (!data.empty()) std::memcpy(message->data() + 4 + key.size(), data.data(), data.size());
  for (int peer = 0; peer < size_; ++peer) {
    if (peer == rank_) continue;
    MPI_Request request;
    check(MPI_Isend(message->data(), static_cast<int>(message->size()), MPI_CHAR, peer, kSetTag,
                    comm_, &request),
          "MPI_Isend");
    send_requests_.push_back(request);
    ++sent_to_[static_cast<std::size_t>(peer)];
  }
  send_buffers_.push_back(std::move(message));
}

void MpiStore::receive_one(int source) {
  MPI_Status status;
  check(MPI_Probe(source, kSetTag, comm_, &status), "MPI_Probe");
  int length = 0;
  MPI_Get_count(&status, MPI_CHAR, &length);
  std::vector<char> message(static_cast<std::size_t>(length));
  check(MPI_Recv(message.data(), length, MPI_CHAR, status.MPI_SOURCE, kSetTag, comm_,
                 MPI_STATUS_IGNORE),
        "MPI_Recv");
  ++received_from_[static_cast<std::size_t>(status.MPI_SOURCE)];
  std::uint32_t key_length = 0;
  std::memcpy(&key_length, message.data(), 4);
  const std::string key(message.data() + 4, key_length);
  values_[key] = std::vector<char>(message.begin() + 4 + key_length, message.end());
}

bool MpiStore::try_receive() {
  int waiting = 0;
  MPI_Status status;
  check(MPI_Iprobe(MPI_ANY_SOURCE, kSetTag, comm_, &waiting, &status), "MPI_Iprobe");
  if (waiting) receive_one(status.MPI_SOURCE);
  return waiting != 0;
}

std::vector<char> MpiStore::get(const std::string& key) {
  wait({key});
  return values_.at(key);
}

void MpiStore::wait(const std::vector<std::string>& keys) { wait(keys, timeout_); }

void MpiStore::wait(const std::vector<std::string>& keys,
                    const std::chrono::milliseconds& timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  for (const auto& key : keys) {
    while (!values_.count(key)) {
      if (try_receive()) continue;
      if (std::chrono::steady_clock::now() > deadline)
        throw std::runtime_error("rendezvous: timed out after " + std::to_string(timeout.count()) +
                                 " ms waiting for key \"" + key + "\"");
      std::this_thread::sleep_for(std::chrono::microseconds(100));
    }
  }
}

void MpiStore::finish() {
  std::vector<int> expected(static_cast<std::size_t>(size_));
  check(MPI_Alltoall(sent_to_.data(), 1, MPI_INT, expected.data(), 1, MPI_INT, comm_),
        "MPI_Alltoall");
  for (int peer = 0; peer < size_; ++peer)
    while (received_from_[static_cast<std::size_t>(peer)] <
           expected[static_cast<std::size_t>(peer)])
      receive_one(peer);
  if (!send_requests_.empty())
    check(MPI_Waitall(static_cast<int>(send_requests_.size()), send_requests_.data(),
                      MPI_STATUSES_IGNORE),
          "MPI_Waitall");
  send_requests_.clear();
  send_buffers_.clear();
}

}  // namespace harness::plugins

// A gloo rendezvous Store over MPI point-to-point. gloo's connectFullMesh sets and gets keys
// in an uneven order across ranks, so a store that runs a collective on the first missing key
// deadlocks. Here set() sends the pair to every peer (MPI_Isend on a private communicator)
// and get() receives until the key has arrived; finish() drains what nobody asked for.
#pragma once

#include <mpi.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <gloo/rendezvous/store.h>

namespace harness::plugins {

class MpiStore final : public gloo::rendezvous::Store {
 public:
  MpiStore(MPI_Comm comm, std::chrono::milliseconds timeout);
  ~MpiStore() override;

  void set(const std::string& key, const std::vector<char>& data) override;
  std::vector<char> get(const std::string& key) override;
  void wait(const std::vector<std::string>& keys) override;
  void wait(const std::vector<std::string>& keys,
            const std::chrono::milliseconds& timeout) override;

  // Collective: receives every message still in flight and completes every send, so the
  // private communicator is quiet when freed.
  void finish();

 private:
  void receive_one(int source);  // blocking receive of one set() message
  bool try_receive();            // one message if one is waiting

  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
  std::chrono::milliseconds timeout_;
  std::map<std::string, std::vector<char>> values_;
  std::vector<std::unique_ptr<std::vector<char>>> send_buffers_;
  std::vector<MPI_Request> send_requests_;
  std::vector<int> sent_to_;
  std::vector<int> received_from_;
};

}  // namespace harness::plugins

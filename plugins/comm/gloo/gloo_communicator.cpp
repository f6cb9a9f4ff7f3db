// The "gloo" backend: Debian's libgloo over its TCP transport, rendezvous through MpiStore.
// Params: algorithm (ring | ring_chunked | halving_doubling | bcube), interface or hostname
// (default: loopback when the whole group shares a host, else this host's name), timeout_ms,
// bcube_base, receive (loop_thread | blocking | busy_poll | auto: who reads the sockets).
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <utility>
#include <vector>

#include <gloo/allgather_ring.h>
#include <gloo/allreduce_bcube.h>
#include <gloo/allreduce_halving_doubling.h>
#include <gloo/allreduce_ring.h>
#include <gloo/allreduce_ring_chunked.h>
#include <gloo/alltoall.h>
#include <gloo/barrier_all_to_one.h>
#include <gloo/broadcast_one_to_all.h>
#include <gloo/reduce_scatter.h>
#include <gloo/rendezvous/context.h>
#include <gloo/rendezvous/prefix_store.h>
#include <gloo/transport/tcp/device.h>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/params.h"
#include "harness/plugin/peer_address.h"
#include "harness/plugin/register.h"
#include "group_device.h"
#include "mpi_store.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::ranks_on_this_host;
using plugin::Status;

namespace {

// The largest piece a sync-mode allreduce sends through its algorithm at once (see run()).
constexpr std::size_t kSyncPieceBytes = std::size_t{1} << 20;

// The send buffer every pair is given at start-up (see size_send_buffers): Linux's own
// autotuning limit (tcp_wmem's maximum), or less where net.core.wmem_max allows less.
constexpr std::size_t kSendBufferBytes = std::size_t{4} << 20;

std::size_t largest_send_buffer() {
  std::size_t limit = kSendBufferBytes;
  if (std::FILE* file = std::fopen("/proc/sys/net/core/wmem_max", "r")) {
    unsigned long long value = 0;
    if (std::fscanf(file, "%llu", &value) == 1 && value > 0)
      limit = std::min<std::size_t>(limit, static_cast<std::size_t>(value));
    std::fclose(file);
  }
  return limit;
}

// Ranks pinned to one core make gloo's I/O thread fight the rank for it.
bool bound_to_one_core() {
  cpu_set_t set;
  CPU_ZERO(&set);
  return sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) == 1;
}

// Whether this host's ranks of the group can each spin on a CPU of their own (the CPUs this
// process may run on, against the group's ranks here).
bool core_per_rank_on_this_host(MPI_Comm comm) {
  cpu_set_t set;
  CPU_ZERO(&set);
  if (sched_getaffinity(0, sizeof set, &set) != 0) return false;
  return ranks_on_this_host(comm) <= CPU_COUNT(&set);
}

bool is_power_of(int value, int base) {
  while (value > 1 && value % base == 0) value /= base;
  return value == 1;
}

template <class T>
void scale(void* data, std::size_t count, int ranks) {
  T* values = static_cast<T*>(data);
  for (std::size_t i = 0; i < count; ++i) values[i] = values[i] / static_cast<T>(ranks);
}

template <>
void scale<gloo::float16>(void* data, std::size_t count, int ranks) {
  auto* values = static_cast<gloo::float16*>(data);
  for (std::size_t i = 0; i < count; ++i)
    values[i] =
        gloo::cpu_float2half_rn(gloo::cpu_half2float(values[i]) / static_cast<float>(ranks));
}

}  // namespace

class GlooCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "gloo";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "gloo (TCP) allreduce: ring, ring_chunked, halving_doubling or bcube; reduce_scatter by "
      "halving-doubling, gloo's allgather and alltoall; MPI rendezvous";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = {DType::kFloat32, DType::kFloat64,
                                                    DType::kFloat16};  // gloo has no bf16

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = kDTypes;
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit GlooCommunicator(const nlohmann::json& json) {
    plugin::Params params(
        json, {"algorithm", "interface", "hostname", "timeout_ms", "bcube_base", "receive"});
    algorithm_ =
        params.choice("algorithm", "ring", {"ring", "ring_chunked", "halving_doubling", "bcube"});
    device_params_ = read_device_params(params);
    bcube_base_ = static_cast<int>(params.integer("bcube_base", 2, 2, 1024));
    receive_ =
        params.choice("receive", "loop_thread", {"loop_thread", "blocking", "busy_poll", "auto"});
  }

  // Before the contexts close their pairs (group_endpoint.h: LeaveTogether).
  ~GlooCommunicator() override { leave_.leave(); }

  Status init(const plugin::GroupInit& group) noexcept override {
    if (Status s = plugin::require_mpi_group(group, "gloo"); !s.is_ok()) return s;
    // gloo's bcube returns wrong sums (silently) when the group is not a power of its base;
    // the conformance suite found this at 3 ranks with base 2.
    if (algorithm_ == "bcube" && !is_power_of(group.size, bcube_base_))
      return Status::unsupported("gloo bcube needs the group size to be a power of bcube_base (" +
                                 std::to_string(bcube_base_) + "), got " +
                                 std::to_string(group.size));
    return plugin::guarded([&] {
      size_ = group.size;
      GroupDevice chosen = group_device(device_params_, group.comm, "gloo");
      if (!chosen.device) return chosen.status;
      address_ = chosen.address;
      auto& device = chosen.device;
      MpiStore store(group.comm, device_params_.timeout);
      context_ = connected(group, store, device);
      blocks_context_ = context_;
      if (receive_ == "auto") {
        receive_ = core_per_rank_on_this_host(group.comm) ? "busy_poll" : "loop_thread";
        // An automatic choice must run every collective gloo offers: see blocks_context_.
        if (receive_ != "loop_thread") {
          gloo::rendezvous::PrefixStore blocks_store("blocks", store);
          blocks_context_ = connected(group, blocks_store, device);
        }
      }
      store.finish();
      receive_on_calling_thread();
      size_send_buffers(context_);
      if (blocks_context_ != context_) size_send_buffers(blocks_context_);
      leave_.enter(group.comm);
      single_core_ = bound_to_one_core();
      if (single_core_ && group.rank == 0)
        std::fprintf(stderr,
                     "harness: warning: gloo ranks are bound to a single core, which adds a ~4 ms "
                     "floor per call; launch with mpirun --bind-to none\n");
      return Status::ok();
    });
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return leave_.watch(plugin::guarded([&] {
      switch (buffer.dtype) {
        case DType::kFloat32: run<float>(buffer, options.op); break;
        case DType::kFloat64: run<double>(buffer, options.op); break;
        default: run<gloo::float16>(buffer, options.op); break;
      }
      return Status::ok();
    }));
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    if (buffer.count == 0 || size_ == 1) return Status::ok();
    return leave_.watch(plugin::guarded([&] {
      std::vector<char*> pointers{static_cast<char*>(buffer.data)};
      gloo::BroadcastOneToAll<char>(context_, pointers, buffer.bytes(), root).run();
      return Status::ok();
    }));
  }

  // gloo's ReduceScatterHalvingDoubling, bound like the allreduces (see BoundAlgorithm): the
  // reduced block lands at the start of its buffer.
  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    if (Status s = fits_sync_mode("reduce_scatter", output.bytes()); !s.is_ok()) return s;
    if (output.count == 0) return Status::ok();
    return leave_.watch(plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: scatter<float>(input, output, options.op); break;
        case DType::kFloat64: scatter<double>(input, output, options.op); break;
        default: scatter<gloo::float16>(input, output, options.op); break;
      }
      return Status::ok();
    }));
  }

  // gloo's AllgatherRing, bound like the allreduces through one staging buffer (input, then
  // output).
  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    if (Status s = fits_sync_mode("allgather", input.bytes()); !s.is_ok()) return s;
    if (input.count == 0) return Status::ok();
    if (size_ == 1) return copied(input, output);  // gloo's ring needs a peer
    return leave_.watch(plugin::guarded([&] {
      auto& bound = algorithms_[{input.count, static_cast<int>(input.dtype), kAllgather}];
      unsigned char* staging = bound.staging.get();
      if (!bound.algorithm) {
        bound.staging = std::make_unique<unsigned char[]>(input.bytes() + output.bytes());
        staging = bound.staging.get();
        bound.algorithm = std::make_unique<gloo::AllgatherRing<char>>(
            blocks_context_, std::vector<const char*>{reinterpret_cast<const char*>(staging)},
            reinterpret_cast<char*>(staging + input.bytes()), static_cast<int>(input.bytes()));
      }
      std::memcpy(staging, input.data, input.bytes());
      bound.algorithm->run();
      std::memcpy(output.data, staging + input.bytes(), output.bytes());
      return Status::ok();
    }));
  }

  // gloo's alltoall works on unbound buffers, which its pairs offer only while its loop thread
  // reads the sockets.
  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    if (blocks_in_sync_mode())
      return Status::unsupported("gloo with receive \"" + receive_ +
                                 "\" does not support alltoall (gloo's alltoall needs "
                                 "receive \"loop_thread\")");
    if (input.count == 0) return Status::ok();
    if (size_ == 1) return copied(input, output);
    return leave_.watch(plugin::guarded([&] {
      gloo::AlltoallOptions options(blocks_context_);
      options.setInput(static_cast<char*>(input.data), input.bytes());
      options.setOutput(static_cast<char*>(output.data), output.bytes());
      options.setTimeout(device_params_.timeout);
      gloo::alltoall(options);
      return Status::ok();
    }));
  }

  Status barrier() noexcept override {
    if (!context_) return Status::invalid_argument("communicator not initialised");
    return leave_.watch(plugin::guarded([&] {
      gloo::BarrierAllToOne(context_).run();
      return Status::ok();
    }));
  }

  std::string describe() const override {
    return algorithm_ + " over tcp (" + address_ + ")" +
           (receive_ == "loop_thread" ? "" : ", receive " + receive_) +
           (blocks_context_ != context_
                ? " (auto; reduce_scatter, allgather and alltoall by loop thread)"
                : "") +
           (single_core_ ? "; WARNING ranks bound to one core (~4 ms/call floor)" : "");
  }

 private:
  // gloo's default hands every received message from its device loop thread to the waiting
  // caller (an epoll wake-up and a condition variable per message); in sync mode the caller
  // reads its pairs itself, blocking in recv or spinning on them (busy_poll). Spinning saves the
  // hand-over where every rank has a core, and steals the core of the rank it waits for where
  // ranks outnumber cores, hence "auto" (docs/benchmarks.md, "Figures behind the defaults").
  void receive_on_calling_thread() {
    if (receive_ == "loop_thread") return;
    for (int peer = 0; peer < size_; ++peer)
      if (peer != context_->rank) context_->getPair(peer)->setSync(true, receive_ == "busy_poll");
  }

  // gloo's TCP pair sets SO_SNDBUF to the size of the first message it sends (plus its
  // header) and raises it only for a larger one. Setting it switches Linux's send-buffer
  // autotuning off, so a small first message leaves a buffer of a few KB: a 4 KB ring
  // allreduce then waits for the peer's delayed ACK (4-48 ms a call instead of ~10 us; 16 KB
  // too, and 8 KB with halving_doubling). One message of the largest size the kernel accepts,
  // broadcast from every rank at start-up, sizes every pair's buffer once, for good.
  void size_send_buffers(const std::shared_ptr<gloo::rendezvous::Context>& context) {
    if (size_ < 2) return;
    const std::size_t bytes = largest_send_buffer();
    std::vector<char> message(bytes);
    std::vector<char*> pointers{message.data()};
    for (int root = 0; root < size_; ++root)
      gloo::BroadcastOneToAll<char>(context, pointers, static_cast<int>(bytes), root).run();
  }

  std::shared_ptr<gloo::rendezvous::Context> connected(
      const plugin::GroupInit& group, gloo::rendezvous::Store& store,
      std::shared_ptr<gloo::transport::Device>& device) const {
    auto context =
        std::make_shared<gloo::rendezvous::Context>(group.rank, group.size, bcube_base_);
    context->setTimeout(device_params_.timeout);
    context->connectFullMesh(store, device);
    return context;
  }

  // Whether reduce_scatter, allgather and alltoall run on pairs in sync mode (see
  // blocks_context_), where blocks over kSyncPieceBytes and alltoall cannot run.
  bool blocks_in_sync_mode() const {
    return receive_ != "loop_thread" && blocks_context_ == context_;
  }

  // In sync mode both sides of a pair write before they read (see run()): a block larger than
  // the socket buffers would deadlock an allgather or reduce_scatter, which is not cut in pieces.
  Status fits_sync_mode(const char* collective, std::size_t block_bytes) const {
    if (!blocks_in_sync_mode() || block_bytes <= kSyncPieceBytes) return Status::ok();
    return Status::unsupported("gloo with receive \"" + receive_ + "\" does not support " +
                               collective + " blocks over " + std::to_string(kSyncPieceBytes) +
                               " B (this one: " + std::to_string(block_bytes) +
                               " B); use receive \"loop_thread\"");
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  // A group of one: every collective's output is its input.
  static Status copied(const BufferView& input, const BufferView& output) {
    std::memcpy(output.data, input.data, output.bytes());
    return Status::ok();
  }

  template <class T>
  void scatter(const BufferView& input, const BufferView& output, plugin::ReduceOp op) {
    if (size_ == 1) {
      copied(input, output);
    } else {
      auto& bound = algorithms_[{input.count, static_cast<int>(input.dtype), kReduceScatter}];
      if (!bound.algorithm) {
        bound.staging = std::make_unique<unsigned char[]>(input.bytes());
        const std::vector<int> blocks(static_cast<std::size_t>(size_),
                                      static_cast<int>(output.count));
        bound.algorithm = std::make_unique<gloo::ReduceScatterHalvingDoubling<T>>(
            blocks_context_, std::vector<T*>{reinterpret_cast<T*>(bound.staging.get())},
            static_cast<int>(input.count), blocks);
      }
      std::memcpy(bound.staging.get(), input.data, input.bytes());
      bound.algorithm->run();
      std::memcpy(output.data, bound.staging.get(), output.bytes());
    }
    if (op == plugin::ReduceOp::kAvg && size_ > 1) scale<T>(output.data, output.count, size_);
  }

  Status check(const BufferView& buffer) const {
    if (!context_) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "gloo", plugin::DeviceKind::kCpu, kDTypes);
  }

  // A gloo algorithm registers its buffer and takes the context's next slot when built, so
  // every rank must build the same algorithms in the same order. The cache is therefore keyed
  // by what every rank agrees on, (count, dtype), never by the caller's pointer (ranks free and
  // reallocate buffers at different addresses: a pointer key made one rank reuse an algorithm
  // while another built one, and both waited until the timeout). Each algorithm owns a staging
  // buffer the caller's data is copied through; training reuses it every step.
  struct BoundAlgorithm {
    std::unique_ptr<unsigned char[]> staging;
    std::unique_ptr<gloo::Algorithm> algorithm;
  };

  template <class T>
  void run(const BufferView& buffer, plugin::ReduceOp op) {
    if (size_ > 1) {
      // In sync mode both sides of a pair write before they read: a message larger than the
      // socket buffers deadlocks (gloo ring at 2 ranks hung at 64 MB, passed at 4 MB), so the
      // buffer goes through in pieces whose messages fit.
      const std::size_t piece = receive_ == "loop_thread"
                                    ? buffer.count
                                    : std::max<std::size_t>(1, kSyncPieceBytes / sizeof(T));
      auto* data = static_cast<unsigned char*>(buffer.data);
      for (std::size_t done = 0; done < buffer.count; done += piece) {
        const std::size_t count = std::min(piece, buffer.count - done);
        reduce_in_place<T>(data + done * sizeof(T), count, buffer.dtype);
      }
    }
    if (op == plugin::ReduceOp::kAvg && size_ > 1) scale<T>(buffer.data, buffer.count, size_);
  }

  template <class T>
  void reduce_in_place(unsigned char* data, std::size_t count, DType dtype) {
    auto& bound = algorithms_[{count, static_cast<int>(dtype), kAllreduce}];
    const std::size_t bytes = count * sizeof(T);
    if (!bound.algorithm) {
      bound.staging = std::make_unique<unsigned char[]>(bytes);
      bound.algorithm =
          make_algorithm<T>(reinterpret_cast<T*>(bound.staging.get()), static_cast<int>(count));
    }
    std::memcpy(bound.staging.get(), data, bytes);
    bound.algorithm->run();
    if (algorithm_ == "bcube") fence_bcube();
    std::memcpy(data, bound.staging.get(), bytes);
  }

  // gloo's bcube waits, before it returns, only for its first step's peers to have read what it
  // sent them. With two or more steps (4 ranks at base 2), a rank already in its next call of
  // the same size sends into the receive buffer of a later step's peer that may not have copied
  // the last call's data out yet, and that peer returns wrong elements (seen across hosts: every
  // few hundred calls). A barrier after each call means every rank has read all it was sent.
  // Built on the first bcube call, which every rank makes at the same point, so the slots
  // stay in step.
  void fence_bcube() {
    if (size_ <= bcube_base_) return;  // one step: gloo's own wait suffices
    if (!bcube_fence_) bcube_fence_ = std::make_unique<gloo::BarrierAllToOne>(context_);
    bcube_fence_->run();
  }

  template <class T>
  std::unique_ptr<gloo::Algorithm> make_algorithm(T* data, int count) {
    std::vector<T*> pointers{data};
    if (algorithm_ == "ring_chunked")
      return std::make_unique<gloo::AllreduceRingChunked<T>>(context_, pointers, count);
    if (algorithm_ == "halving_doubling")
      return std::make_unique<gloo::AllreduceHalvingDoubling<T>>(context_, pointers, count);
    if (algorithm_ == "bcube")
      return std::make_unique<gloo::AllreduceBcube<T>>(context_, pointers, count);
    return std::make_unique<gloo::AllreduceRing<T>>(context_, pointers, count);
  }

  DeviceParams device_params_;
  std::string algorithm_, address_, receive_;
  int bcube_base_ = 2;
  int size_ = 1;
  bool single_core_ = false;
  LeaveTogether leave_;
  std::shared_ptr<gloo::rendezvous::Context> context_;
  // Where reduce_scatter, allgather and alltoall run: context_, except where "auto" chose a sync
  // mode. Pairs in sync mode are read only by the calling thread, inside gloo's waits on bound
  // buffers: gloo's alltoall posts unbound buffers, which only the device's loop thread fills,
  // so it waits until the timeout; and both sides of a pair write before they read, so a block
  // larger than the socket buffers deadlocks an allgather or reduce_scatter (allreduce cuts its
  // buffer into pieces; these cannot). A pair never leaves sync mode, and the collectives a
  // trial will call are not known when the group starts, so "auto" gives those three a second
  // full mesh of their own that stays with the loop thread, and keeps busy polling for
  // allreduce, broadcast and barrier. An explicit sync mode refuses what it cannot run instead.
  std::shared_ptr<gloo::rendezvous::Context> blocks_context_;
  // By (count, dtype, which collective).
  enum BoundKind { kAllreduce, kReduceScatter, kAllgather };
  std::map<std::tuple<std::size_t, int, int>, BoundAlgorithm> algorithms_;
  std::unique_ptr<gloo::Algorithm> bcube_fence_;
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::GlooCommunicator)

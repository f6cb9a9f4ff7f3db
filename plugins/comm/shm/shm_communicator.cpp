// The "shm" backend: ranks of one host allreduce through a shared segment (shm_allreduce.h),
// reading each other's data directly instead of sending messages. A group that spans hosts is
// declined (the trial is skipped, naming the hosts). Params: chunk_bytes (the pipelining unit
// and each rank's slot in the segment, default 256 KiB; larger buffers go through in chunks),
// one_shot_max_bytes (default 8 KiB: buffers up to this size are summed in one meeting),
// provide_memory (default true: the host's buffers are placed in segments every rank maps;
// false: the host's own memory), in_place (default false: buffers in provided memory larger than
// a chunk are staged like any others; true: reduced in place, each rank reading its peers'
// buffers, without staging copies), cross_memory (default false) and cross_memory_min_bytes
// (default 1 MiB): buffers in the host's own memory of at least that size are read from the peers
// by cross-memory attach where the kernel allows it (probed at init) instead of being staged.
// Cross-memory attach costs a system call and page pinning per chunk, which staging does not,
// hence off by default (docs/benchmarks.md, "Figures behind the defaults"); so is reducing in
// place: the peers' buffers are read long after they were written, from memory or a far cache,
// while a staged chunk is read just after its owner wrote it, from a near one (the figures:
// docs/benchmarks.md, "Figures behind the defaults"). reduce_scatter,
// allgather and alltoall go through the segment's slots too (shm_collectives.h).
#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>

#include "cross_memory.h"
#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/group_hosts.h"
#include "harness/plugin/half_float.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "provided_memory.h"
#include "shared_segment.h"
#include "shm_allreduce.h"
#include "shm_collectives.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::Status;

class ShmCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "shm";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "shared-memory allreduce within one host: reduce-scatter + allgather through a segment "
      "every rank maps, chunked, flag-synchronised";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = plugin::every_dtype();

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = kDTypes;
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit ShmCommunicator(const nlohmann::json& json) {
    plugin::Params params(json, {"chunk_bytes", "one_shot_max_bytes", "provide_memory", "in_place",
                                 "cross_memory", "cross_memory_min_bytes", "spin_us", "yield_us",
                                 "idle"});
    chunk_bytes_ =
        static_cast<std::size_t>(params.integer("chunk_bytes", 256 * 1024, 64, 1LL << 30));
    const auto half_chunk = static_cast<long long>(chunk_bytes_ / 2);
    one_shot_max_bytes_ = static_cast<std::size_t>(params.integer(
        "one_shot_max_bytes", std::min(kOneShotMaxBytes, half_chunk), 0, half_chunk));
    provide_memory_ = params.boolean("provide_memory", true);
    in_place_ = params.boolean("in_place", false);
    // in_place only changes how buffers in provided memory are reduced: without provided
    // memory it would be accepted and silently do nothing.
    if (params.has("in_place") && !provide_memory_)
      throw std::invalid_argument(
          "/in_place: not read when provide_memory is false (it reduces buffers in the memory "
          "this backend provides, in place); remove it, or set provide_memory to true");
    cross_memory_ = params.boolean("cross_memory", false);
    cross_memory_min_bytes_ =
        static_cast<std::size_t>(params.integer("cross_memory_min_bytes", 1 << 20, 1, 1LL << 40));
    wait_.spin_us = params.number("spin_us", wait_.spin_us, 0, 1e6);
    wait_.yield_us = params.number("yield_us", wait_.yield_us, 0, 1e6);
    const std::string idle = params.string("idle", "yield");
    if (idle != "sleep" && idle != "yield")
      throw std::invalid_argument("/idle: \"" + idle +
                                  "\", expected \"sleep\" (a waiting rank sleeps until its peer "
                                  "arrives) or \"yield\" (it yields its core in a loop)");
    wait_.sleep = idle == "sleep";
  }

  // The ranks meet through the group's bootstrap only, never MPI: shm runs under the
  // harness's mpirun and in PyTorch's process group alike.
  Status init(const plugin::GroupInit& group) noexcept override {
    return plugin::guarded([&] {
      if (!group.bootstrap)
        return Status::internal("shm: the host gave no bootstrap (a host of plugin API 5 does)");
      bootstrap_ = group.bootstrap;
      size_ = group.size;
      rank_ = group.rank;
      if (Status s = check_one_host(); !s.is_ok()) return s;
      const std::string problem =
          segment_.map(*bootstrap_, ShmAllreduce::segment_bytes(size_, chunk_bytes_));
      if (!problem.empty()) return Status::unavailable(problem);
      reduce_ = std::make_unique<ShmAllreduce>(segment_.data(), rank_, size_, chunk_bytes_, wait_);
      memory_ = std::make_unique<ProvidedMemory>(rank_, size_);
      if (cross_memory_ && size_ > 1)
        cross_memory_problem_ = probe_cross_memory_attach(*bootstrap_);
      return Status::ok();
    });
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (buffer.dtype) {
        case DType::kFloat32: return reduce(static_cast<float*>(buffer.data), buffer, options.op);
        case DType::kFloat64: return reduce(static_cast<double*>(buffer.data), buffer, options.op);
        case DType::kFloat16:
          return reduce(static_cast<plugin::Float16*>(buffer.data), buffer, options.op);
        case DType::kBFloat16:
          return reduce(static_cast<plugin::BFloat16*>(buffer.data), buffer, options.op);
      }
      return Status::unsupported("shm: unknown element type");
    });
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    return agreed(shm_broadcast(*reduce_, rank_, root, static_cast<unsigned char*>(buffer.data),
                                buffer.bytes(), plugin::dtype_size(buffer.dtype)),
                  "broadcast");
  }

  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: return scatter<float>(input, output, options.op);
        case DType::kFloat64: return scatter<double>(input, output, options.op);
        case DType::kFloat16: return scatter<plugin::Float16>(input, output, options.op);
        case DType::kBFloat16: return scatter<plugin::BFloat16>(input, output, options.op);
      }
      return Status::unsupported("shm: unknown element type");
    });
  }

  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    return agreed(shm_allgather(*reduce_, size_, static_cast<const unsigned char*>(input.data),
                                static_cast<unsigned char*>(output.data), input.bytes(),
                                plugin::dtype_size(input.dtype)),
                  "allgather");
  }

  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    return agreed(
        shm_alltoall(*reduce_, rank_, size_, static_cast<const unsigned char*>(input.data),
                     static_cast<unsigned char*>(output.data),
                     input.bytes() / static_cast<std::size_t>(size_),
                     plugin::dtype_size(input.dtype)),
        "alltoall");
  }

  Status barrier() noexcept override {
    if (!reduce_) return Status::invalid_argument("communicator not initialised");
    reduce_->barrier();
    return Status::ok();
  }

  std::string describe() const override {
    std::string text = "shared-memory reduce-scatter+allgather, chunk " +
                       std::to_string(chunk_bytes_) + " B" +
                       (provide_memory_ ? ", provides memory" : "") +
                       (provide_memory_ && in_place_ ? ", reduced in place" : "");
    if (!cross_memory_) return text;
    if (!cross_memory_problem_.empty())
      return text + ", no cross-memory attach (" + cross_memory_problem_ + ")";
    return text + ", cross-memory attach from " + std::to_string(cross_memory_min_bytes_) + " B";
  }

  void* provide_memory(std::size_t bytes) noexcept override {
    if (!provide_memory_ || !memory_ || size_ < 2) return nullptr;
    try {
      return memory_->allocate(*bootstrap_, bytes);
    } catch (...) {
      return nullptr;
    }
  }

  void release_memory(void* memory) noexcept override {
    if (memory_) memory_->release(memory);
  }

 private:
  // Declined (skipped), not failed, when the group spans hosts: shm is an intra-host backend.
  Status check_one_host() {
    bool one_host = false;
    if (Status s = plugin::whole_group_on_one_host(*bootstrap_, &one_host); !s.is_ok())
      return Status::internal("shm: " + s.message());
    if (one_host) return Status::ok();
    return Status::unsupported("shm: the group's " + std::to_string(size_) +
                               " ranks are not all on one host; shm reduces within a host only");
  }

  template <class T>
  Status reduce(T* data, const BufferView& buffer, plugin::ReduceOp op) {
    if (size_ > 1) {
      if (Status s = sum(data, buffer); !s.is_ok()) return s;
    }
    if (op == plugin::ReduceOp::kAvg && size_ > 1)
      plugin::divide_in_place(data, buffer.count, size_);
    return Status::ok();
  }

  // In place when asked for, where every rank's buffer lies in provided memory and is larger
  // than a chunk (one chunk is staged faster: two meetings instead of three); small buffers in one
  // meeting (sum_one_shot); else large buffers by cross-memory attach when asked for and the kernel
  // allows it; the rest staged through the segment. Ranks that disagree (element count or type;
  // in place, provided memory on some ranks only) fail alike.
  template <class T>
  Status sum(T* data, const BufferView& buffer) {
    using Path = ShmAllreduce::Path;
    const ProvidedMemory::Place place = memory_->find(data, buffer.bytes());
    if (in_place_ && place.allocation != 0 && buffer.bytes() > chunk_bytes_) {
      const ShmAllreduce::Call call{Path::kProvided, place.allocation, place.offset, buffer.count,
                                    sizeof(T), 0, ShmAllreduce::element_type<T>()};
      if (reduce_->sum_in_place<T>(call, [&](int r) { return memory_->at(place, r); }))
        return Status::ok();
      return disagreement();
    }
    if (buffer.bytes() <= one_shot_max_bytes_)
      return reduce_->sum_one_shot(data, buffer.count) ? Status::ok() : disagreement();
    if (cross_memory_ && cross_memory_problem_.empty() &&
        buffer.bytes() >= cross_memory_min_bytes_) {
      std::string why;
      if (reduce_->sum_by_cross_memory(data, buffer.count, &why)) return Status::ok();
      return Status::internal("shm: cross-memory attach failed: " + why);
    }
    return reduce_->sum(data, buffer.count) ? Status::ok() : disagreement();
  }

  static Status disagreement() {
    return Status::invalid_argument(
        "shm: the ranks' buffers differ in element count or type, or lie in the memory shm "
        "provided on some ranks and not on others");
  }

  template <class T>
  Status scatter(const BufferView& input, const BufferView& output, plugin::ReduceOp op) {
    T* out = static_cast<T*>(output.data);
    const bool done = shm_reduce_scatter_sum(*reduce_, rank_, size_,
                                             static_cast<const T*>(input.data), out, output.count);
    if (done && op == plugin::ReduceOp::kAvg && size_ > 1)
      plugin::divide_in_place(out, output.count, size_);
    return agreed(done, "reduce_scatter");
  }

  static Status agreed(bool done, const char* collective) {
    if (done) return Status::ok();
    return Status::invalid_argument(std::string("shm ") + collective +
                                    ": the ranks' calls differ (collective, count or dtype)");
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  Status check(const BufferView& buffer) const {
    if (!reduce_) return Status::invalid_argument("communicator not initialised");
    return plugin::check_buffer(buffer, "shm", plugin::DeviceKind::kCpu, kDTypes, SIZE_MAX);
  }

  // Up to here one meeting's extra reads (every rank sums every element) cost less than the
  // second meeting they save (docs/benchmarks.md, "The shared-memory backend").
  static constexpr long long kOneShotMaxBytes = 8 * 1024;
  std::size_t chunk_bytes_ = 0;
  std::size_t one_shot_max_bytes_ = 0;
  plugin::Bootstrap* bootstrap_ = nullptr;  // the host's, valid while this communicator lives
  int size_ = 1;
  int rank_ = 0;
  SharedSegment segment_;
  std::unique_ptr<ShmAllreduce> reduce_;
  bool provide_memory_ = true;
  bool in_place_ = false;
  std::unique_ptr<ProvidedMemory> memory_;
  bool cross_memory_ = false;
  std::size_t cross_memory_min_bytes_ = 0;
  WaitPolicy wait_;  // how a rank waits for its peers (spin_us, idle)
  std::string cross_memory_problem_;  // why the kernel refused it at init, or ""
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::ShmCommunicator)

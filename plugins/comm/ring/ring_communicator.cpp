// The "ring" backend: ring_allreduce over point-to-point links, as a reference implementation
// beside the libraries' own; its halves are the reduce-scatter and the allgather, alltoall is
// pairwise exchange. Under the harness the links are MPI's; in a group without MPI (PyTorch's
// process group) they are TCP connections made through the group's bootstrap.
// Params: chunk_bytes (pipelining unit, default 256 KiB).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>

#include "harness/plugin/buffer_checks.h"
#include "harness/plugin/communicator.h"
#include "harness/plugin/half_float.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"
#include "mpi_links.h"
#include "ring_allreduce.h"
#include "tcp_links.h"

namespace harness::plugins {

using plugin::BufferView;
using plugin::Collective;
using plugin::DType;
using plugin::Status;

// A reduction's element type in the links' headers for its exchanges (PeerLinks::set_element_tag),
// back to untagged bytes after it.
class ElementTag {
 public:
  ElementTag(PeerLinks& links, DType dtype) : links_(links) {
    links_.set_element_tag(static_cast<std::uint8_t>(static_cast<int>(dtype) + 1));
  }
  ~ElementTag() { links_.set_element_tag(0); }
  ElementTag(const ElementTag&) = delete;
  ElementTag& operator=(const ElementTag&) = delete;

 private:
  PeerLinks& links_;
};

class RingCommunicator final : public plugin::Communicator {
 public:
  static constexpr const char* kName = "ring";
  static constexpr const char* kVersion = "1.0.0";
  static constexpr const char* kDescription =
      "textbook ring allreduce (reduce-scatter + allgather, chunked) over point-to-point links";

  // The element types it reduces: its capabilities list them, its buffer check accepts them.
  inline static const std::vector<DType> kDTypes = plugin::every_dtype();

  static plugin::CommunicatorCapabilities capabilities() {
    plugin::CommunicatorCapabilities c;
    c.dtypes = kDTypes;
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit RingCommunicator(const nlohmann::json& json) {
    plugin::Params params(json, {"chunk_bytes"});
    options_.chunk_bytes =
        static_cast<std::size_t>(params.integer("chunk_bytes", 256 * 1024, 64, 1LL << 34));
  }

  Status init(const plugin::GroupInit& group) noexcept override {
    return plugin::guarded([&] {
      size_ = group.size;
      rank_ = group.rank;
      if (group.comm != MPI_COMM_NULL) {
        links_ = std::make_unique<MpiLinks>(group.comm);
        return Status::ok();
      }
      if (!group.bootstrap)
        return Status::internal("ring: a group without MPI and without a bootstrap");
      auto tcp = std::make_unique<TcpLinks>();
      if (Status s = tcp->connect(*group.bootstrap); !s.is_ok()) return s;
      links_ = std::move(tcp);
      return Status::ok();
    });
  }

  Status allreduce(BufferView buffer, const plugin::AllreduceOptions& options) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (buffer.dtype) {
        case DType::kFloat32: return reduce(buffer, options.op, &scratch32_);
        case DType::kFloat64: return reduce(buffer, options.op, &scratch64_);
        case DType::kFloat16: return reduce(buffer, options.op, &scratch_fp16_);
        case DType::kBFloat16: return reduce(buffer, options.op, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  Status broadcast(BufferView buffer, int root) noexcept override {
    if (Status s = check(buffer); !s.is_ok()) return s;
    if (Status s = plugin::check_root(root, size_); !s.is_ok()) return s;
    if (buffer.count == 0) return Status::ok();
    return links_->broadcast(buffer.data, buffer.bytes(), root);
  }

  Status reduce_scatter(BufferView input, BufferView output,
                        const plugin::CollectiveOptions& options) noexcept override {
    if (Status s = check_pair(Collective::kReduceScatter, input, output); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: return scatter(input, output, options.op, &scratch32_);
        case DType::kFloat64: return scatter(input, output, options.op, &scratch64_);
        case DType::kFloat16: return scatter(input, output, options.op, &scratch_fp16_);
        case DType::kBFloat16: return scatter(input, output, options.op, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  Status allgather(BufferView input, BufferView output,
                   const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAllgather, input, output); !s.is_ok()) return s;
    return plugin::guarded([&] {
      switch (input.dtype) {
        case DType::kFloat32: return gather(input, output, &scratch32_);
        case DType::kFloat64: return gather(input, output, &scratch64_);
        case DType::kFloat16: return gather(input, output, &scratch_fp16_);
        case DType::kBFloat16: return gather(input, output, &scratch_bf16_);
      }
      return Status::unsupported("ring: unknown element type");
    });
  }

  // Not a ring: n - 1 pairwise exchanges, step s with the ranks s to the right and left.
  Status alltoall(BufferView input, BufferView output,
                  const plugin::CollectiveOptions&) noexcept override {
    if (Status s = check_pair(Collective::kAlltoall, input, output); !s.is_ok()) return s;
    const std::size_t block = input.bytes() / static_cast<std::size_t>(size_);
    const auto* in = static_cast<const char*>(input.data);
    auto* out = static_cast<char*>(output.data);
    std::memcpy(out + block * rank_, in + block * rank_, block);
    for (int s = 1; s < size_; ++s) {
      const int to = (rank_ + s) % size_, from = (rank_ - s + size_) % size_;
      Status step = links_->exchange(to, in + block * to, block, from, out + block * from, block,
                                     options_.chunk_bytes, nullptr);
      if (!step.is_ok()) return with_prefix(step, "ring alltoall: ");
    }
    return Status::ok();
  }

  Status barrier() noexcept override {
    if (!links_) return Status::invalid_argument("communicator not initialised");
    return links_->barrier();
  }

  std::string describe() const override {
    return "ring reduce-scatter+allgather, chunk " + std::to_string(options_.chunk_bytes) + " B" +
           (links_ && !dynamic_cast<MpiLinks*>(links_.get()) ? ", over " + links_->describe()
                                                             : std::string());
  }

 private:
  template <class T>
  Status reduce(const BufferView& buffer, plugin::ReduceOp op, std::vector<T>* scratch) {
    T* data = static_cast<T*>(buffer.data);
    const ElementTag tagged(*links_, buffer.dtype);
    Status summed = ring_allreduce_sum(data, buffer.count, group(), options_, scratch);
    if (!summed.is_ok()) return with_prefix(summed, "ring allreduce: ");
    if (op == plugin::ReduceOp::kAvg && size_ > 1)
      plugin::divide_in_place(data, buffer.count, size_);
    return Status::ok();
  }

  // The input copied into a whole-size buffer, reduced there, block `rank` copied out.
  template <class T>
  Status scatter(const BufferView& input, const BufferView& output, plugin::ReduceOp op,
                 std::vector<T>* scratch) {
    whole_.resize(input.bytes());  // operator new's alignment suits every element type
    T* whole = reinterpret_cast<T*>(whole_.data());
    std::memcpy(whole, input.data, input.bytes());
    const ElementTag tagged(*links_, input.dtype);
    Status summed = ring_reduce_scatter_sum(whole, input.count, group(), options_, scratch);
    if (!summed.is_ok()) return with_prefix(summed, "ring reduce_scatter: ");
    T* mine = static_cast<T*>(output.data);
    std::memcpy(mine, whole + output.count * rank_, output.bytes());
    if (op == plugin::ReduceOp::kAvg && size_ > 1)
      plugin::divide_in_place(mine, output.count, size_);
    return Status::ok();
  }

  template <class T>
  Status gather(const BufferView& input, const BufferView& output, std::vector<T>* scratch) {
    T* all = static_cast<T*>(output.data);
    std::memcpy(all + input.count * rank_, input.data, input.bytes());
    Status gathered = ring_allgather(all, output.count, group(), options_, scratch);
    return gathered.is_ok() ? gathered : with_prefix(gathered, "ring allgather: ");
  }

  Status check_pair(Collective collective, const BufferView& input,
                    const BufferView& output) const {
    return plugin::check_pair([this](const BufferView& b) { return check(b); }, collective, input,
                              output, size_);
  }

  Status check(const BufferView& buffer) const {
    if (!links_) return Status::invalid_argument("communicator not initialised");
    // Chunks are sent with int counts; the total may exceed INT32_MAX.
    return plugin::check_buffer(buffer, "ring", plugin::DeviceKind::kCpu, kDTypes, SIZE_MAX);
  }

  RingGroup group() const { return {rank_, size_, links_.get()}; }

  static Status with_prefix(const Status& status, const std::string& prefix) {
    return Status::internal(prefix + status.message());
  }

  RingOptions options_;
  std::unique_ptr<PeerLinks> links_;
  int size_ = 1;
  int rank_ = 0;
  std::vector<float> scratch32_;
  std::vector<double> scratch64_;
  std::vector<plugin::Float16> scratch_fp16_;
  std::vector<plugin::BFloat16> scratch_bf16_;
  std::vector<std::byte> whole_;  // reduce_scatter's copy of its input
};

}  // namespace harness::plugins

HARNESS_REGISTER_COMMUNICATOR(harness::plugins::RingCommunicator)

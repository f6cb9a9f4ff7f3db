// Library-neutral buffer description shared by communicator plugins and the host.
#pragma once

#include <cstddef>
#include <cstdint>

namespace harness::plugin {

enum class DType { kFloat32, kFloat64, kFloat16, kBFloat16 };
enum class ReduceOp { kSum, kAvg };
enum class DeviceKind { kCpu, kCuda };

// The collectives a communicator may offer (API 4). Sizes follow nccl-tests: a buffer of
// `count` elements in total, each rank's share count / ranks where the collective splits it.
enum class Collective { kAllreduce, kReduceScatter, kAllgather, kBroadcast, kAlltoall };

inline std::size_t dtype_size(DType dtype) noexcept {
  switch (dtype) {
    case DType::kFloat32: return 4;
    case DType::kFloat64: return 8;
    case DType::kFloat16: return 2;
    case DType::kBFloat16: return 2;
  }
  return 0;
}

inline const char* dtype_name(DType dtype) noexcept {
  switch (dtype) {
    case DType::kFloat32: return "fp32";
    case DType::kFloat64: return "fp64";
    case DType::kFloat16: return "fp16";
    case DType::kBFloat16: return "bf16";
  }
  return "?";
}

inline const char* reduce_op_name(ReduceOp op) noexcept {
  return op == ReduceOp::kSum ? "sum" : "avg";
}

inline const char* collective_name(Collective collective) noexcept {
  switch (collective) {
    case Collective::kAllreduce: return "allreduce";
    case Collective::kReduceScatter: return "reduce_scatter";
    case Collective::kAllgather: return "allgather";
    case Collective::kBroadcast: return "broadcast";
    case Collective::kAlltoall: return "alltoall";
  }
  return "?";
}

inline const char* device_kind_name(DeviceKind device) noexcept {
  return device == DeviceKind::kCpu ? "cpu" : "cuda";
}

// A contiguous buffer the communicator reduces in place. It does not own the memory.
struct BufferView {
  void* data = nullptr;
  std::size_t count = 0;  // elements, not bytes
  DType dtype = DType::kFloat32;
  DeviceKind device = DeviceKind::kCpu;
  int device_index = 0;

  std::size_t bytes() const noexcept { return count * dtype_size(dtype); }
};

}  // namespace harness::plugin

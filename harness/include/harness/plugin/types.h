// Library-neutral buffer description shared by communicator plugins and the host.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <vector>

namespace harness::plugin {

enum class DType { kFloat32, kFloat64, kFloat16, kBFloat16 };
enum class ReduceOp { kSum, kAvg };
enum class DeviceKind { kCpu, kCuda };

// The collectives a communicator may offer (API 4). Sizes follow nccl-tests: a buffer of
// `count` elements in total, each rank's share count / ranks where the collective splits it.
enum class Collective { kAllreduce, kReduceScatter, kAllgather, kBroadcast, kAlltoall };

// Every element type, once, in DType's order: its name (in experiment files, records and
// messages), its size, and torch's name for it (torch.float32 without "torch.", as a captured
// job names its parameters' types). Everything that lists or names element types reads this
// table, as gloo and nccl-tests keep one table of their ops.
struct ElementTypeRow {
  DType dtype;
  const char* name;
  std::size_t size;
  const char* torch_name;
};
inline constexpr ElementTypeRow kElementTypes[] = {{DType::kFloat32, "fp32", 4, "float32"},
                                                   {DType::kFloat64, "fp64", 8, "float64"},
                                                   {DType::kFloat16, "fp16", 2, "float16"},
                                                   {DType::kBFloat16, "bf16", 2, "bfloat16"}};

constexpr bool rows_follow_dtype_order() {
  for (std::size_t i = 0; i < std::size(kElementTypes); ++i)
    if (static_cast<std::size_t>(kElementTypes[i].dtype) != i) return false;
  return true;
}
static_assert(rows_follow_dtype_order(), "kElementTypes: one row per DType, in DType's order");

inline const ElementTypeRow* element_type_row(DType dtype) noexcept {
  const auto index = static_cast<std::size_t>(dtype);
  return index < std::size(kElementTypes) ? &kElementTypes[index] : nullptr;
}

inline std::size_t dtype_size(DType dtype) noexcept {
  const ElementTypeRow* row = element_type_row(dtype);
  return row ? row->size : 0;
}

inline const char* dtype_name(DType dtype) noexcept {
  const ElementTypeRow* row = element_type_row(dtype);
  return row ? row->name : "?";
}

// Every element type: the list of a communicator that reduces them all.
inline std::vector<DType> every_dtype() {
  std::vector<DType> dtypes;
  for (const ElementTypeRow& row : kElementTypes) dtypes.push_back(row.dtype);
  return dtypes;
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

// Argument checks every communicator makes, with the same messages everywhere.
#pragma once

#include <algorithm>
#include <string>
#include <vector>

#include "harness/plugin/status.h"
#include "harness/plugin/types.h"

namespace harness::plugin {

// A buffer for `backend`: on `device`, of one of `dtypes` (the list its capabilities give),
// non-null unless empty, at most max_count elements.
inline Status check_buffer(const BufferView& buffer, const char* backend, DeviceKind device,
                           const std::vector<DType>& dtypes,
                           std::size_t max_count = static_cast<std::size_t>(INT32_MAX)) {
  if (buffer.device != device)
    return Status::unsupported(std::string(backend) + " backend needs " + device_kind_name(device) +
                               " buffers, got " + device_kind_name(buffer.device));
  if (std::find(dtypes.begin(), dtypes.end(), buffer.dtype) == dtypes.end())
    return Status::unsupported(std::string(backend) + " backend does not support " +
                               dtype_name(buffer.dtype));
  if (buffer.count > 0 && buffer.data == nullptr)
    return Status::invalid_argument("buffer of " + std::to_string(buffer.count) +
                                    " elements has a null data pointer");
  if (buffer.count > max_count)
    return Status::invalid_argument("buffer of " + std::to_string(buffer.count) +
                                    " elements exceeds " + backend + "'s limit of " +
                                    std::to_string(max_count));
  return Status::ok();
}

inline Status check_root(int root, int group_size) {
  if (root < 0 || root >= group_size)
    return Status::invalid_argument("broadcast root " + std::to_string(root) +
                                    " is outside the group of " + std::to_string(group_size));
  return Status::ok();
}

// The two buffers of a reduce_scatter, allgather or alltoall over `group_size` ranks: one element
// type, and the counts communicator.h gives each collective.
inline Status check_blocks(Collective collective, const BufferView& input,
                           const BufferView& output, int group_size) {
  if (input.dtype != output.dtype)
    return Status::invalid_argument(std::string(collective_name(collective)) + ": input is " +
                                    dtype_name(input.dtype) + ", output " +
                                    dtype_name(output.dtype));
  const std::size_t ranks = static_cast<std::size_t>(group_size);
  const bool fits = collective == Collective::kReduceScatter ? input.count == ranks * output.count
                    : collective == Collective::kAllgather   ? output.count == ranks * input.count
                    : input.count == output.count && input.count % ranks == 0;
  if (fits) return Status::ok();
  return Status::invalid_argument(std::string(collective_name(collective)) + " over " +
                                  std::to_string(group_size) + " ranks: input of " +
                                  std::to_string(input.count) + " and output of " +
                                  std::to_string(output.count) +
                                  " elements do not match (communicator.h gives the counts)");
}

// Both buffers of a reduce_scatter, allgather or alltoall: each as the backend's `check(buffer)`
// accepts one, then their counts and types (check_blocks).
template <class Check>
Status check_pair(const Check& check, Collective collective, const BufferView& input,
                  const BufferView& output, int group_size) {
  if (Status s = check(input); !s.is_ok()) return s;
  if (Status s = check(output); !s.is_ok()) return s;
  return check_blocks(collective, input, output, group_size);
}

}  // namespace harness::plugin

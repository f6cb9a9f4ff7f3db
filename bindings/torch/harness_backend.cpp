#include "harness_backend.h"

#include <Python.h>

#include <ATen/ATen.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <stdexcept>

#include "harness/plugin/torch_element_types.h"
#include "loader/plugin_registry.h"

namespace harness::torch_binding {
namespace {

// What this rank found, published to the others so that every rank fails alike, with the
// first failing rank's reason, or none does.
struct JoinNote {
  static constexpr std::size_t kBytes = 1024;
  char text[kBytes] = {0};  // "" when this rank is ready; else its problem
  char choice[256] = {0};   // "<plugin> <params> <world size>": the same on every rank
};

std::string first_problem(const std::vector<JoinNote>& notes, const JoinNote& mine) {
  for (std::size_t r = 0; r < notes.size(); ++r) {
    if (notes[r].text[0]) return "rank " + std::to_string(r) + ": " + std::string(notes[r].text);
  }
  for (std::size_t r = 0; r < notes.size(); ++r) {
    if (std::strncmp(notes[r].choice, mine.choice, sizeof mine.choice) != 0)
      return "the ranks disagree: rank " + std::to_string(r) + " asks for \"" +
             std::string(notes[r].choice) + "\" and this rank for \"" + mine.choice +
             "\" (backend, HARNESS_BACKEND_PARAMS, world size)";
  }
  return {};
}

}  // namespace

HarnessBackend::HarnessBackend(const c10::intrusive_ptr<c10d::Store>& store, int rank,
                                         int size, std::chrono::milliseconds timeout,
                                         const PluginChoice& choice)
    : c10d::Backend(rank, size),
      choice_(choice),
      bootstrap_(std::make_shared<StoreBootstrap>(store, rank, size)) {
  // What the harness's own command shows of its plugin folders (a typo in HARNESS_PLUGIN_PATH),
  // said here too: once, by rank 0.
  if (rank == 0)
    for (const std::string& warning : plugin_path_warnings())
      std::fprintf(stderr, "harness: warning: %s\n", warning.c_str());
  JoinNote mine;
  // The whole choice, hashed: parameters longer than the note are compared in full too.
  const std::string wanted = choice_.name + " " + choice_.params + " " + std::to_string(size);
  const std::string shown = wanted.size() < 200 ? wanted : wanted.substr(0, 180) + "...";
  (shown + " #" + std::to_string(std::hash<std::string>{}(wanted)))
      .copy(mine.choice, sizeof mine.choice - 1);
  std::string problem;
  std::vector<std::string> warnings;
  try {
    opened_ = open_backend(
        choice_,
        [store](const std::string& scope, int sub_rank, int sub_size) {
          return std::make_unique<StoreBootstrap>(store, sub_rank, sub_size, "harness/" + scope);
        },
        warnings);
  } catch (const std::exception& e) {
    problem = e.what();
  }
  if (rank == 0)
    for (const std::string& warning : warnings)
      std::fprintf(stderr, "harness: warning: %s\n", warning.c_str());
  problem.copy(mine.text, sizeof mine.text - 1);
  std::vector<JoinNote> notes(static_cast<std::size_t>(size));
  if (plugin::Status s = bootstrap_->allgather(&mine, notes.data(), sizeof mine); !s.is_ok())
    throw std::runtime_error("harness: joining the group failed: " + s.message());
  if (const std::string first = first_problem(notes, mine); !first.empty())
    throw std::runtime_error("harness: " + first);

  plugin::GroupInit group;
  group.rank = rank;
  group.size = size;
  const char* local_rank = std::getenv("LOCAL_RANK");
  group.local_rank = local_rank ? std::atoi(local_rank) : 0;
  group.bootstrap = bootstrap_.get();
  const plugin::Status joined = opened_.communicator->init(group);
  if (!joined.is_ok())
    throw std::runtime_error("harness:" + choice_.name +
                             " could not join the group: " + joined.message());
  std::weak_ptr<StoreBootstrap> peers = bootstrap_;
  queue_ = std::make_unique<CollectiveQueue>(
      timeout, CollectiveQueue::Peers{[peers] {
                                        auto shared = peers.lock();
                                        return shared ? shared->announced_failure() : std::string();
                                      },
                                      [peers](const std::string& message) {
                                        if (auto shared = peers.lock())
                                          shared->announce_failure(message);
                                      }});
}

// The queue's thread may need the GIL (to drop the last reference to a tensor Python owns, to
// run a future's Python callback): the group is never destroyed holding it.
HarnessBackend::~HarnessBackend() {
  PyThreadState* saved = Py_IsInitialized() && PyGILState_Check() ? PyEval_SaveThread() : nullptr;
  queue_.reset();
  if (saved) PyEval_RestoreThread(saved);
}

std::string HarnessBackend::describe() const {
  return choice_.name + ": " + (opened_.communicator ? opened_.communicator->describe() : std::string());
}

void HarnessBackend::unsupported(const std::string& call) const {
  throw std::runtime_error("harness:" + choice_.name + " does not support " + call +
                           " (the plugin API offers allreduce, broadcast, allgather, "
                           "reduce_scatter, alltoall with equal splits, and barrier); make this "
                           "call on a gloo group (dist.new_group(backend=\"gloo\"))");
}

void HarnessBackend::require(plugin::Collective collective) const {
  const auto& offered = opened_.capabilities.collectives;
  if (std::find(offered.begin(), offered.end(), collective) == offered.end())
    throw std::runtime_error("harness:" + choice_.name + " does not offer " +
                             plugin::collective_name(collective) +
                             " (not among the collectives it lists)");
}

const at::Tensor& HarnessBackend::single(const std::vector<at::Tensor>& tensors,
                                              const char* call) const {
  if (tensors.size() != 1)
    throw std::runtime_error("harness:" + choice_.name + " " + call + ": one tensor a call, got " +
                             std::to_string(tensors.size()) + "; call once per tensor");
  return tensors[0];
}

plugin::BufferView HarnessBackend::reduction_view(const at::Tensor& tensor,
                                                       const char* call) const {
  const std::string where = "harness:" + choice_.name + " " + call;
  check_host_tensor(tensor, call);
  const auto dtype = plugin::dtype_of(tensor.scalar_type());
  const auto& offered = opened_.capabilities.dtypes;
  if (!dtype || std::find(offered.begin(), offered.end(), *dtype) == offered.end()) {
    std::string names;
    for (plugin::DType d : offered)
      names += (names.empty() ? "" : ", ") + std::string(plugin::dtype_name(d));
    throw std::runtime_error(where + ": " + std::string(c10::toString(tensor.scalar_type())) +
                             " is not reduced by " + choice_.name + " (it reduces " + names +
                             "); reduce a copy of one of those types, e.g. tensor.double()");
  }
  return {tensor.data_ptr(), static_cast<std::size_t>(tensor.numel()), *dtype};
}

// The largest element type the plugin moves whose size divides `bytes`, if any.
std::optional<plugin::DType> HarnessBackend::carrier_for(std::size_t bytes) const {
  std::optional<plugin::DType> carrier;
  for (plugin::DType d : opened_.capabilities.dtypes) {
    const std::size_t size = plugin::dtype_size(d);
    if (bytes % size == 0 && (!carrier || size > plugin::dtype_size(*carrier))) carrier = d;
  }
  return carrier;
}

void HarnessBackend::check_host_tensor(const at::Tensor& tensor, const char* call) const {
  const std::string where = "harness:" + choice_.name + " " + call;
  if (!tensor.device().is_cpu())
    throw std::runtime_error(where + ": CPU tensors only (this backend is registered for cpu; "
                             "move the tensor with .cpu(), or give CUDA tensors to nccl)");
  if (!tensor.is_contiguous())
    throw std::runtime_error(where + ": the tensor is not contiguous; pass tensor.contiguous()");
}

// For the collectives that move bytes without adding them: any element type, carried as
// elements of a type the plugin accepts whose size divides the tensor's bytes (a tensor whose
// bytes fill none goes through padded_bytes instead).
plugin::BufferView HarnessBackend::bytes_view(const at::Tensor& tensor, const char* call,
                                                   std::size_t blocks) const {
  if (auto dtype = plugin::dtype_of(tensor.scalar_type())) {
    const auto& offered = opened_.capabilities.dtypes;
    if (std::find(offered.begin(), offered.end(), *dtype) != offered.end())
      return reduction_view(tensor, call);
  }
  check_host_tensor(tensor, call);
  const std::size_t bytes = static_cast<std::size_t>(tensor.nbytes());
  const std::optional<plugin::DType> carrier = carrier_for(bytes / blocks);
  if (!carrier)
    throw std::runtime_error("harness:" + choice_.name + " " + call + ": " + std::to_string(bytes) +
                             " bytes fill no whole element of a type " + choice_.name + " moves");
  return {tensor.data_ptr(), bytes / plugin::dtype_size(*carrier), *carrier};
}

namespace {

// A contiguous tensor's bytes, as a flat uint8 view of its storage.
at::Tensor bytes_of(const at::Tensor& tensor) { return tensor.reshape({-1}).view(at::kByte); }

constexpr std::size_t kPadTo = 4;  // bytes: whole fp32 elements, which every CPU plugin moves

at::Tensor padded_copy(const at::Tensor& bytes) {
  const auto size = static_cast<std::size_t>(bytes.numel());
  at::Tensor padded =
      at::zeros({static_cast<int64_t>((size + kPadTo - 1) / kPadTo * kPadTo)}, bytes.options());
  padded.narrow(0, 0, bytes.numel()).copy_(bytes);
  return padded;
}

plugin::BufferView fp32_view(const at::Tensor& padded) {
  return {padded.data_ptr(), static_cast<std::size_t>(padded.numel()) / kPadTo,
          plugin::DType::kFloat32};
}

}  // namespace

// Whether a byte-moving collective of `tensor` must go through a padded copy: its bytes fill no
// whole element of a type the plugin moves (an odd count of bytes, as torch.distributed's object
// collectives send).
bool HarnessBackend::needs_padding(const at::Tensor& tensor, std::size_t blocks) const {
  if (carrier_for(static_cast<std::size_t>(tensor.nbytes()) / blocks)) return false;
  const auto& offered = opened_.capabilities.dtypes;
  if (std::find(offered.begin(), offered.end(), plugin::DType::kFloat32) == offered.end())
    throw std::runtime_error("harness:" + choice_.name + ": " + std::to_string(tensor.nbytes()) +
                             " bytes fill no whole element of a type it moves");
  return true;
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::allgather_padded(
    c10d::OpType type, const at::Tensor& input, std::vector<at::Tensor> blocks,
    std::vector<at::Tensor> outputs) {
  const at::Tensor staged = padded_copy(bytes_of(input.contiguous()));
  const at::Tensor flat = at::empty({getSize() * staged.numel()}, staged.options());
  const plugin::BufferView in = fp32_view(staged), out = fp32_view(flat);
  return launch(
      type, "allgather", std::move(outputs), [comm = opened_.communicator, in, out, staged, flat, blocks] {
        const plugin::Status status = comm->allgather(in, out, {});
        if (!status.is_ok()) return status;
        for (std::size_t r = 0; r < blocks.size(); ++r)
          blocks[r].copy_(
              flat.narrow(0, static_cast<int64_t>(r) * staged.numel(), blocks[r].numel()));
        return status;
      });
}

// `tensor` as elements of `like`'s type: the other side of a collective whose one side is `like`
// (an allgather's output, `world size` times its input's bytes).
plugin::BufferView HarnessBackend::view_like(const at::Tensor& tensor,
                                                  const plugin::BufferView& like,
                                                  const char* call) const {
  bytes_view(tensor, call);  // the same checks
  return {tensor.data_ptr(),
          static_cast<std::size_t>(tensor.nbytes()) / plugin::dtype_size(like.dtype), like.dtype};
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::launch(c10d::OpType type, const char* call,
                                                           std::vector<at::Tensor> outputs,
                                                           CollectiveQueue::Run run) {
  auto work = c10::make_intrusive<CollectiveWork>(getRank(), type, std::move(outputs));
  queue_->enqueue(work, "harness:" + choice_.name + " " + call, std::move(run));
  return work;
}

plugin::CollectiveOptions HarnessBackend::reduce_op(c10d::ReduceOp op, at::ScalarType type,
                                                     const char* call) const {
  plugin::CollectiveOptions options;
  if (op == c10d::ReduceOp::SUM) return options;
  if (op != c10d::ReduceOp::AVG)
    unsupported(std::string(call) + " with this reduce op (sum and avg only)");
  if (at::isIntegralType(type, /*includeBool=*/true))
    throw std::runtime_error("harness:" + choice_.name + " " + call + ": an average of " +
                             std::string(c10::toString(type)) +
                             " has no integer result; sum it and divide, or average a float "
                             "copy (tensor.double())");
  options.op = plugin::ReduceOp::kAvg;
  return options;
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::allreduce(std::vector<at::Tensor>& tensors,
                                                         const c10d::AllreduceOptions& options) {
  const at::Tensor& tensor = single(tensors, "allreduce");
  const plugin::CollectiveOptions op = reduce_op(options.reduceOp, tensor.scalar_type(), "allreduce");
  if (at::isIntegralType(tensor.scalar_type(), /*includeBool=*/false))
    return integer_sum(c10d::OpType::ALLREDUCE, "allreduce", tensor, tensor);
  const plugin::BufferView view = reduction_view(tensor, "allreduce");
  return launch(c10d::OpType::ALLREDUCE, "allreduce", tensors,
                [comm = opened_.communicator, view, op] { return comm->allreduce(view, {op.op}); });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::allreduce_coalesced(
    std::vector<at::Tensor>& tensors, const c10d::AllreduceCoalescedOptions& options) {
  if (tensors.empty())
    throw std::runtime_error("harness:" + choice_.name + " allreduce_coalesced: no tensors");
  for (const at::Tensor& tensor : tensors) {
    check_host_tensor(tensor, "allreduce_coalesced");
    if (tensor.scalar_type() != tensors[0].scalar_type())
      throw std::runtime_error("harness:" + choice_.name +
                               " allreduce_coalesced: every tensor of one type (got " +
                               std::string(c10::toString(tensors[0].scalar_type())) + " and " +
                               std::string(c10::toString(tensor.scalar_type())) +
                               "); coalesce each type on its own");
  }
  const plugin::CollectiveOptions op =
      reduce_op(options.reduceOp, tensors[0].scalar_type(), "allreduce_coalesced");
  std::vector<at::Tensor> flat_parts;
  for (const at::Tensor& tensor : tensors) flat_parts.push_back(tensor.reshape({-1}));
  const at::Tensor flat = at::cat(flat_parts);
  const auto scatter_back = [tensors, flat] {
    int64_t offset = 0;
    for (const at::Tensor& tensor : tensors) {
      tensor.copy_(flat.narrow(0, offset, tensor.numel()).view(tensor.sizes()));
      offset += tensor.numel();
    }
  };
  if (at::isIntegralType(flat.scalar_type(), /*includeBool=*/false))
    return integer_sum(c10d::OpType::ALLREDUCE_COALESCED, "allreduce_coalesced", flat, flat,
                       scatter_back);
  const plugin::BufferView view = reduction_view(flat, "allreduce_coalesced");
  return launch(c10d::OpType::ALLREDUCE_COALESCED, "allreduce_coalesced", tensors,
                [comm = opened_.communicator, view, op, scatter_back] {
                  const plugin::Status status = comm->allreduce(view, {op.op});
                  if (status.is_ok()) scatter_back();
                  return status;
                });
}

// Integers (DDP's used-parameter counts, a job's step counters, a sharded job's integer
// buffers) summed through the widest float the plugin adds, staged when the call runs (not when
// it is queued: an earlier queued call may still write the tensor). One more element travels
// with them: each rank's largest |value|, summed, bounds every partial sum, so every rank knows
// alike whether the sum was exact. An exact sum that leaves the type's range wraps, as gloo's
// (and C's) integer sums do. `output` receives the sum (allreduce) or this rank's block of it
// (reduce_scatter: `input` holds world size blocks of `output`'s size); `then` runs after.
c10::intrusive_ptr<c10d::Work> HarnessBackend::integer_sum(c10d::OpType type, const char* call,
                                                           const at::Tensor& input,
                                                           const at::Tensor& output,
                                                           std::function<void()> then) {
  check_host_tensor(input, call);
  check_host_tensor(output, call);
  const auto& offered = opened_.capabilities.dtypes;
  const auto offers = [&](plugin::DType d) {
    return std::find(offered.begin(), offered.end(), d) != offered.end();
  };
  if (!offers(plugin::DType::kFloat64) && !offers(plugin::DType::kFloat32))
    throw std::runtime_error("harness:" + choice_.name + " " + call + ": " +
                             std::string(c10::toString(input.scalar_type())) +
                             " is summed through fp64 or fp32, and " + choice_.name +
                             " adds neither; use a plugin that does (shm, ring, gloo)");
  const bool wide = offers(plugin::DType::kFloat64);
  const plugin::DType carrier_dtype = wide ? plugin::DType::kFloat64 : plugin::DType::kFloat32;
  const at::ScalarType carrier = plugin::scalar_type_of(carrier_dtype);
  const double exact_below = wide ? 9007199254740992.0 : 16777216.0;  // 2^53, 2^24
  const int64_t block = input.numel() / (input.numel() == output.numel() ? 1 : getSize());
  const int64_t first = input.numel() == output.numel() ? 0 : getRank() * block;
  return launch(
      type, call, {output},
      [comm = opened_.communicator, input, output, carrier_dtype, carrier, exact_below, wide, block, first,
       then] {
        const int64_t n = input.numel();
        at::Tensor staged = at::empty({n + 1}, input.options().dtype(carrier));
        staged.narrow(0, 0, n).copy_(input.reshape({-1}));
        // In double: |INT64_MIN| has no int64.
        staged[n] = n ? input.to(at::kDouble).abs().max().item<double>() : 0.0;
        const plugin::BufferView view{staged.data_ptr(), static_cast<std::size_t>(n + 1),
                                      carrier_dtype};
        plugin::Status status = comm->allreduce(view, {});
        if (!status.is_ok()) return status;
        const double bound = staged[n].item<double>();
        if (bound >= exact_below)
          return plugin::Status::invalid_argument(
              "an integer sum is carried as " + std::string(c10::toString(carrier)) +
              ", exact while the ranks' largest |values| add up to less than 2^" +
              std::string(wide ? "53" : "24") + "; these add up to " + std::to_string(bound) +
              " (the tensor is left as it was; sum through a plugin's int64 path such as gloo's)");
        // Through int64, whose conversion to a narrower integer wraps as gloo's sum does.
        output.copy_(staged.narrow(0, first, block).to(at::kLong).view(output.sizes()));
        if (then) then();
        return status;
      });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::broadcast(
    std::vector<at::Tensor>& tensors, const c10d::BroadcastOptions& options) {
  const at::Tensor& tensor = single(tensors, "broadcast");
  const int root = static_cast<int>(options.rootRank);
  check_host_tensor(tensor, "broadcast");
  if (!needs_padding(tensor)) {
    const plugin::BufferView view = bytes_view(tensor, "broadcast");
    return launch(c10d::OpType::BROADCAST, "broadcast", tensors,
                  [comm = opened_.communicator, view, root] { return comm->broadcast(view, root); });
  }
  const at::Tensor bytes = bytes_of(tensor);
  const at::Tensor staged = padded_copy(bytes);
  const plugin::BufferView view = fp32_view(staged);
  return launch(c10d::OpType::BROADCAST, "broadcast", tensors,
                [comm = opened_.communicator, view, root, bytes, staged] {
                  const plugin::Status status = comm->broadcast(view, root);
                  if (status.is_ok()) bytes.copy_(staged.narrow(0, 0, bytes.numel()));
                  return status;
                });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::_allgather_base(at::Tensor& output,
                                                                    at::Tensor& input,
                                                                    const c10d::AllgatherOptions&) {
  require(plugin::Collective::kAllgather);
  if (output.numel() != input.numel() * getSize() || output.scalar_type() != input.scalar_type())
    throw std::runtime_error("harness:" + choice_.name +
                             " allgather: the output must hold world size × the input's "
                             "elements, of the input's type");
  check_host_tensor(output, "allgather");
  check_host_tensor(input, "allgather");
  if (needs_padding(input)) {
    const at::Tensor all = bytes_of(output);
    std::vector<at::Tensor> blocks;
    for (int r = 0; r < getSize(); ++r)
      blocks.push_back(all.narrow(0, r * static_cast<int64_t>(input.nbytes()),
                                  static_cast<int64_t>(input.nbytes())));
    return allgather_padded(c10d::OpType::_ALLGATHER_BASE, input, blocks, {output});
  }
  const plugin::BufferView in = bytes_view(input, "allgather");
  const plugin::BufferView out = view_like(output, in, "allgather");
  return launch(
      c10d::OpType::_ALLGATHER_BASE, "allgather", {output},
      [comm = opened_.communicator, in, out, keep = input] { return comm->allgather(in, out, {}); });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::allgather(
    std::vector<std::vector<at::Tensor>>& outputs, std::vector<at::Tensor>& inputs,
    const c10d::AllgatherOptions& options) {
  const at::Tensor& input = single(inputs, "allgather");
  if (outputs.size() != 1 || outputs[0].size() != static_cast<std::size_t>(getSize()))
    throw std::runtime_error("harness:" + choice_.name +
                             " allgather: one list of world size output tensors");
  require(plugin::Collective::kAllgather);
  if (needs_padding(input)) {
    std::vector<at::Tensor> blocks;
    for (const at::Tensor& target : outputs[0]) {
      check_host_tensor(target, "allgather");
      if (target.nbytes() != input.nbytes())
        throw std::runtime_error("harness:" + choice_.name +
                                 " allgather: every output tensor must have the input's size");
      blocks.push_back(bytes_of(target));
    }
    return allgather_padded(c10d::OpType::ALLGATHER, input, blocks, outputs[0]);
  }
  for (const at::Tensor& target : outputs[0])
    if (target.numel() != input.numel() || target.scalar_type() != input.scalar_type())
      throw std::runtime_error("harness:" + choice_.name +
                               " allgather: every output tensor must have the input's size "
                               "and type");
  const at::Tensor source = input.contiguous();
  at::Tensor flat = at::empty({getSize() * input.numel()}, input.options());
  const plugin::BufferView in = bytes_view(source, "allgather");
  const plugin::BufferView out = view_like(flat, in, "allgather");
  std::vector<at::Tensor> targets = outputs[0];
  (void)options;
  return launch(
      c10d::OpType::ALLGATHER, "allgather", targets,
      [comm = opened_.communicator, in, out, flat, targets, keep = source] {
        const plugin::Status status = comm->allgather(in, out, {});
        if (!status.is_ok()) return status;
        for (std::size_t r = 0; r < targets.size(); ++r)
          targets[r].copy_(flat.narrow(0, static_cast<int64_t>(r) * keep.numel(), keep.numel())
                               .view(targets[r].sizes()));
        return status;
      });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::_reduce_scatter_base(
    at::Tensor& output, at::Tensor& input, const c10d::ReduceScatterOptions& options) {
  require(plugin::Collective::kReduceScatter);
  if (input.numel() != output.numel() * getSize() || output.scalar_type() != input.scalar_type())
    throw std::runtime_error("harness:" + choice_.name +
                             " reduce_scatter: the input must hold world size × the "
                             "output's elements, of the output's type");
  const plugin::CollectiveOptions op =
      reduce_op(options.reduceOp, input.scalar_type(), "reduce_scatter");
  if (at::isIntegralType(input.scalar_type(), /*includeBool=*/false))
    return integer_sum(c10d::OpType::_REDUCE_SCATTER_BASE, "reduce_scatter", input, output);
  const plugin::BufferView in = reduction_view(input, "reduce_scatter");
  const plugin::BufferView out = reduction_view(output, "reduce_scatter");
  return launch(c10d::OpType::_REDUCE_SCATTER_BASE, "reduce_scatter", {output},
                [comm = opened_.communicator, in, out, op, keep = input] {
                  return comm->reduce_scatter(in, out, op);
                });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::reduce_scatter(
    std::vector<at::Tensor>& outputs, std::vector<std::vector<at::Tensor>>& inputs,
    const c10d::ReduceScatterOptions& options) {
  at::Tensor output = single(outputs, "reduce_scatter");
  if (inputs.size() != 1 || inputs[0].size() != static_cast<std::size_t>(getSize()))
    throw std::runtime_error("harness:" + choice_.name +
                             " reduce_scatter: one list of world size input tensors");
  std::vector<at::Tensor> flat_parts;
  for (const at::Tensor& part : inputs[0]) {
    if (part.numel() != output.numel() || part.scalar_type() != output.scalar_type())
      throw std::runtime_error("harness:" + choice_.name +
                               " reduce_scatter: every input part must have the output's size "
                               "and type");
    flat_parts.push_back(part.reshape({-1}));
  }
  at::Tensor flat = at::cat(flat_parts);
  return _reduce_scatter_base(output, flat, options);
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::alltoall_base(
    at::Tensor& output, at::Tensor& input, std::vector<int64_t>& output_split_sizes,
    std::vector<int64_t>& input_split_sizes, const c10d::AllToAllOptions&) {
  const auto equal_splits = [&](const std::vector<int64_t>& splits, const at::Tensor& tensor) {
    const int64_t rows = tensor.dim() > 0 ? tensor.size(0) : 1;
    return std::all_of(splits.begin(), splits.end(),
                       [&](int64_t split) { return split * getSize() == rows; });
  };
  if (!equal_splits(output_split_sizes, output) || !equal_splits(input_split_sizes, input))
    unsupported("alltoall with unequal split sizes (give equal splits, or none)");
  require(plugin::Collective::kAlltoall);
  check_host_tensor(input, "alltoall");
  check_host_tensor(output, "alltoall");
  if (input.nbytes() != output.nbytes() || input.numel() % getSize() != 0 ||
      output.scalar_type() != input.scalar_type())
    throw std::runtime_error("harness:" + choice_.name +
                             " alltoall: input and output of one size and type, divisible by "
                             "the world size");
  const auto world = static_cast<std::size_t>(getSize());
  if (!needs_padding(input, world)) {
    const plugin::BufferView in = bytes_view(input, "alltoall", world);
    const plugin::BufferView out = view_like(output, in, "alltoall");
    return launch(
        c10d::OpType::ALLTOALL_BASE, "alltoall", {output},
        [comm = opened_.communicator, in, out, keep = input] { return comm->alltoall(in, out, {}); });
  }
  // Each block padded to whole fp32 elements on its way, and unpadded at the other end.
  const int64_t block = static_cast<int64_t>(input.nbytes() / world);
  const int64_t padded = (block + static_cast<int64_t>(kPadTo) - 1) / static_cast<int64_t>(kPadTo) *
                         static_cast<int64_t>(kPadTo);
  const at::Tensor source = bytes_of(input), target = bytes_of(output);
  at::Tensor staged_in = at::zeros({padded * getSize()}, source.options());
  for (int64_t r = 0; r < getSize(); ++r)
    staged_in.narrow(0, r * padded, block).copy_(source.narrow(0, r * block, block));
  const at::Tensor staged_out = at::empty_like(staged_in);
  const plugin::BufferView in = fp32_view(staged_in), out = fp32_view(staged_out);
  return launch(
      c10d::OpType::ALLTOALL_BASE, "alltoall", {output},
      [comm = opened_.communicator, in, out, staged_in, staged_out, target, block, padded] {
        const plugin::Status status = comm->alltoall(in, out, {});
        if (!status.is_ok()) return status;
        for (int64_t r = 0; r * block < target.numel(); ++r)
          target.narrow(0, r * block, block).copy_(staged_out.narrow(0, r * padded, block));
        return status;
      });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::barrier(const c10d::BarrierOptions&) {
  return launch(c10d::OpType::BARRIER, "barrier", {},
                [comm = opened_.communicator] { return comm->barrier(); });
}

c10::intrusive_ptr<c10d::Work> HarnessBackend::reduce(std::vector<at::Tensor>&,
                                                           const c10d::ReduceOptions&) {
  unsupported("reduce");
}
c10::intrusive_ptr<c10d::Work> HarnessBackend::gather(std::vector<std::vector<at::Tensor>>&,
                                                           std::vector<at::Tensor>&,
                                                           const c10d::GatherOptions&) {
  unsupported("gather");
}
c10::intrusive_ptr<c10d::Work> HarnessBackend::scatter(std::vector<at::Tensor>&,
                                                            std::vector<std::vector<at::Tensor>>&,
                                                            const c10d::ScatterOptions&) {
  unsupported("scatter");
}
c10::intrusive_ptr<c10d::Work> HarnessBackend::send(std::vector<at::Tensor>&, int, int) {
  unsupported("send");
}
c10::intrusive_ptr<c10d::Work> HarnessBackend::recv(std::vector<at::Tensor>&, int, int) {
  unsupported("recv");
}

}  // namespace harness::torch_binding

// A real backend with one fault injected on one rank, for the tests of a failure on one rank:
// "faulty" loads the shipped plugin `inner` (with `inner_params`) and forwards every call to it,
// except that on rank `rank`, at the `call`-th call of `collective` ("any": every collective
// counts), it
//   error        makes the call, then returns an error (the backend took part, then failed);
//   error_alone  returns an error without making the call (its peers are left inside it);
//   nan, inf     makes the call, then writes NaN (or +inf) into one element of its output;
//   crash        raises SIGSEGV.
// With `repeat`, every call from that one on is faulted (a rank whose results are always wrong).
// Every other call on every rank is the inner backend's own.
#include <dlfcn.h>

#include <cmath>
#include <csignal>
#include <limits>
#include <memory>
#include <string>

#include "harness/plugin/communicator.h"
#include "harness/plugin/half_float.h"
#include "harness/plugin/params.h"
#include "harness/plugin/register.h"

namespace {

using harness::plugin::BufferView;
using harness::plugin::Collective;
using harness::plugin::CollectiveOptions;
using harness::plugin::Communicator;
using harness::plugin::DType;
using harness::plugin::Status;

using CreateFunction = Communicator* (*)(const char*, Status*);

// The inner plugin, opened once and never closed (its objects keep it in use).
std::unique_ptr<Communicator> create_inner(const std::string& name, const nlohmann::json& params) {
  const std::string path =
      std::string(HARNESS_PLUGIN_DIR) + "/libharness_comm_" + name + ".so";
  void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!library) throw std::invalid_argument("/inner: cannot open " + path + ": " + dlerror());
  auto create = reinterpret_cast<CreateFunction>(
      dlsym(library, harness::plugin::kCreateCommunicatorSymbol));
  if (!create) throw std::invalid_argument("/inner: " + path + " is no communicator plugin");
  Status status;
  std::unique_ptr<Communicator> inner(create(params.dump().c_str(), &status));
  if (!inner) throw std::invalid_argument("/inner_params: " + status.message());
  return inner;
}

void write_element(const BufferView& buffer, double value) {
  if (buffer.count == 0 || !buffer.data) return;
  const std::size_t i = buffer.count / 2;
  switch (buffer.dtype) {
    case DType::kFloat32: static_cast<float*>(buffer.data)[i] = static_cast<float>(value); break;
    case DType::kFloat64: static_cast<double*>(buffer.data)[i] = value; break;
    case DType::kFloat16:
      static_cast<harness::plugin::Float16*>(buffer.data)[i] =
          harness::plugin::to_float16(static_cast<float>(value));
      break;
    case DType::kBFloat16:
      static_cast<harness::plugin::BFloat16*>(buffer.data)[i] =
          harness::plugin::to_bfloat16(static_cast<float>(value));
      break;
  }
}

class FaultyCommunicator final : public Communicator {
 public:
  static constexpr const char* kName = "faulty";
  static constexpr const char* kVersion = "0.0.1";
  static constexpr const char* kDescription =
      "test plugin: a shipped backend with one fault (error, NaN, crash) on one rank";
  static harness::plugin::CommunicatorCapabilities capabilities() {
    harness::plugin::CommunicatorCapabilities c;
    c.dtypes = {DType::kFloat32, DType::kFloat64, DType::kFloat16, DType::kBFloat16};
    c.collectives = {Collective::kAllreduce, Collective::kReduceScatter, Collective::kAllgather,
                     Collective::kBroadcast, Collective::kAlltoall};
    return c;
  }

  explicit FaultyCommunicator(const nlohmann::json& json) {
    harness::plugin::Params params(
        json, {"inner", "inner_params", "rank", "call", "collective", "fault", "repeat"});
    rank_ = static_cast<int>(params.integer("rank", 1, -1, 1 << 20));
    call_ = params.integer("call", 1, 1, 1LL << 40);
    collective_ = params.choice("collective", "any",
                                {"any", "allreduce", "reduce_scatter", "allgather", "broadcast",
                                 "alltoall"});
    repeat_ = params.boolean("repeat", false);
    fault_ = params.choice("fault", "error", {"error", "error_alone", "nan", "inf", "crash"});
    const nlohmann::json inner_params =
        json.contains("inner_params") ? json.at("inner_params") : nlohmann::json::object();
    inner_ = create_inner(params.string("inner", "mpi"), inner_params);
  }

  Status init(const harness::plugin::GroupInit& group) noexcept override {
    my_rank_ = group.rank;
    return inner_->init(group);
  }
  Status allreduce(BufferView buffer,
                   const harness::plugin::AllreduceOptions& options) noexcept override {
    return faulted(Collective::kAllreduce, buffer, [&] { return inner_->allreduce(buffer, options); });
  }
  Status broadcast(BufferView buffer, int root) noexcept override {
    return faulted(Collective::kBroadcast, buffer, [&] { return inner_->broadcast(buffer, root); });
  }
  Status reduce_scatter(BufferView input, BufferView output,
                        const CollectiveOptions& options) noexcept override {
    return faulted(Collective::kReduceScatter, output,
                   [&] { return inner_->reduce_scatter(input, output, options); });
  }
  Status allgather(BufferView input, BufferView output,
                   const CollectiveOptions& options) noexcept override {
    return faulted(Collective::kAllgather, output,
                   [&] { return inner_->allgather(input, output, options); });
  }
  Status alltoall(BufferView input, BufferView output,
                  const CollectiveOptions& options) noexcept override {
    return faulted(Collective::kAlltoall, output,
                   [&] { return inner_->alltoall(input, output, options); });
  }
  Status barrier() noexcept override { return inner_->barrier(); }
  Status synchronize() noexcept override { return inner_->synchronize(); }
  std::string describe() const override { return "faulty " + inner_->describe(); }

 private:
  template <class Call>
  Status faulted(Collective collective, const BufferView& output, Call&& call) {
    if (!due(collective)) return call();
    const std::string where = std::string("injected ") + fault_ + " in " +
                              harness::plugin::collective_name(collective) + " call " +
                              std::to_string(call_) + " on rank " + std::to_string(my_rank_);
    if (fault_ == "crash") std::raise(SIGSEGV);
    if (fault_ == "error_alone") return Status::internal("faulty: " + where);
    Status status = call();
    if (!status.is_ok()) return status;
    if (fault_ == "error") return Status::internal("faulty: " + where);
    write_element(output, fault_ == "nan" ? std::numeric_limits<double>::quiet_NaN()
                                          : std::numeric_limits<double>::infinity());
    return status;
  }

  // Whether this call is the one to fault (counted on every rank, faulted on one).
  bool due(Collective collective) {
    if (collective_ != "any" && collective_ != harness::plugin::collective_name(collective))
      return false;
    ++calls_;
    return my_rank_ == rank_ && (repeat_ ? calls_ >= call_ : calls_ == call_);
  }

  std::unique_ptr<Communicator> inner_;
  int rank_ = 1, my_rank_ = 0;
  long long call_ = 1, calls_ = 0;
  bool repeat_ = false;
  std::string collective_, fault_;
};

}  // namespace

HARNESS_REGISTER_COMMUNICATOR(FaultyCommunicator)

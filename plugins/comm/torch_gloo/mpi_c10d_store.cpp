#include "mpi_c10d_store.h"

#include <stdexcept>

namespace harness::plugins {
namespace {

[[noreturn]] void refuse(const char* call) {
  throw std::logic_error(std::string("the MPI rendezvous of torch_gloo offers set, get and wait, "
                                     "not ") + call);
}

}  // namespace

void MpiC10dStore::set(const std::string& key, const std::vector<std::uint8_t>& value) {
  rendezvous_.set(key, std::vector<char>(value.begin(), value.end()));
}

std::vector<std::uint8_t> MpiC10dStore::get(const std::string& key) {
  const std::vector<char> value = rendezvous_.get(key);
  return {value.begin(), value.end()};
}

void MpiC10dStore::wait(const std::vector<std::string>& keys) { rendezvous_.wait(keys); }

void MpiC10dStore::wait(const std::vector<std::string>& keys,
                        const std::chrono::milliseconds& timeout) {
  rendezvous_.wait(keys, timeout);
}

std::vector<std::uint8_t> MpiC10dStore::compareSet(const std::string&,
                                                   const std::vector<std::uint8_t>&,
                                                   const std::vector<std::uint8_t>&) {
  refuse("compareSet");
}
std::int64_t MpiC10dStore::add(const std::string&, std::int64_t) { refuse("add"); }
bool MpiC10dStore::deleteKey(const std::string&) { refuse("deleteKey"); }
bool MpiC10dStore::check(const std::vector<std::string>&) { refuse("check"); }
std::int64_t MpiC10dStore::getNumKeys() { refuse("getNumKeys"); }

#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 8)
c10::intrusive_ptr<c10d::Store> MpiC10dStore::clone() {
  return c10::make_intrusive<MpiC10dStore>(rendezvous_);
}
#endif

}  // namespace harness::plugins

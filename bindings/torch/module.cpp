// The Python module behind harness_torch: the process group's class, as a subclass of
// torch.distributed.ProcessGroup, which torch.distributed constructs for backend "harness".
#include <pybind11/chrono.h>
#include <pybind11/pybind11.h>
#include <torch/csrc/utils/pybind.h>

#include "harness_process_group.h"

namespace py = pybind11;
using harness::torch_binding::HarnessProcessGroup;
using harness::torch_binding::PluginChoice;

PYBIND11_MODULE(_harness_torch, module) {
  module.doc() = "torch.distributed backend 'harness': the harness's communicator plugins";
  // Registers c10d::ProcessGroup's Python class, the base of this one.
  py::module::import("torch.distributed");
  py::class_<HarnessProcessGroup, c10d::ProcessGroup, c10::intrusive_ptr<HarnessProcessGroup>>(
      module, "ProcessGroupHarness")
      .def(py::init([](const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                       std::chrono::milliseconds timeout) {
             return c10::make_intrusive<HarnessProcessGroup>(store, rank, size, timeout,
                                                             PluginChoice::from_environment());
           }),
           py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("timeout"),
           py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("plugin", &HarnessProcessGroup::plugin_name)
      .def("describe", &HarnessProcessGroup::describe);
}

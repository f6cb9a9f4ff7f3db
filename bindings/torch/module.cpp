// The Python module behind harness_torch: the backend's class, as a subclass of
// torch.distributed's Backend (c10d::Backend), which harness_torch registers for "harness".
// Built with the pybind11 that the same torch ships, so that the class can derive from
// torch's own Backend class.
#include <pybind11/chrono.h>
#include <pybind11/pybind11.h>
#include <torch/csrc/utils/pybind.h>

#include "harness_backend.h"

namespace py = pybind11;
using harness::torch_binding::HarnessBackend;
using harness::torch_binding::PluginChoice;

PYBIND11_MODULE(_harness_torch, module) {
  module.doc() = "torch.distributed backend 'harness': the harness's communicator plugins";
  // Registers c10d::Backend's Python class, the base of this one.
  py::module::import("torch.distributed");
  py::class_<HarnessBackend, c10d::Backend, c10::intrusive_ptr<HarnessBackend>>(module,
                                                                              "HarnessBackend")
      .def(py::init([](const c10::intrusive_ptr<c10d::Store>& store, int rank, int size,
                       std::chrono::milliseconds timeout) {
             return c10::make_intrusive<HarnessBackend>(store, rank, size, timeout,
                                                        PluginChoice::from_environment());
           }),
           py::arg("store"), py::arg("rank"), py::arg("size"), py::arg("timeout"),
           py::call_guard<py::gil_scoped_release>())
      .def_property_readonly("plugin", &HarnessBackend::plugin_name)
      .def("describe", &HarnessBackend::describe);
  module.def(
      "_settle_before_exit",
      [](std::chrono::milliseconds limit) {
        harness::torch_binding::CollectiveQueue::settle_before_interpreter_exit(limit);
      },
      py::arg("limit"), py::call_guard<py::gil_scoped_release>(),
      "Lets the backend's threads drop what they hold before the interpreter finalizes.");
}

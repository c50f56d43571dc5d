// The Python module boids._boids: the flock, the machine's backends and the validation. The
// public face, with its documentation and signatures, is boids/__init__.py.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "host/base/version.h"
#include "host/io/trajectory_reader.h"

#include <new>

#include "host/base/errors.h"
#include "host/base/memory.h"
#include "host/base/message_text.h"
#include "host/core/backends.h"
#include "host/model/param_table.h"
#include "host/tools/reports.h"
#include "host/validation/validation.h"
#include "python/convert.h"
#include "python/flock.h"

namespace py = pybind11;

namespace boids::python {
namespace {

// `boids validate --backend B`: the same checks, the same refusals.
py::dict validate(const std::string& backend_name) {
  Backend backend = Backend::kCpu;
  if (backend_name == "auto") {
    backend = resolve_auto_backend();
  } else if (backend_name == "cpu" || backend_name == "cuda") {
    backend = *parse_backend(backend_name);
  } else {
    throw InputError("--backend: expected one of cpu, cuda, got " + quoted(backend_name));
  }
  if (backend == Backend::kCuda) {
    const CudaAvailability cuda = cuda_availability();
    if (!cuda.usable) {
      throw RuntimeError("--backend cuda: the cuda backend cannot run here: " + cuda.reason);
    }
  }
  ValidationReport report;
  {
    py::gil_scoped_release release;
    report = validate_backend(backend);
  }
  return to_python(tools::validation_json(report));
}

}  // namespace
}  // namespace boids::python

PYBIND11_MODULE(_boids, m) {
  using boids::python::PythonFlock;
  m.doc() = "The compiled core of boids; use the boids package.";
  // pybind11 finds NumPy's C API on first use, inside a function-local static: done first by
  // two threads at once, one would wait for that static while holding the GIL, and the other
  // for the GIL inside NumPy's import. Found here, at import, it is found once.
  py::array_t<double> numpy_api_now(0);
  m.attr("__version__") = boids::version();

  // Bad input is the caller's (ValueError, with the command line's message); everything else
  // is the machine's (RuntimeError), a failed allocation too, with the command line's message.
  // The order matters: InputError is a std::runtime_error.
  py::register_exception_translator([](std::exception_ptr failure) {
    try {
      if (failure) std::rethrow_exception(failure);
    } catch (const boids::InputError& e) {
      PyErr_SetString(PyExc_ValueError, e.what());
    } catch (const boids::RuntimeError& e) {
      PyErr_SetString(PyExc_RuntimeError, e.what());
    } catch (const std::bad_alloc&) {
      PyErr_SetString(PyExc_RuntimeError, boids::out_of_memory_message().c_str());
    }
  });

  py::class_<PythonFlock>(m, "_Flock")
      .def(py::init<const py::dict&, const py::object&>(), py::arg("options"), py::arg("state"))
      .def("step", &PythonFlock::step, py::arg("n") = 1)
      .def_property_readonly("state", &PythonFlock::state)
      .def_property_readonly("predators", &PythonFlock::predators)
      .def("set_state", &PythonFlock::set_state, py::arg("array"))
      .def("metrics", &PythonFlock::metrics)
      .def_property_readonly("params", &PythonFlock::params)
      .def("set_params", &PythonFlock::set_params, py::arg("changes"))
      .def("device_state", &PythonFlock::device_state)
      .def_property_readonly("count", &PythonFlock::count)
      .def_property_readonly("seed", &PythonFlock::seed)
      .def_property_readonly("steps_taken", &PythonFlock::steps_taken)
      .def_property_readonly("backend", &PythonFlock::backend)
      .def_property_readonly("method", &PythonFlock::method)
      .def_property_readonly("precision", &PythonFlock::precision)
      .def_property_readonly("device", &PythonFlock::device)
      .def_property_readonly("bytes_allocated", &PythonFlock::bytes_allocated)
      .def(
          "serve",
          [](PythonFlock& flock, int port, const std::string& bind, const std::string& token) {
            return flock.serve({port, bind, token});
          },
          py::arg("port"), py::arg("bind"), py::arg("token"))
      .def("stop_serving", &PythonFlock::stop_serving)
      .def_property_readonly("serving", &PythonFlock::serving)
      .def("checkpoint", &PythonFlock::checkpoint, py::arg("path"))
      .def("open_trajectory", &PythonFlock::open_trajectory, py::arg("path"), py::arg("every"),
           py::arg("last"), py::arg("layout"))
      .def("record_frame", &PythonFlock::record_frame, py::arg("always"))
      .def("close_trajectory", &PythonFlock::close_trajectory)
      .def_property_readonly("flight", &PythonFlock::flight);

  m.def("info", [] { return boids::python::to_python(boids::tools::info_json()); });
  // A trajectory opened and checked by the one reader of trajectories (boids convert's and
  // boids serve's): ValueError as the command line words it; its layout as a dict.
  m.def("_check_trajectory", [](const std::string& path) {
    const boids::TrajectoryReader reader(path);
    const boids::World world = reader.world();
    py::dict d;
    d["frames"] = reader.frames();
    d["count"] = reader.count();
    d["predators"] = reader.predators();
    d["dimensions"] = reader.dimensions();
    py::list box;
    box.append(world.width);
    box.append(world.height);
    if (reader.dimensions() == 3) box.append(world.depth);
    d["box"] = py::tuple(box);
    return d;
  });
  m.def("validate", &boids::python::validate, py::arg("backend") = "auto");
  m.def("flock_keywords", &boids::python::flock_keywords);
  // Each option's keyword and what it means, from the table of parameters (Flock's help).
  m.def("param_rows", [] {
    py::list rows;
    for (const boids::ParamSpec& row : boids::param_table()) {
      rows.append(py::make_tuple(row.keyword(), boids::describe(row)));
    }
    return rows;
  });
}

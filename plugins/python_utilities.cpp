// The lodestone_usersub module of py_* utilities. MotionSolve's Python forms: each returns [result, errflg] where
// the C utility has output pointers. The C utility does the work (and reports a refused call in the run log), so
// Python and C subroutines get the same answers.
#include "python_utilities.h"

#include <pybind11/stl.h>

#include <cmath>
#include <string>
#include <vector>

#include "lodestone/usersub.h"
#include "plugins/usersub/subroutine_host.h"

namespace py = pybind11;

namespace lodestone {

namespace {

constexpr const char* kOutsideRunError = "OutsideRunError";

// Marker ids as a list of numbers (MotionSolve documents ipar as reals): each must be a whole number.
std::vector<int> markerIds(const py::iterable& ids, const char* utility) {
  std::vector<int> result;
  for (const py::handle item : ids) {
    const double value = py::cast<double>(item);
    if (value != std::floor(value) || std::fabs(value) > 2147483647.0) {
      throw py::value_error(std::string(utility) + ": marker ids must be whole numbers, not " +
                            std::string(py::str(py::repr(item))));
    }
    result.push_back(static_cast<int>(value));
  }
  return result;
}

py::list resultAndFlag(py::object result, int errflg) {
  py::list pair;
  pair.append(std::move(result));
  pair.append(errflg);
  return pair;
}

py::list listOf(const double* values, int count) {
  py::list list;
  for (int k = 0; k < count; ++k) list.append(values[k]);
  return list;
}

// The utilities that read the model answer only while Lodestone calls a subroutine. Outside (a script's top level,
// or a unit test of a subroutine in a plain Python process) the C utility could only set errflg, with nowhere to
// say why; an exception says it.
void requireRunningSimulation(const char* utility) {
  if (activeSubroutineHost()) return;
  const py::object error = subroutineUtilitiesModule().attr(kOutsideRunError);
  const std::string message = std::string(utility) +
                              " needs a running simulation and was called outside one: Lodestone answers it only "
                              "while it calls a user subroutine (to test a subroutine in a plain Python process, "
                              "install a lodestone.usersub.TestHost)";
  PyErr_SetString(error.ptr(), message.c_str());
  throw py::error_already_set();
}

void defineUtilities(py::module_& m) {
  m.doc() = "Lodestone's utilities for user subroutines written in Python (MotionSolve's py_* forms). Each wraps "
            "the C utility of lodestone/usersub.h of the same name and returns [result, errflg]; errflg is 0 on "
            "success and 1, with a message in the run log, when the call is refused. Scripts get them as globals. "
            "Those that read the simulation raise OutsideRunError when no simulation is running.";
  py::exception<void>(m, kOutsideRunError, PyExc_RuntimeError);
  m.def(
      "py_sysfnc",
      [](const std::string& name, const py::iterable& ids) {
        requireRunningSimulation("py_sysfnc");
        std::vector<int> ipar = markerIds(ids, "py_sysfnc");
        double value = 0;
        int errflg = 0;
        c_sysfnc(name.c_str(), ipar.data(), static_cast<int>(ipar.size()), &value, &errflg);
        return resultAndFlag(py::float_(value), errflg);
      },
      py::arg("fncnam"), py::arg("ipar") = py::list(),
      "[value, errflg] = py_sysfnc(name, [i, j, rm]): TIME, DX DY DZ DM, VX VY VZ VM, WX WY WZ WM");
  m.def(
      "py_sysary",
      [](const std::string& name, const py::iterable& ids) {
        requireRunningSimulation("py_sysary");
        std::vector<int> ipar = markerIds(ids, "py_sysary");
        double values[6] = {0, 0, 0, 0, 0, 0};
        int count = 0, errflg = 0;
        c_sysary(name.c_str(), ipar.data(), static_cast<int>(ipar.size()), values, &count, &errflg);
        return resultAndFlag(listOf(values, count), errflg);
      },
      py::arg("fncnam"), py::arg("ipar"),
      "[values, errflg] = py_sysary(name, [i, j, rm]): DISP, VEL (6 values), TDISP, TVEL (3)");
  m.def(
      "py_varval",
      [](int id) {
        requireRunningSimulation("py_varval");
        double value = 0;
        int errflg = 0;
        c_varval(id, &value, &errflg);
        return resultAndFlag(py::float_(value), errflg);
      },
      py::arg("id"), "[value, errflg] = py_varval(id): Reference_Variable id at the current state");
  // py_akispl and py_cubspl: c_akispl and c_cubspl, the array of 3 as a list.
  // The pair's members are captured by name, not as a structured binding, which clang 14 cannot capture.
  for (const auto& pythonAndC : {std::pair{"py_akispl", &c_akispl}, std::pair{"py_cubspl", &c_cubspl}}) {
    const char* name = pythonAndC.first;
    auto* utility = pythonAndC.second;
    m.def(
        name,
        [name, utility](double xval, double zval, int id, int iord) {
          requireRunningSimulation(name);
          double array[3] = {0, 0, 0};
          int errflg = 0;
          utility(xval, zval, id, iord, array, &errflg);
          return resultAndFlag(listOf(array, 3), errflg);
        },
        py::arg("xval"), py::arg("zval"), py::arg("id"), py::arg("iord") = 0,
        "[array, errflg] = py_akispl(xval, zval, id, iord) (or py_cubspl): Reference_Spline id at (xval, zval), "
        "iord 0 {y, 0, 0}, 1 {dy/dx, dy/dz, 0}, 2 {d2y/dx2, d2y/dxdz, d2y/dz2}");
  }
  m.def(
      "py_errmes",
      [](const py::object& errflg, const std::string& message, int id, const py::object& endflg) {
        requireRunningSimulation("py_errmes");
        // endflg as MotionSolve writes it ("STOP") or as a truth value.
        std::string end;
        if (py::isinstance<py::str>(endflg)) {
          end = py::cast<std::string>(endflg);
        } else if (!endflg.is_none()) {
          end = py::bool_(endflg) ? "STOP" : "";
        }
        c_errmes(py::bool_(errflg) ? 1 : 0, message.c_str(), id, end.c_str());
      },
      py::arg("errflg"), py::arg("message"), py::arg("id"), py::arg("endflg") = py::str(""),
      "py_errmes(errflg, message, id, endflg): a line in the run log; endflg \"STOP\" ends the run once the "
      "subroutine returns (exit 2, results kept)");
  m.def(
      "py_step",
      [](double x, double x0, double h0, double x1, double h1, int iord) {
        double value = 0;
        int errflg = 0;
        c_step(x, x0, h0, x1, h1, iord, &value, &errflg);
        return resultAndFlag(py::float_(value), errflg);
      },
      py::arg("x"), py::arg("x0"), py::arg("h0"), py::arg("x1"), py::arg("h1"), py::arg("iord") = 0,
      "[value, errflg] = py_step(x, x0, h0, x1, h1, iord): STEP or its derivative of order iord (1, 2)");
  m.def(
      "py_impact",
      [](double x, double xdot, double x1, double k, double e, double cmax, double d, int iord) {
        double vector[3] = {0, 0, 0};
        int errflg = 0;
        c_impact(x, xdot, x1, k, e, cmax, d, iord, vector, &errflg);
        return resultAndFlag(listOf(vector, 3), errflg);
      },
      py::arg("x"), py::arg("xdot"), py::arg("x1"), py::arg("k"), py::arg("e"), py::arg("cmax"), py::arg("d"),
      py::arg("iord") = 0,
      "[vector, errflg] = py_impact(x, xdot, x1, k, e, cmax, d, iord): vector[0] the force; iord 1: "
      "vector[0:2] = dF/dx, dF/dxdot");
  m.def(
      "py_get_ncontacts",
      [](int id, int iGraphic, int jGraphic) {
        requireRunningSimulation("py_get_ncontacts");
        int count = 0, errflg = 0;
        c_get_ncontacts(id, iGraphic, jGraphic, &count, &errflg);
        return resultAndFlag(py::int_(count), errflg);
      },
      py::arg("id"), py::arg("i_gra_id"), py::arg("j_gra_id"),
      "[ncontacts, errflg] = py_get_ncontacts(id, i_gra_id, j_gra_id), from CONTACTPOST");
  m.def(
      "py_get_contact_post",
      [](int id, int iGraphic, int jGraphic, const std::string& type, int rm, int index) {
        requireRunningSimulation("py_get_contact_post");
        double values[3] = {0, 0, 0};
        int count = 0, errflg = 0;
        c_get_contact_post(id, iGraphic, jGraphic, type.c_str(), rm, index, values, &count, &errflg);
        return resultAndFlag(listOf(values, count), errflg);
      },
      py::arg("id"), py::arg("i_gra_id"), py::arg("j_gra_id"), py::arg("type"), py::arg("rm"), py::arg("index"),
      "[result, errflg] = py_get_contact_post(id, i_gra_id, j_gra_id, type, rm, index), from CONTACTPOST: PD, "
      "PD_VEL, SLIP_VEL (1 value); POS, VEL, NORMAL, NORMAL_FORCE, TANGENTIAL_FORCE, TOTAL_FORCE (3, in rm's axes)");
}

}  // namespace

py::module_ subroutineUtilitiesModule() {
  const py::dict modules = py::module_::import("sys").attr("modules");
  if (modules.contains(kSubroutineUtilitiesModule)) {
    const py::object existing = modules[kSubroutineUtilitiesModule];
    return py::reinterpret_borrow<py::module_>(existing);
  }
  static py::module_::module_def definition;
  py::module_ module = py::module_::create_extension_module(kSubroutineUtilitiesModule, nullptr, &definition);
  defineUtilities(module);
  defineAnalysisControlUtilities(module);
  modules[kSubroutineUtilitiesModule] = module;
  return module;
}

}  // namespace lodestone

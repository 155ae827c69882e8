// py_analys, py_modify and py_datout: the analysis-control utilities of lodestone/analysis_control.h in MotionSolve's
// Python forms (each returns the status), wrapping the C utilities so that a Python CONSUB and a C one do the same.
#include <pybind11/pybind11.h>

#include <string>

#include "lodestone/usersub.h"
#include "plugins/usersub/analysis_control_host.h"
#include "python_utilities.h"

namespace py = pybind11;

namespace lodestone {

namespace {

constexpr const char* kNotInConsubError = "NotInConsubError";

// Outside CONSUB the C utility could only return a status: in Python an exception says why, with a traceback.
void requireConsub(const char* utility) {
  if (activeAnalysisControlHost()) return;
  const py::object error = subroutineUtilitiesModule().attr(kNotInConsubError);
  const std::string message = std::string(utility) +
                              " may only be called from CONSUB, the subroutine of a UserProgramControl command, "
                              "while Lodestone calls it";
  PyErr_SetString(error.ptr(), message.c_str());
  throw py::error_already_set();
}

}  // namespace

void defineAnalysisControlUtilities(py::module_& m) {
  py::exception<void>(m, kNotInConsubError, PyExc_RuntimeError);
  m.def(
      "py_analys",
      [](const std::string& analysis, const std::string& name, double tbegin, double tend, int iflag) {
        requireConsub("py_analys");
        int istat = 0;
        c_analys(analysis.c_str(), name.c_str(), &tbegin, &tend, &iflag, &istat);
        return istat;
      },
      py::arg("analysis"), py::arg("name"), py::arg("tbegin"), py::arg("tend"), py::arg("iflag") = 0,
      "istat = py_analys(analysis, name, tbegin, tend, iflag), from CONSUB: runs a TRANSIENT or STATICS analysis "
      "as a Simulate command would; istat 0 when it completed");
  m.def(
      "py_modify",
      [](const std::string& command) {
        requireConsub("py_modify");
        int status = 0;
        c_modify(command.c_str(), &status);
        return status;
      },
      py::arg("command"),
      "status = py_modify(command), from CONSUB: ACCGRAV/IGRAV=, JGRAV=, KGRAV=; ACTIVATE/type, ID=n; "
      "DEACTIVATE/type, ID=n. status 0 when done, nonzero (and a line in run.log) when refused");
  m.def(
      "py_datout",
      []() {
        requireConsub("py_datout");
        int istat = 0;
        c_datout(&istat);
        return istat;
      },
      "istat = py_datout(), from CONSUB: results are written as each analysis runs; this flushes them to disk");
}

}  // namespace lodestone

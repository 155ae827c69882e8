// The lodestone_usersub module: MotionSolve's py_* utilities for user subroutines written in Python, each a thin
// wrapper of the C utility of lodestone/usersub.h (so their logic exists once). One module object per process,
// shared by the scripts a deck names and by a Python program that imported the lodestone package.
#pragma once

#include <pybind11/pybind11.h>

namespace lodestone {

inline constexpr const char* kSubroutineUtilitiesModule = "lodestone_usersub";

// The module, made on first use and kept in sys.modules under its name, so that `import lodestone_usersub` finds
// it wherever the interpreter runs: embedded in `lodestone`, or the python3 process that loaded the lodestone
// package. Needs a running interpreter and the GIL.
pybind11::module_ subroutineUtilitiesModule();

// py_analys, py_modify, py_datout (python_analysis_control.cpp), defined into the module when it is made.
void defineAnalysisControlUtilities(pybind11::module_& module);

}  // namespace lodestone

// The embedded Python interpreter behind python_scripts.h and the Python calls of user_subroutine.h. In the
// `lodestone` program and the tests it is the module liblodestone_python_engine (python_engine.cpp and
// python_utilities.cpp; solver/core/modules.h), which links libpython: a deck without Python scripts never maps it.
// The lodestone Python package's extension (python/), whose python3 process holds the interpreter already, has the
// same code built in instead (CMake chooses through the extension's LODESTONE_PYTHON_EXTENSION property).
#pragma once

#include <array>
#include <memory>
#include <string>

#include "python_scripts.h"
#include "user_subroutine.h"

namespace lodestone {

class PythonEngine {
 public:
  // The script at `path` (found already), executed on first use: PythonScripts::load.
  virtual std::shared_ptr<const PythonScript> load(const std::string& path) = 0;
  // The script at `path` parsed, not executed (`lodestone check`): the names its top level binds.
  virtual std::shared_ptr<const PythonScript> inspect(const std::string& path) = 0;
  // scriptFunction; for an inspected script, a function that stands for the name it binds and is never called.
  virtual std::shared_ptr<const PythonFunction> function(const std::shared_ptr<const PythonScript>& script,
                                                         const std::string& name) = 0;
  // callSubroutine for a Python routine.
  virtual double call(const UserSubroutine& routine, const NormalCall& call) = 0;
  virtual std::array<double, 3> call(const UserSubroutine& routine, const FrictionCall& call) = 0;
  virtual void call(const UserSubroutine& routine, const ContactPostCall& call) = 0;
  virtual void call(const UserSubroutine& routine, const ControlCall& call) = 0;
  virtual std::array<double, 8> call(const UserSubroutine& routine, const ElementCall& call) = 0;
  virtual StateEquationValues call(const UserSubroutine& routine, const StateEquationCall& call) = 0;

 protected:
  ~PythonEngine() = default;  // lives as long as the process
};

// The engine, with its interpreter running: loaded and started on first use. Throws std::runtime_error when the
// module cannot be loaded.
PythonEngine& pythonEngine();

// The module's one function: its engine.
using PythonEngineEntry = PythonEngine*();
inline constexpr const char* kPythonEngineModule = "liblodestone_python_engine.so";
inline constexpr const char* kPythonEngineEntry = "lodestone_python_engine";

}  // namespace lodestone

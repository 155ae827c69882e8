// User subroutines written in Python: Debian's CPython embedded through pybind11 — one interpreter per process,
// started on first use and finalised at exit, or the interpreter of the python3 process that loaded the lodestone
// package (python_engine.h) — and scripts executed as modules, with the py_* utilities of python_utilities.h among
// their globals.
//
// This header keeps pybind11 out of its includers: Python objects are held as PyObject pointers, whose references
// the classes below own.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

struct _object;  // CPython's PyObject

namespace lodestone {

// Every path tried for script `name`, in order: an absolute path as given; otherwise beside the deck, then in each
// folder of LODESTONE_USERSUB_PATH (colon-separated).
std::vector<std::string> scriptCandidates(std::string_view name, const std::string& deckFolder,
                                          std::string_view searchPath);

// A script executed as its own module (named after the file), with the py_* utilities among its globals; or, under
// a UserCodeInspection (user_library.h), only parsed: then it has no module, only the names its top level binds.
class PythonScript {
 public:
  PythonScript(std::string path, _object* module);
  PythonScript(std::string path, std::vector<std::string> topLevelNames);
  ~PythonScript();
  PythonScript(const PythonScript&) = delete;
  PythonScript& operator=(const PythonScript&) = delete;
  const std::string& path() const { return path_; }
  _object* module() const { return module_; }  // nullptr when only inspected
  const std::vector<std::string>& topLevelNames() const { return topLevelNames_; }

 private:
  std::string path_;
  _object* module_;  // owned reference
  std::vector<std::string> topLevelNames_;  // when only inspected
};

// A callable of a script; keeps the script loaded.
class PythonFunction {
 public:
  PythonFunction(std::shared_ptr<const PythonScript> script, _object* callable);
  ~PythonFunction();
  PythonFunction(const PythonFunction&) = delete;
  PythonFunction& operator=(const PythonFunction&) = delete;
  const PythonScript& script() const { return *script_; }
  _object* callable() const { return callable_; }

 private:
  std::shared_ptr<const PythonScript> script_;
  _object* callable_;  // owned reference
};

// The scripts one model build uses, found by the lookup above. A script runs once per run: while any model still
// holds it (the model a Modify replaces does), asking for the same file again gives the same module.
class PythonScripts {
 public:
  explicit PythonScripts(std::string deckFolder);
  // The script `name`, executed on first use (under a UserCodeInspection: parsed, never executed). Throws
  // std::runtime_error saying what went wrong: not found (with the paths tried), a syntax error (file, line,
  // Python's message), or an exception while the module ran.
  std::shared_ptr<const PythonScript> load(std::string_view name);

 private:
  std::string deckFolder_;
};

// Function `name` of a loaded script. Throws std::runtime_error when the script defines nothing of that name
// (listing the functions it does define) or defines something that is not callable.
std::shared_ptr<const PythonFunction> scriptFunction(const std::shared_ptr<const PythonScript>& script,
                                                     const std::string& name);

}  // namespace lodestone

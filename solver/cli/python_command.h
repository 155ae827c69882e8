// `lodestone sweep` and `lodestone plot` are Python: the lodestone package's sweep and plot modules, on Dask and
// matplotlib. This process becomes `python3 -m lodestone.<command> ARGUMENTS...`, told where the package is
// (PYTHONPATH) and which `lodestone` the variants run (LODESTONE_EXECUTABLE: this one).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace lodestone::cli {

struct PythonLaunch {
  std::string program;            // the interpreter, LODESTONE_PYTHON (Debian's /usr/bin/python3)
  std::vector<std::string> argv;  // python3 -m lodestone.sweep ARGUMENTS...
  std::string pythonPath;         // PYTHONPATH: the package's folder first, then what it was
  std::string executable;         // LODESTONE_EXECUTABLE
};

// The folder holding the lodestone package that belongs to `executable`: <bin>/../python in a build tree,
// <bin>/../LODESTONE_PYTHON_INSTALL_DIR when installed; empty when neither holds lodestone/__init__.py (then the
// package is looked for where PYTHONPATH and the interpreter look).
std::filesystem::path packageFolderOf(const std::filesystem::path& executable);

// `module`: "sweep" or "plot". `pythonPath`: the PYTHONPATH this process has, or null.
PythonLaunch planPythonLaunch(const std::string& module, const std::vector<std::string>& arguments,
                              const std::filesystem::path& executable, const char* pythonPath);

// Replaces this process by the interpreter. Returns only when it cannot be started, with the reason.
std::string execPython(const PythonLaunch& launch);

}  // namespace lodestone::cli

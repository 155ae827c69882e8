// The engine of the `lodestone` program and the tests: the module liblodestone_python_engine, loaded on first use.
#include "python_engine.h"

#include "solver/core/modules.h"

namespace lodestone {

PythonEngine& pythonEngine() {
  // Shared symbols: the extension modules a script imports (decimal, numpy) expect libpython's symbols to be global.
  static PythonEngine& engine = *moduleFunction<PythonEngineEntry>(
      kPythonEngineModule, kPythonEngineEntry, "the embedded Python interpreter", ModuleSymbols::Shared)();
  return engine;
}

}  // namespace lodestone

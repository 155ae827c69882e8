// The engine of the lodestone Python extension: built in, on the interpreter of the python3 process that loaded it.
#include "python_engine.h"

extern "C" lodestone::PythonEngine* lodestone_python_engine();  // python_engine.cpp

namespace lodestone {

PythonEngine& pythonEngine() { return *lodestone_python_engine(); }

}  // namespace lodestone

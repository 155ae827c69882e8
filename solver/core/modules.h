// Modules: the parts of Lodestone that need a heavy library (HDF5 for results.h5, VTK for the animation, Xerces and
// the whole solver for the deck commands of `lodestone`) are shared libraries of their own, loaded when a process
// first needs them. Mapping and relocating those libraries is most of what a short command costs (a `lodestone
// --version` that mapped them all took 17 ms on an idle machine, 60 ms under load; tests/benchmark/
// startup_benchmark.cpp), so a process that does not need one never loads it.
//
// A module is installed beside liblodestone_usersub (lib/ of the build tree and of the install prefix) and is found
// like it: through the run path of the program or library that asks for it, which CMake sets for both trees
// (cmake/LodestoneModules.cmake). A module stays loaded for the life of the process.
#pragma once

// Marks a module's entry function, the one symbol it exports (cmake/LodestoneModules.cmake hides the others).
#define LODESTONE_MODULE_ENTRY extern "C" __attribute__((visibility("default")))

namespace lodestone {

// Whether the libraries a module brings serve later loads too (RTLD_GLOBAL): an embedded Python interpreter needs
// that for the extension modules its scripts import, which expect libpython's symbols to be there already.
enum class ModuleSymbols { Private, Shared };

// The function `entry` of the module `file` ("liblodestone_results_h5.so"), loaded on first use. Throws
// std::runtime_error naming the module, what it is for (`purpose`, e.g. "the HDF5 writer of results.h5") and why it
// could not be loaded.
void* moduleEntry(const char* file, const char* entry, const char* purpose,
                  ModuleSymbols symbols = ModuleSymbols::Private);

template <class Function>
Function* moduleFunction(const char* file, const char* entry, const char* purpose,
                         ModuleSymbols symbols = ModuleSymbols::Private) {
  return reinterpret_cast<Function*>(moduleEntry(file, entry, purpose, symbols));
}

}  // namespace lodestone

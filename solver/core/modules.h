// Modules: the parts of Lodestone that need a heavy library (HDF5 for results.h5, VTK for the animation, FCL for
// meshes and convex pairs, Xerces and the whole solver for the deck commands of `lodestone`) are shared libraries of
// their own, loaded when a process
// first needs them. Mapping and relocating those libraries is most of what a short command costs (a `lodestone
// --version` that mapped them all took 17 ms on an idle machine, 60 ms under load; tests/benchmark/
// startup_benchmark.cpp), so a process that does not need one never loads it.
//
// Modules are in Lodestone's library folder, lib/ of the build tree and of the install prefix
// (cmake/LodestoneModules.cmake): the folder liblodestone_usersub was loaded from, in a process that runs decks (the
// deck-commands module, the Python package, the tests), and the lib folder beside the program's bin folder in the
// `lodestone` program before it has loaded the solver. A module is loaded by its full path, never through a search
// that depends on who calls dlopen (under AddressSanitizer the caller is its interceptor), and stays loaded for the
// life of the process.
#pragma once

// Marks a module's entry function, the one symbol it exports (cmake/LodestoneModules.cmake hides the others).
#define LODESTONE_MODULE_ENTRY extern "C" __attribute__((visibility("default")))

namespace lodestone {

// Whether the libraries a module brings serve later loads too (RTLD_GLOBAL): an embedded Python interpreter needs
// that for the extension modules its scripts import, which expect libpython's symbols to be there already.
enum class ModuleSymbols { Private, Shared };

// The function `entry` of the module `file` ("liblodestone_results_h5.so"), loaded on first use. Throws
// std::runtime_error saying what the module is for (`purpose`, e.g. "the HDF5 writer of results.h5"), its path and
// why it could not be loaded.
void* moduleEntry(const char* file, const char* entry, const char* purpose,
                  ModuleSymbols symbols = ModuleSymbols::Private);

template <class Function>
Function* moduleFunction(const char* file, const char* entry, const char* purpose,
                         ModuleSymbols symbols = ModuleSymbols::Private) {
  return reinterpret_cast<Function*>(moduleEntry(file, entry, purpose, symbols));
}

}  // namespace lodestone

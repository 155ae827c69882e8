#include "modules.h"

#include <dlfcn.h>

#include <stdexcept>
#include <string>

namespace lodestone {

void* moduleEntry(const char* file, const char* entry, const char* purpose, ModuleSymbols symbols) {
  // dlopen counts references to a file it has loaded already: asking again returns the same module at once.
  void* handle = dlopen(file, RTLD_NOW | (symbols == ModuleSymbols::Shared ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!handle) {
    throw std::runtime_error(std::string("cannot load ") + purpose + ", " + file +
                             " (installed beside liblodestone_usersub): " + dlerror());
  }
  void* function = dlsym(handle, entry);
  if (!function) {
    throw std::runtime_error(std::string("cannot use ") + purpose + ": " + file + " has no function " + entry +
                             " (a module of another Lodestone version?)");
  }
  return function;
}

}  // namespace lodestone

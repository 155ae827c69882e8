#include "modules.h"

#include <dlfcn.h>
#include <limits.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

namespace lodestone {

namespace {

namespace fs = std::filesystem;

// Lodestone's library folder (modules.h).
fs::path libraryFolder() {
  // Found by its soname among the libraries already loaded, without a search; released again at once.
  if (void* usersub = dlopen(LODESTONE_USERSUB_SONAME, RTLD_LAZY | RTLD_NOLOAD)) {
    char origin[PATH_MAX];
    const bool found = dlinfo(usersub, RTLD_DI_ORIGIN, origin) == 0;
    dlclose(usersub);
    if (found) return fs::path(origin).lexically_normal();  // "<prefix>/bin/../lib" through the program's run path
  }
  std::error_code error;
  const fs::path program = fs::read_symlink("/proc/self/exe", error);
  return (program.parent_path().parent_path() / "lib").lexically_normal();
}

}  // namespace

void* moduleEntry(const char* file, const char* entry, const char* purpose, ModuleSymbols symbols) {
  const std::string path = (libraryFolder() / file).string();
  // dlopen counts references to a file it has loaded already: asking again returns the same module at once.
  void* handle = dlopen(path.c_str(), RTLD_NOW | (symbols == ModuleSymbols::Shared ? RTLD_GLOBAL : RTLD_LOCAL));
  if (!handle) throw std::runtime_error(std::string("cannot load ") + purpose + ": " + dlerror());
  void* function = dlsym(handle, entry);
  if (!function) {
    throw std::runtime_error(std::string("cannot use ") + purpose + ": " + path + " has no function " + entry +
                             " (a module of another Lodestone version?)");
  }
  return function;
}

}  // namespace lodestone

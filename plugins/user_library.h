// Loading user subroutine libraries: where a `*_dll_name` is looked for, and the shared library itself.
//
// Lookup (REFERENCE.md §6, ours where MotionSolve's rules name Windows variables): an absolute path is loaded as
// given; otherwise the deck's folder, then each folder of LODESTONE_USERSUB_PATH (colon-separated), then the
// `lib` folder beside the lodestone executable's folder (where libraries built with Lodestone, such as the
// examples in models/usersub, are put). In each folder the name is tried as given and, when it has no `lib`
// prefix or no `.so`, with them added.
#pragma once

#include <map>
#include <set>
#include <stdexcept>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lodestone {

// The folders a user file (library or script) named by a relative path is looked for in, in order: the deck's
// folder ("." when it has none), then each folder of `searchPath` (LODESTONE_USERSUB_PATH, colon-separated).
std::vector<std::string> userFileFolders(const std::string& deckFolder, std::string_view searchPath);

// What findUserFile throws when no candidate is a file: the name, not the file, is the problem (a vendor's library
// that is not installed, say).
class UserFileNotFound : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The first of `candidates` that is a file, as a canonical path. Throws UserFileNotFound otherwise:
// `<what> "<name>" not found (tried …; set LODESTONE_USERSUB_PATH to add folders)`, where a candidate that exists
// but is not a regular file says what it is: `./x.py (is a FIFO, not a regular file)`.
std::string findUserFile(std::string_view what, std::string_view name, const std::vector<std::string>& candidates);

// Every path tried for library `name`, in order.
std::vector<std::string> libraryCandidates(std::string_view name, const std::string& deckFolder,
                                           std::string_view searchPath, const std::string& executableLibFolder);

// `lodestone check` reads a deck without running the code it names (`run` executes it, as MotionSolve does). While
// one of these lives, user code is inspected, not loaded: a library's ELF dynamic symbol table is read instead of
// dlopen-ing it (which runs its constructors), and a script is parsed instead of executed (python_scripts.h). What
// the model build then gets in place of the code says that it is there; it must never be called.
class UserCodeInspection {
 public:
  UserCodeInspection();
  ~UserCodeInspection();
  UserCodeInspection(const UserCodeInspection&) = delete;
  UserCodeInspection& operator=(const UserCodeInspection&) = delete;
};
bool userCodeIsOnlyInspected();

// A loaded shared library (dlopen with RTLD_NOW: every symbol resolved at load, so a library missing a utility
// fails here rather than in the middle of a run), or, under a UserCodeInspection, its exported functions read from
// the file.
class SharedLibrary {
 public:
  // Throws std::runtime_error with dlerror()'s text (or, inspected, why the file is not a shared library).
  explicit SharedLibrary(const std::string& path);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  const std::string& path() const { return path_; }
  // The address of exported symbol `name`; nullptr when absent, with the reason in `error`. Inspected: an address
  // that stands for the function (it exports it) and must not be called.
  void* symbol(const std::string& name, std::string& error) const;

 private:
  std::string path_;
  void* handle_ = nullptr;
  std::set<std::string> inspectedFunctions_;  // the functions the file exports, when only inspected
};

// Libraries loaded for one run, each once, found by the lookup above.
class UserLibraries {
 public:
  explicit UserLibraries(std::string deckFolder);
  // The library for `name`, loading it on first use. Throws std::runtime_error saying which paths were tried
  // and, for a file that exists but does not load, dlerror()'s text.
  std::shared_ptr<SharedLibrary> load(std::string_view name);

 private:
  std::string deckFolder_;
  std::map<std::string, std::shared_ptr<SharedLibrary>> loaded_;  // by resolved path
};

// The folder of the running executable's sibling `lib` folder ("/usr/local/lib" for /usr/local/bin/lodestone);
// empty when it cannot be determined.
std::string executableLibFolder();

}  // namespace lodestone

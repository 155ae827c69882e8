// Shared-library lookup and loading for user subroutines.
#include "user_library.h"

#include <dlfcn.h>
#include <fcntl.h>
#include <gelf.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <optional>
#include <system_error>

#include "solver/core/input_file.h"

namespace lodestone {

namespace fs = std::filesystem;

namespace {

// The name as given, then with `lib` and `.so` added where missing.
std::vector<std::string> fileNames(std::string_view name) {
  const std::string given(name);
  const std::string file = fs::path(given).filename().string();
  const bool hasPrefix = file.rfind("lib", 0) == 0;
  const bool hasSuffix = file.find(".so") != std::string::npos;
  std::vector<std::string> names{given};
  const fs::path folder = fs::path(given).parent_path();
  const auto variant = [&](const std::string& f) { names.push_back((folder / f).string()); };
  if (!hasSuffix) variant(file + ".so");
  if (!hasPrefix) variant("lib" + file + (hasSuffix ? "" : ".so"));
  return names;
}

std::atomic<int> inspections{0};

// What an inspected library's symbol() gives for a function it exports. Check never calls user code; if something
// did, it ends here, saying so, instead of jumping into a library that was never loaded.
[[noreturn]] void inspectedFunctionCalled() {
  std::fputs("lodestone: internal error: a user function that was only inspected, not loaded, was called\n", stderr);
  std::abort();
}

// Owns a file descriptor and libelf's view of it.
class ElfFile {
 public:
  explicit ElfFile(const std::string& path) {
    if (elf_version(EV_CURRENT) == EV_NONE) throw std::runtime_error("cannot read " + path + ": libelf is too old");
    descriptor_ = open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (descriptor_ < 0) throw std::runtime_error("cannot read " + path + ": " + std::strerror(errno));
    elf_ = elf_begin(descriptor_, ELF_C_READ, nullptr);
  }
  ~ElfFile() {
    if (elf_) elf_end(elf_);
    if (descriptor_ >= 0) close(descriptor_);
  }
  ElfFile(const ElfFile&) = delete;
  ElfFile& operator=(const ElfFile&) = delete;
  Elf* get() const { return elf_; }

 private:
  int descriptor_ = -1;
  Elf* elf_ = nullptr;
};

// The functions a shared library exports (defined, global or weak, default visibility: what dlsym would find),
// from its dynamic symbol table, without loading it. Throws std::runtime_error when the file is not one.
std::set<std::string> exportedFunctions(const std::string& path) {
  const ElfFile file(path);
  GElf_Ehdr header;
  if (!file.get() || elf_kind(file.get()) != ELF_K_ELF || !gelf_getehdr(file.get(), &header)) {
    throw std::runtime_error(path + ": not a shared library (no ELF header)");
  }
  if (header.e_type != ET_DYN) throw std::runtime_error(path + ": not a shared library (an ELF file of another kind)");
  std::set<std::string> functions;
  Elf_Scn* section = nullptr;
  while ((section = elf_nextscn(file.get(), section)) != nullptr) {
    GElf_Shdr sectionHeader;
    if (!gelf_getshdr(section, &sectionHeader) || sectionHeader.sh_type != SHT_DYNSYM) continue;
    Elf_Data* data = elf_getdata(section, nullptr);
    if (!data || sectionHeader.sh_entsize == 0) continue;
    const std::size_t count = sectionHeader.sh_size / sectionHeader.sh_entsize;
    for (std::size_t index = 0; index < count; ++index) {
      GElf_Sym symbol;
      if (!gelf_getsym(data, static_cast<int>(index), &symbol) || symbol.st_shndx == SHN_UNDEF) continue;
      const int type = GELF_ST_TYPE(symbol.st_info), binding = GELF_ST_BIND(symbol.st_info);
      if (type != STT_FUNC && type != STT_GNU_IFUNC) continue;
      if (binding != STB_GLOBAL && binding != STB_WEAK) continue;
      if (GELF_ST_VISIBILITY(symbol.st_other) != STV_DEFAULT) continue;
      if (const char* name = elf_strptr(file.get(), sectionHeader.sh_link, symbol.st_name)) functions.insert(name);
    }
  }
  return functions;
}

}  // namespace

UserCodeInspection::UserCodeInspection() { ++inspections; }
UserCodeInspection::~UserCodeInspection() { --inspections; }
bool userCodeIsOnlyInspected() { return inspections.load() > 0; }

std::vector<std::string> userFileFolders(const std::string& deckFolder, std::string_view searchPath) {
  std::vector<std::string> folders{deckFolder.empty() ? std::string(".") : deckFolder};
  size_t start = 0;
  while (start <= searchPath.size()) {
    const size_t end = std::min(searchPath.find(':', start), searchPath.size());
    if (end > start) folders.emplace_back(searchPath.substr(start, end - start));
    start = end + 1;
  }
  return folders;
}

std::string findUserFile(std::string_view what, std::string_view name, const std::vector<std::string>& candidates) {
  for (const std::string& candidate : candidates) {
    std::error_code ignored;
    if (fs::is_regular_file(candidate, ignored)) return fs::weakly_canonical(candidate, ignored).string();
  }
  // A candidate that is there but is no regular file (a folder, a FIFO that would block whoever opened it) was
  // passed over: the list says so, or "not found" would puzzle someone who sees it there.
  std::string tried;
  for (const std::string& candidate : candidates) {
    tried += (tried.empty() ? "" : ", ") + candidate;
    std::error_code ignored;
    if (!fs::exists(candidate, ignored)) continue;
    if (const std::optional<std::string> problem = inputFileProblem(candidate, std::string(what))) {
      tried += " (" + *problem + ")";
    }
  }
  throw UserFileNotFound(std::string(what) + " \"" + std::string(name) + "\" not found (tried " + tried +
                           "; set LODESTONE_USERSUB_PATH to add folders)");
}

std::vector<std::string> libraryCandidates(std::string_view name, const std::string& deckFolder,
                                           std::string_view searchPath, const std::string& executableLibFolder) {
  if (fs::path(name).is_absolute()) return {std::string(name)};
  std::vector<std::string> folders = userFileFolders(deckFolder, searchPath);
  if (!executableLibFolder.empty()) folders.push_back(executableLibFolder);
  std::vector<std::string> candidates;
  for (const std::string& folder : folders) {
    for (const std::string& file : fileNames(name)) candidates.push_back((fs::path(folder) / file).string());
  }
  return candidates;
}

SharedLibrary::SharedLibrary(const std::string& path) : path_(path) {
  if (userCodeIsOnlyInspected()) {
    inspectedFunctions_ = exportedFunctions(path);
    return;
  }
  dlerror();
  handle_ = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const char* error = dlerror();
    throw std::runtime_error(error ? error : ("cannot load " + path));
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::symbol(const std::string& name, std::string& error) const {
  if (!handle_) {
    if (inspectedFunctions_.contains(name)) return reinterpret_cast<void*>(&inspectedFunctionCalled);
    error = path_ + ": undefined symbol: " + name;
    return nullptr;
  }
  dlerror();
  void* address = dlsym(handle_, name.c_str());
  if (!address) {
    const char* text = dlerror();
    error = text ? text : (path_ + ": undefined symbol: " + name);
  }
  return address;
}

UserLibraries::UserLibraries(std::string deckFolder) : deckFolder_(std::move(deckFolder)) {}

std::shared_ptr<SharedLibrary> UserLibraries::load(std::string_view name) {
  const char* searchPath = std::getenv("LODESTONE_USERSUB_PATH");
  const std::vector<std::string> candidates =
      libraryCandidates(name, deckFolder_, searchPath ? searchPath : "", executableLibFolder());
  // A file that exists but does not load is the answer, not a reason to look further: its error is the useful one.
  const std::string resolved = findUserFile("library", name, candidates);
  if (auto found = loaded_.find(resolved); found != loaded_.end()) return found->second;
  auto library = std::make_shared<SharedLibrary>(resolved);
  loaded_.emplace(resolved, library);
  return library;
}

std::string executableLibFolder() {
  std::error_code error;
  const fs::path executable = fs::read_symlink("/proc/self/exe", error);
  if (error) return {};
  return (executable.parent_path().parent_path() / "lib").string();
}

}  // namespace lodestone

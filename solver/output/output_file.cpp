// Opening output files, and saying why when the system refuses.
#include "output_file.h"

#include <cerrno>
#include <cstring>
#include <string>

namespace lodestone {

std::runtime_error fileError(const std::filesystem::path& path, const char* what) {
  return std::runtime_error(std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(errno));
}

OutputFile createOutputFile(const std::filesystem::path& path) {
  OutputFile file(std::fopen(path.c_str(), "w"));
  if (!file) throw fileError(path, "create");
  return file;
}

}  // namespace lodestone

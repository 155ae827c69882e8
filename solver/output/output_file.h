// A file a run writes (results, the run log): opened for writing with the system's reason when that fails, and
// closed when its owner goes.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <stdexcept>

namespace lodestone {

struct FileCloser {
  void operator()(std::FILE* file) const { std::fclose(file); }
};
using OutputFile = std::unique_ptr<std::FILE, FileCloser>;

// "cannot <what> <path>: <strerror(errno)>".
std::runtime_error fileError(const std::filesystem::path& path, const char* what);

// Creates (or truncates) `path`; throws fileError(path, "create") when it cannot.
OutputFile createOutputFile(const std::filesystem::path& path);

}  // namespace lodestone

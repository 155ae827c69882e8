// Creating, appending to and flushing a CSV results file, with the system's reason when that fails.
#include "csv_file.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace lodestone {

namespace {

std::runtime_error fileError(const std::filesystem::path& path, const char* what) {
  return std::runtime_error(std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

CsvFile::CsvFile(const std::filesystem::path& path, const char* header)
    : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (!file_) throw fileError(path, "create");
  if (std::fprintf(file_.get(), "%s\n", header) < 0 || std::fflush(file_.get()) != 0) throw fileError(path, "write");
}

void CsvFile::append(const std::string& rows) {
  if (rows.empty()) return;
  if (std::fwrite(rows.data(), 1, rows.size(), file_.get()) != rows.size() || std::fflush(file_.get()) != 0) {
    throw fileError(path_, "write");
  }
}

}  // namespace lodestone

// Creating, appending to and flushing a CSV results file, with the system's reason when that fails.
#include "csv_file.h"

namespace lodestone {

CsvFile::CsvFile(const std::filesystem::path& path, const char* header)
    : path_(path), file_(createOutputFile(path)) {
  if (std::fprintf(file_.get(), "%s\n", header) < 0 || std::fflush(file_.get()) != 0) throw fileError(path, "write");
}

void CsvFile::append(const std::string& rows) {
  if (rows.empty()) return;
  if (std::fwrite(rows.data(), 1, rows.size(), file_.get()) != rows.size() || std::fflush(file_.get()) != 0) {
    throw fileError(path_, "write");
  }
}

}  // namespace lodestone

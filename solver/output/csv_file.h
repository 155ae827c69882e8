// A results file in CSV: created with its header, then appended one output time at a time and flushed each time,
// so a run that fails later keeps every row written before. The result writers format rows; this owns the file.
#pragma once

#include <filesystem>
#include <string>

#include "output_file.h"

namespace lodestone {

class CsvFile {
 public:
  // Creates (or truncates) the file and writes the header line; throws std::runtime_error saying why it could not.
  CsvFile(const std::filesystem::path& path, const char* header);

  // Writes `rows` (whole lines) and flushes; throws std::runtime_error when the disk refuses.
  void append(const std::string& rows);

  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
  OutputFile file_;
};

}  // namespace lodestone

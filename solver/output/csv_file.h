// A results file in CSV: created with its header, then appended one output time at a time and flushed each time,
// so a run that fails later keeps every row written before. The result writers format rows; this owns the file.
#pragma once

#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>

namespace lodestone {

class CsvFile {
 public:
  // Creates (or truncates) the file and writes the header line; throws std::runtime_error saying why it could not.
  CsvFile(const std::filesystem::path& path, const char* header);

  // Writes `rows` (whole lines) and flushes; throws std::runtime_error when the disk refuses.
  void append(const std::string& rows);

  const std::filesystem::path& path() const { return path_; }

 private:
  struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
  };
  std::filesystem::path path_;
  std::unique_ptr<std::FILE, FileCloser> file_;
};

}  // namespace lodestone

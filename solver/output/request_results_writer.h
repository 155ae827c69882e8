// requests.csv: one row per Post_Request per output time — its id and type, then its eight values F1..F8 (what each
// means for each type: elements/post_request.h) — flushed at every output time.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "csv_file.h"

#include "elements/post_request.h"

namespace lodestone {

class RequestResultsWriter {
 public:

  // Creates (or truncates) the file and writes the header; throws std::runtime_error saying why it could not.
  explicit RequestResultsWriter(const std::filesystem::path& path);

  // Writes one row per request and flushes; throws std::runtime_error when the disk refuses.
  void write(double time, std::span<const RequestSample> requests);

  const std::filesystem::path& path() const { return file_.path(); }

 private:
  CsvFile file_;
  std::string buffer_;
};

}  // namespace lodestone

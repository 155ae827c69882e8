// contacts.csv: one row per contact pair within reach (Force_Contact id, I graphic, J graphic) per output time —
// status, penetration and its rate, slip, forces on the I body, contact point and normal, and the largest normal
// force and penetration since the previous output — flushed at every output time.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "csv_file.h"

#include "elements/contact_evaluator.h"

namespace lodestone {

class ContactResultsWriter {
 public:
  // Creates (or truncates) the file and writes the header; throws std::runtime_error saying why it could not.
  explicit ContactResultsWriter(const std::filesystem::path& path);

  // Writes one row per pair and flushes; throws std::runtime_error when the disk refuses.
  void write(double time, std::span<const PairReport> pairs);

  const std::filesystem::path& path() const { return file_.path(); }

 private:
  CsvFile file_;
  std::string buffer_;
};

}  // namespace lodestone

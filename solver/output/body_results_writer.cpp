// Writing bodies.csv with shortest round-trip numbers, in the columns of bodiesTable().
#include "body_results_writer.h"

#include "result_tables.h"

namespace lodestone {

BodyResultsWriter::BodyResultsWriter(const std::filesystem::path& path)
    : file_(path, csvHeader(bodiesTable()).c_str()) {}

void BodyResultsWriter::write(double time, std::span<const BodySample> bodies) {
  buffer_.clear();
  for (const BodySample& body : bodies) appendCsvRow(bodiesTable(), BodyRow{time, body}, buffer_);
  file_.append(buffer_);
}

}  // namespace lodestone

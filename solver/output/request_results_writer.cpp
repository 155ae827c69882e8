// Writing requests.csv in the columns of requestsTable().
#include "request_results_writer.h"

#include "result_tables.h"

#include "solver/core/text.h"

namespace lodestone {

RequestResultsWriter::RequestResultsWriter(const std::filesystem::path& path)
    : file_(path, csvHeader(requestsTable()).c_str()) {}

void RequestResultsWriter::write(double time, std::span<const RequestSample> requests) {
  buffer_.clear();
  for (const RequestSample& request : requests) appendCsvRow(requestsTable(), RequestRow{time, request}, buffer_);
  file_.append(buffer_);
}

}  // namespace lodestone

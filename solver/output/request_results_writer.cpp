// Writing requests.csv with shortest round-trip numbers.
#include "request_results_writer.h"

#include "solver/core/text.h"

namespace lodestone {

RequestResultsWriter::RequestResultsWriter(const std::filesystem::path& path) : file_(path, kHeader) {}

void RequestResultsWriter::write(double time, std::span<const RequestSample> requests) {
  buffer_.clear();
  for (const RequestSample& request : requests) {
    appendReal(buffer_, time);
    buffer_ += ',' + std::to_string(request.id) + ',' + requestTypeName(request.type);
    for (const double value : request.values) {
      buffer_ += ',';
      appendReal(buffer_, value);
    }
    buffer_ += '\n';
  }
  file_.append(buffer_);
}

}  // namespace lodestone

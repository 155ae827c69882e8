// Writing bodies.csv with shortest round-trip numbers.
#include "body_results_writer.h"

#include "solver/core/text.h"

namespace lodestone {

BodyResultsWriter::BodyResultsWriter(const std::filesystem::path& path)
    : file_(path, kHeader) {}

void BodyResultsWriter::write(double time, std::span<const BodySample> bodies) {
  buffer_.clear();
  for (const BodySample& body : bodies) {
    appendReal(buffer_, time);
    buffer_ += ',';
    buffer_ += std::to_string(body.id);
    const auto appendAll = [this](const auto& values) {
      for (Eigen::Index i = 0; i < values.size(); ++i) {
        buffer_ += ',';
        appendReal(buffer_, values[i]);
      }
    };
    appendAll(body.position);
    appendAll(body.eulerParameters);
    appendAll(body.velocity);
    appendAll(body.angularVelocity);
    appendAll(body.acceleration);
    appendAll(body.angularAcceleration);
    buffer_ += '\n';
  }
  file_.append(buffer_);
}

}  // namespace lodestone

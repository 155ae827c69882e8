// Writing contacts.csv with shortest round-trip numbers.
#include "contact_results_writer.h"

#include "solver/core/text.h"

namespace lodestone {

ContactResultsWriter::ContactResultsWriter(const std::filesystem::path& path)
    : file_(path, kHeader) {}

void ContactResultsWriter::write(double time, std::span<const PairReport> pairs) {
  buffer_.clear();
  const auto real = [this](double value) {
    buffer_ += ',';
    appendReal(buffer_, value);
  };
  const auto vector = [&](const Vector3& value) {
    for (int i = 0; i < 3; ++i) real(value[i]);
  };
  for (const PairReport& pair : pairs) {
    appendReal(buffer_, time);
    buffer_ += ',' + std::to_string(pair.elementId) + ',' + std::to_string(pair.iGraphic) + ',' +
               std::to_string(pair.jGraphic) + ',' + (pair.inContact ? '1' : '0') + ',' + std::to_string(pair.points);
    real(pair.penetration);
    real(pair.separation);
    real(pair.penetrationRate);
    real(pair.slipSpeed);
    real(pair.normalForce);
    real(pair.frictionForce);
    vector(pair.force);
    vector(pair.torque);
    vector(pair.point);
    vector(pair.normal);
    real(pair.intervalMaxNormalForce);
    real(pair.intervalMaxPenetration);
    buffer_ += '\n';
  }
  file_.append(buffer_);
}

}  // namespace lodestone

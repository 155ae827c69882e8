// Writing contacts.csv with shortest round-trip numbers.
#include "contact_results_writer.h"

#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "solver/core/text.h"

namespace lodestone {

namespace {

std::runtime_error writeError(const std::filesystem::path& path, const char* what) {
  return std::runtime_error(std::string("cannot ") + what + " " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

ContactResultsWriter::ContactResultsWriter(const std::filesystem::path& path)
    : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (!file_) throw writeError(path, "create");
  if (std::fprintf(file_.get(), "%s\n", kHeader) < 0 || std::fflush(file_.get()) != 0) throw writeError(path, "write");
}

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
    buffer_ += '\n';
  }
  if (buffer_.empty()) return;
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_.get()) != buffer_.size() || std::fflush(file_.get()) != 0) {
    throw writeError(path_, "write");
  }
}

}  // namespace lodestone

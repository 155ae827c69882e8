// Writing bodies.csv with shortest round-trip numbers.
#include "body_results_writer.h"

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

BodyResultsWriter::BodyResultsWriter(const std::filesystem::path& path)
    : path_(path), file_(std::fopen(path.c_str(), "w")) {
  if (!file_) throw writeError(path, "create");
  if (std::fprintf(file_.get(), "%s\n", kHeader) < 0 || std::fflush(file_.get()) != 0) throw writeError(path, "write");
}

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
    buffer_ += '\n';
  }
  if (std::fwrite(buffer_.data(), 1, buffer_.size(), file_.get()) != buffer_.size() || std::fflush(file_.get()) != 0) {
    throw writeError(path_, "write");
  }
}

}  // namespace lodestone

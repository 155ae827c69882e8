// bodies.csv: one row per moving body per output time — CG position and velocity, Euler parameters and angular
// velocity, all in ground and in the deck's units — at full double precision, flushed at every output time so
// a run that fails later keeps every row written before.
#pragma once

#include <filesystem>
#include <span>
#include <string>

#include "csv_file.h"

#include "solver/core/rotation.h"

namespace lodestone {

// One body at one output time, everything in ground axes.
struct BodySample {
  long id = 0;
  Vector3 position = Vector3::Zero();         // CG
  Vector4 eulerParameters{1, 0, 0, 0};        // body axes in ground, unit length
  Vector3 velocity = Vector3::Zero();         // CG velocity
  Vector3 angularVelocity = Vector3::Zero();  // in ground axes
  Vector3 acceleration = Vector3::Zero();         // CG
  Vector3 angularAcceleration = Vector3::Zero();  // in ground axes
};

class BodyResultsWriter {
 public:
  // Creates (or truncates) the file and writes the header; throws std::runtime_error saying why it could not.
  explicit BodyResultsWriter(const std::filesystem::path& path);

  // Writes one row per body and flushes; throws std::runtime_error when the disk refuses.
  void write(double time, std::span<const BodySample> bodies);

  const std::filesystem::path& path() const { return file_.path(); }

 private:
  CsvFile file_;
  std::string buffer_;  // reused so writing a time allocates nothing once warmed up
};

}  // namespace lodestone

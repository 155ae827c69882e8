// impacts.csv: one row per contact episode of a pair (Force_Contact id, I graphic, J graphic), from its onset to its
// separation — when each was found and whether root finding located it, the peak normal force and when, the
// deepest penetration, the normal impulse, the normal velocity in and out and the restitution they measure. A row
// is written, and flushed, when the pair separates; a contact still closed when the run ends is written then,
// with its separation columns empty.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "csv_file.h"

namespace lodestone {

struct ImpactEpisode {
  long elementId = 0;
  long iGraphic = 0, jGraphic = 0;
  double onsetTime = 0;
  bool onsetLocated = true;                 // found by root finding, not noticed after a step
  std::optional<double> separationTime;     // none: still in contact when the run ended
  bool separationLocated = true;
  double peakNormalForce = 0;
  double peakTime = 0;
  double maxPenetration = 0;
  double normalImpulse = 0;                 // ∫ fn dt over the episode
  // The normal velocity of I towards J at the onset (> 0 approaching), and away from J at the separation (> 0
  // receding), at the contact point; their ratio is the restitution the contact measured.
  double velocityIn = 0;
  std::optional<double> velocityOut;
  std::optional<double> restitution() const;
};

class ImpactResultsWriter {
 public:
  // Creates (or truncates) the file and writes the header; throws std::runtime_error saying why it could not.
  explicit ImpactResultsWriter(const std::filesystem::path& path);

  // Writes one row and flushes; throws std::runtime_error when the disk refuses.
  void write(const ImpactEpisode& episode);

  const std::filesystem::path& path() const { return file_.path(); }

 private:
  CsvFile file_;
};

}  // namespace lodestone

// Writing impacts.csv with shortest round-trip numbers; a value not known (an episode still open) is left empty.
#include "impact_results_writer.h"

#include "solver/core/text.h"

namespace lodestone {

std::optional<double> ImpactEpisode::restitution() const {
  if (!velocityOut || !(velocityIn > 0)) return std::nullopt;
  return *velocityOut / velocityIn;
}

ImpactResultsWriter::ImpactResultsWriter(const std::filesystem::path& path) : file_(path, kHeader) {}

void ImpactResultsWriter::write(const ImpactEpisode& episode) {
  std::string row = std::to_string(episode.elementId) + ',' + std::to_string(episode.iGraphic) + ',' +
                    std::to_string(episode.jGraphic);
  const auto real = [&row](std::optional<double> value) {
    row += ',';
    if (value) appendReal(row, *value);
  };
  const auto flag = [&row](bool value) { row += value ? ",1" : ",0"; };
  real(episode.onsetTime);
  flag(episode.onsetLocated);
  real(episode.separationTime);
  if (episode.separationTime) flag(episode.separationLocated);
  else row += ',';
  real(episode.peakNormalForce);
  real(episode.peakTime);
  real(episode.maxPenetration);
  real(episode.normalImpulse);
  real(episode.velocityIn);
  real(episode.velocityOut);
  real(episode.restitution());
  file_.append(row + '\n');
}

}  // namespace lodestone

// Writing impacts.csv with shortest round-trip numbers, in the columns of impactsTable(); a value not known (an
// episode still open) is left empty.
#include "impact_results_writer.h"

#include "result_tables.h"

namespace lodestone {

std::optional<double> ImpactEpisode::restitution() const {
  if (!velocityOut || !(velocityIn > 0)) return std::nullopt;
  return *velocityOut / velocityIn;
}

ImpactResultsWriter::ImpactResultsWriter(const std::filesystem::path& path)
    : file_(path, csvHeader(impactsTable()).c_str()) {}

void ImpactResultsWriter::write(const ImpactEpisode& episode) {
  std::string row;
  appendCsvRow(impactsTable(), episode, row);
  file_.append(row);
}

}  // namespace lodestone

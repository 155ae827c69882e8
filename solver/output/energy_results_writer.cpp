// Writing energy.csv with shortest round-trip numbers, in the columns of energyTable().
#include "energy_results_writer.h"

#include "result_tables.h"

namespace lodestone {

double sumOf(const EnergySample& sample, EnergyTerm term) {
  double sum = 0;
  for (const EnergyColumn& column : kEnergyColumns) {
    if (column.term == term) sum += sample.*column.value;
  }
  return sum;
}

EnergyResultsWriter::EnergyResultsWriter(const std::filesystem::path& path) : file_(path, csvHeader(energyTable()).c_str()) {}

void EnergyResultsWriter::write(const EnergySample& sample) {
  buffer_.clear();
  appendCsvRow(energyTable(), sample, buffer_);
  file_.append(buffer_);
}

}  // namespace lodestone

// Writing energy.csv with shortest round-trip numbers.
#include "energy_results_writer.h"

#include "solver/core/text.h"

namespace lodestone {

namespace {

std::string header() {
  std::string text = "time";
  for (const EnergyColumn& column : kEnergyColumns) text += std::string(",") + column.name;
  return text;
}

}  // namespace

double sumOf(const EnergySample& sample, EnergyTerm term) {
  double sum = 0;
  for (const EnergyColumn& column : kEnergyColumns) {
    if (column.term == term) sum += sample.*column.value;
  }
  return sum;
}

EnergyResultsWriter::EnergyResultsWriter(const std::filesystem::path& path) : file_(path, header().c_str()) {}

void EnergyResultsWriter::write(const EnergySample& sample) {
  buffer_.clear();
  appendReal(buffer_, sample.time);
  for (const EnergyColumn& column : kEnergyColumns) {
    buffer_ += ',';
    appendReal(buffer_, sample.*column.value);
  }
  buffer_ += '\n';
  file_.append(buffer_);
}

}  // namespace lodestone

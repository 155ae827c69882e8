// The energy balance's bookkeeping across integrations, and its summary in run.log.
#include "energy_balance.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>

#include "solver/output/number_format.h"

namespace lodestone {

void EnergyBalance::rebase(EnergySample& sample) {
  const double held = sumOf(sample, EnergyTerm::Held);
  if (!last_) {
    held0_ = held;
  } else {
    commandWork_ += held - sumOf(*last_, EnergyTerm::Held);
  }
  complete(sample, flows_);
}

void EnergyBalance::complete(EnergySample& sample, std::span<const double> flows) {
  for (int k = 0; k < kIntegratedEnergyTermCount; ++k) sample.*kIntegratedEnergyTerms[k] = flows[static_cast<size_t>(k)];
  sample.commandWork = commandWork_;
  sample.leftover = sumOf(sample, EnergyTerm::Held) - held0_ - sumOf(sample, EnergyTerm::Work) +
                    sumOf(sample, EnergyTerm::Dissipated);
  largest_ = std::max(largest_, std::numeric_limits<double>::min());
  for (const EnergyColumn& column : kEnergyColumns) {
    if (column.term != EnergyTerm::Leftover) largest_ = std::max(largest_, std::fabs(sample.*column.value));
  }
  last_ = sample;
}

std::vector<std::string> EnergyBalance::summary(const EnergySample& start, const EnergySample& end, double integrTol) {
  std::vector<std::string> lines;
  const auto padded = [](std::string text, size_t width) {
    text.resize(std::max(text.size(), width), ' ');
    return text;
  };
  const auto signedNumber = [](double value) { return (value < 0 ? "" : " ") + scientific(value, 6); };
  const auto percent = [&](double value) {
    char text[32];
    std::snprintf(text, sizeof text, "%.3g %%", 100 * value / largest_);
    return std::string(text);
  };
  lines.push_back("");
  lines.push_back(" ENERGY BALANCE (energy.csv; energy in the deck's force x length)");
  lines.push_back(" ----------------------------------------------------------------");
  lines.push_back(padded(" Term", 25) + padded(" t=" + scientific(start.time, 6), 19) + " t=" + scientific(end.time, 6));
  for (const EnergyColumn& column : kEnergyColumns) {
    const double from = start.*column.value, to = end.*column.value;
    if (from == 0 && to == 0 && column.term != EnergyTerm::Leftover) continue;
    lines.push_back(padded(std::string(" ") + column.name, 25) + padded(signedNumber(from), 19) + signedNumber(to));
  }
  lines.push_back(" Leftover at the end: " + percent(end.leftover) + " of the largest energy of the run (" +
                  scientific(largest_, 3) + "; " + percent(end.leftover - start.leftover) + " in this segment).");
  const bool beyond = std::fabs(end.leftover) > kLeftoverWarningFraction * largest_;
  const bool segmentBeyond = std::fabs(end.leftover - start.leftover) > kLeftoverWarningFraction * largest_;
  if (beyond && (!warned_ || segmentBeyond)) {
    warned_ = true;
    lines.push_back(" WARNING: the energy balance does not close: the run has " +
                    std::string(end.leftover < 0 ? "lost " : "gained ") + percent(std::fabs(end.leftover)) +
                    " of its largest energy (" + scientific(largest_, 3) + ") by t=" + scientific(end.time, 6) +
                    ", more than " + percent(kLeftoverWarningFraction * largest_) +
                    ". If a tighter integr_tol shrinks it, it is the integrator's: lower integr_tol (now " +
                    scientific(integrTol, 1) + "), or set h_max below a tenth of the shortest contact or vibration "
                    "period. If not, it is the model's: mesh contact shares its force among samples in a way that does "
                    "not conserve energy (README, Energy balance).");
  }
  return lines;
}

}  // namespace lodestone

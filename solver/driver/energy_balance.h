// The run's energy balance (energy.csv and run.log's summary): where it started, the integrals while no integrator
// carries them, the work of commands between integrations, and the largest energy of the run, which the leftover
// is judged against.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "solver/core/rotation.h"
#include "solver/output/energy_results_writer.h"

namespace lodestone {

// A leftover beyond this fraction of the largest energy is a warning in run.log. One per cent of an energy is half a
// per cent of a speed or a rebound velocity, about what one reads off a plot; beyond it the motion is visibly wrong.
// A run that resolves its motion stays well below: the examples in models/ end within 0.5 % at their own tolerances
// (models/double_pendulum.xml within 4e-7), but for bracket_down_stairs.xml, whose mesh contact does not conserve
// energy (4 %), while the undamped ball of tests/physics/energy_balance_test.cpp loses 52 % at integr_tol 1e-3.
inline constexpr double kLeftoverWarningFraction = 0.01;

class EnergyBalance {
 public:
  EnergyBalance() : flows_(static_cast<size_t>(kIntegratedEnergyTermCount), 0.0) {}

  bool started() const { return last_.has_value(); }
  // The CG positions gravity's energy is measured from: those where the balance started.
  std::span<const Vector3> gravityReference() const { return reference_; }
  void setGravityReference(std::vector<Vector3> positions) { reference_ = std::move(positions); }
  // The integrals while no integrator holds them: where the next one starts them.
  std::span<const double> carriedFlows() const { return flows_; }
  void carry(std::span<const double> flows) { flows_.assign(flows.begin(), flows.end()); }

  // A sample (its held terms filled in) at a state reached outside integration: a fresh start of the integrator, a
  // new model, a static or assembly analysis. The first is the balance's start; after that, the change of the
  // held energy since the latest sample is work done by the commands. Completes the sample like complete().
  void rebase(EnergySample& sample);
  // Fills in the flows, the commands' work and the leftover of a sample whose held terms are filled in, and keeps it
  // as the latest.
  void complete(EnergySample& sample, std::span<const double> flows);
  const std::optional<EnergySample>& latest() const { return last_; }
  // The largest magnitude any term but the leftover has reached in the samples so far (at least the smallest
  // positive number, so that it can divide).
  double largest() const { return largest_; }

  // run.log's summary of a transient segment from `start` to `end`: a line per term present, then, when the leftover
  // is beyond kLeftoverWarningFraction of the largest energy, a warning (once per run, and again for a segment that
  // adds that much itself) that names `integrTol`.
  std::vector<std::string> summary(const EnergySample& start, const EnergySample& end, double integrTol);

 private:
  std::vector<Vector3> reference_;
  std::vector<double> flows_;
  std::optional<EnergySample> last_;
  double held0_ = 0;       // the held energy where the balance started
  double commandWork_ = 0;
  double largest_ = 0;
  bool warned_ = false;
};

}  // namespace lodestone

// energy.csv: the energy balance at every output time — the energies the bodies, contacts and springs hold, what
// dampers and friction have dissipated and what motions, applied forces, fields and commands have done since the
// run's start, and the leftover, which is the integrator's own gain or loss — one row per output time, flushed.
// The columns are defined once, in kEnergyColumns; the writer and run.log's summary both read them.
#pragma once

#include <filesystem>
#include <iterator>
#include <string>

#include "csv_file.h"

namespace lodestone {

// The balance at one time, in the deck's units of energy (force × length).
struct EnergySample {
  double time = 0;
  // Held at `time`.
  double kineticTranslational = 0;  // Σ ½M·v² of the CGs
  double kineticRotational = 0;     // Σ ½ω·Jω
  double gravity = 0;               // Σ −M·g·(x − x at the run's start)
  double contactStrain = 0;         // elastic energy in the contacts: Σ share·∫₀^δ f(s, 0) ds, and shear springs'
  double forceStrain = 0;           // elastic energy in springs and bushings
  // Dissipated since the run's start (≥ 0 for dissipative laws).
  double contactDashpot = 0;  // by the normal laws' damping, ∫ Σ share·(f(δ, δ̇) − f(δ, 0))·δ̇ dt, and shear dashpots
  double contactSlip = 0;     // by friction: ∫ Σ −f_t·v_slip dt, less what a friction law holds or damps
  double forceDashpot = 0;    // by springs' and bushings' damping
  // Work done on the bodies since the run's start.
  double motionWork = 0;   // by Motion_Joint reactions
  double appliedWork = 0;  // by Force_Scalar_TwoBody, Force_Vector_* (expressions, no potential), Force_Magnet
  double fieldWork = 0;    // by field forces and moments (Force_Magnet's and DIPOLE's magnets)
  double commandWork = 0;  // by what changed the state or the model between integrations (commands, analyses)
  // held − held at the start − work + dissipated: > 0 the integrator gained energy, < 0 it lost some.
  double leftover = 0;
};

enum class EnergyTerm { Held, Dissipated, Work, Leftover };

struct EnergyColumn {
  const char* name;  // energy.csv's header, and run.log's
  double EnergySample::*value;
  EnergyTerm term;
};

inline constexpr EnergyColumn kEnergyColumns[] = {
    {"kinetic_translational", &EnergySample::kineticTranslational, EnergyTerm::Held},
    {"kinetic_rotational", &EnergySample::kineticRotational, EnergyTerm::Held},
    {"gravity", &EnergySample::gravity, EnergyTerm::Held},
    {"strain_contact", &EnergySample::contactStrain, EnergyTerm::Held},
    {"strain_forces", &EnergySample::forceStrain, EnergyTerm::Held},
    {"dashpot_contact", &EnergySample::contactDashpot, EnergyTerm::Dissipated},
    {"slip_contact", &EnergySample::contactSlip, EnergyTerm::Dissipated},
    {"dashpot_forces", &EnergySample::forceDashpot, EnergyTerm::Dissipated},
    {"work_motions", &EnergySample::motionWork, EnergyTerm::Work},
    {"work_applied", &EnergySample::appliedWork, EnergyTerm::Work},
    {"work_field", &EnergySample::fieldWork, EnergyTerm::Work},
    {"work_commands", &EnergySample::commandWork, EnergyTerm::Work},
    {"leftover", &EnergySample::leftover, EnergyTerm::Leftover},
};

// The terms integrated over time (IDAS quadratures), in the order of the integrator's vector: every dissipated and
// work term but the commands', which change between integrations.
inline constexpr double EnergySample::*kIntegratedEnergyTerms[] = {
    &EnergySample::contactDashpot, &EnergySample::contactSlip, &EnergySample::forceDashpot,
    &EnergySample::motionWork,     &EnergySample::appliedWork, &EnergySample::fieldWork,
};
inline constexpr int kIntegratedEnergyTermCount = static_cast<int>(std::size(kIntegratedEnergyTerms));

// The sum of the sample's terms of one kind.
double sumOf(const EnergySample& sample, EnergyTerm term);

class EnergyResultsWriter {
 public:
  // Creates (or truncates) the file and writes the header; throws std::runtime_error saying why it could not.
  explicit EnergyResultsWriter(const std::filesystem::path& path);

  // Writes one row and flushes; throws std::runtime_error when the disk refuses.
  void write(const EnergySample& sample);

  const std::filesystem::path& path() const { return file_.path(); }

 private:
  CsvFile file_;
  std::string buffer_;
};

}  // namespace lodestone

// Named units of Param_Unit and the consistency factor between them. Lodestone computes in the deck's own
// units; the only conversion is the mass multiplication factor that keeps F = m·a true when the named units
// are not a consistent set (kg·mm/s² is not a newton).
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace lodestone {

enum class Dimension { Mass, Length, Force, Time };

struct NamedUnit {
  std::string name;  // canonical MotionSolve spelling, upper case ("MILLIMETER")
  double inSI;       // size of one unit in kg, m, N or s
};

// All names Param_Unit accepts for a dimension.
const std::vector<NamedUnit>& namedUnits(Dimension dimension);
std::vector<std::string> unitNames(Dimension dimension);
std::optional<double> unitInSI(Dimension dimension, const std::string& name);

struct UnitSystem {
  std::string mass = "KILOGRAM";
  std::string length = "METER";
  std::string force = "NEWTON";
  std::string time = "SECOND";
  // Multiplies every mass and inertia before it enters m·a = F: (mass·length/time²) / force, in SI.
  double massFactor = 1.0;
  bool massFactorGiven = false;  // true when the deck gave mass_mult_factor rather than unit names

  // The factor implied by the named units.
  static double consistencyFactor(const std::string& mass, const std::string& length, const std::string& force,
                                  const std::string& time);
  // "MILLIMETER SECOND NEWTON KILOGRAM", the order MotionSolve logs them in.
  std::string describe() const;
};

}  // namespace lodestone

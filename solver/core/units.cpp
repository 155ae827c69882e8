// The unit tables of Param_Unit, with the size of each unit in SI.
#include "units.h"

#include "text.h"

namespace lodestone {

const std::vector<NamedUnit>& namedUnits(Dimension dimension) {
  static const std::vector<NamedUnit> mass = {
      {"KILOGRAM", 1.0},          {"GRAM", 1e-3},          {"MILLIGRAM", 1e-6},      {"MICROGRAM", 1e-9},
      {"NANOGRAM", 1e-12},        {"MEGAGRAM", 1e3},       {"TONNE", 1e3},           {"POUND_MASS", 0.45359237},
      {"KPOUND_MASS", 453.59237}, {"OUNCE_MASS", 0.028349523125}, {"SLUG", 14.593902937206364},
      {"SLINCH", 175.12683524647636}, {"US_TON", 907.18474}};
  static const std::vector<NamedUnit> length = {
      {"METER", 1.0},       {"MILLIMETER", 1e-3}, {"CENTIMETER", 1e-2}, {"KILOMETER", 1e3},     {"MICROMETER", 1e-6},
      {"NANOMETER", 1e-9},  {"ANGSTROM", 1e-10},  {"INCH", 0.0254},     {"FOOT", 0.3048},       {"YARD", 0.9144},
      {"MILE", 1609.344},   {"MILLIINCH", 2.54e-5}, {"MILS", 2.54e-5},  {"MICROINCH", 2.54e-8}};
  static const std::vector<NamedUnit> force = {
      {"NEWTON", 1.0},          {"KNEWTON", 1e3},        {"MEGANEWTON", 1e6},          {"CENTINEWTON", 1e-2},
      {"MILLINEWTON", 1e-3},    {"MICRONEWTON", 1e-6},   {"NANONEWTON", 1e-9},         {"DYNE", 1e-5},
      {"KILOGRAM_FORCE", 9.80665}, {"POUND_FORCE", 4.4482216152605}, {"KPOUND_FORCE", 4448.2216152605},
      {"OUNCE_FORCE", 0.27801385095378125}, {"POUNDAL", 0.138254954376}};
  static const std::vector<NamedUnit> time = {{"SECOND", 1.0},       {"MILLISECOND", 1e-3}, {"MICROSECOND", 1e-6},
                                              {"NANOSECOND", 1e-9},  {"MINUTE", 60.0},      {"HOUR", 3600.0},
                                              {"DAY", 86400.0}};
  switch (dimension) {
    case Dimension::Mass: return mass;
    case Dimension::Length: return length;
    case Dimension::Force: return force;
    case Dimension::Time: return time;
  }
  return mass;
}

std::vector<std::string> unitNames(Dimension dimension) {
  std::vector<std::string> names;
  for (const NamedUnit& unit : namedUnits(dimension)) names.push_back(unit.name);
  return names;
}

std::optional<double> unitInSI(Dimension dimension, const std::string& name) {
  for (const NamedUnit& unit : namedUnits(dimension)) {
    if (equalsIgnoreCase(unit.name, name)) return unit.inSI;
  }
  return std::nullopt;
}

double UnitSystem::consistencyFactor(const std::string& mass, const std::string& length, const std::string& force,
                                     const std::string& time) {
  const double seconds = unitInSI(Dimension::Time, time).value_or(1.0);
  return unitInSI(Dimension::Mass, mass).value_or(1.0) * unitInSI(Dimension::Length, length).value_or(1.0) /
         (seconds * seconds) / unitInSI(Dimension::Force, force).value_or(1.0);
}

std::string UnitSystem::describe() const { return length + " " + time + " " + force + " " + mass; }

}  // namespace lodestone

// Param_Unit: named units or a mass multiplication factor, and the unit system they imply.
#include "param_unit.h"

namespace lodestone {

const ElementSchema<ParamUnitSpec>& paramUnitSchema() {
  using S = ParamUnitSpec;
  static const ElementSchema<S> schema{
      .element = "Param_Unit",
      .attributes = {
          attr::keyword("force_unit", &S::force_unit, unitNames(Dimension::Force)),
          attr::keyword("mass_unit", &S::mass_unit, unitNames(Dimension::Mass)),
          attr::keyword("length_unit", &S::length_unit, unitNames(Dimension::Length)),
          attr::keyword("time_unit", &S::time_unit, unitNames(Dimension::Time)),
          attr::real("mass_mult_factor", &S::mass_mult_factor).above(0),
          attr::presentation<S>("label"),
      }};
  return schema;
}

void checkParamUnit(const ParamUnitSpec& spec, Diagnostics& diagnostics) {
  const bool anyName = spec.force_unit || spec.mass_unit || spec.length_unit || spec.time_unit;
  if (anyName && spec.mass_mult_factor) {
    diagnostics.error(spec.loc, "give either the named units (force_unit, mass_unit, length_unit, time_unit) or "
                                "mass_mult_factor, not both: the names already fix the factor");
  }
}

UnitSystem unitSystemOf(const std::optional<ParamUnitSpec>& spec) {
  UnitSystem units;
  if (!spec) return units;
  if (spec->mass_mult_factor) {
    units.mass = units.length = units.force = units.time = "";
    units.massFactor = *spec->mass_mult_factor;
    units.massFactorGiven = true;
    return units;
  }
  units.force = spec->force_unit.value_or(units.force);
  units.mass = spec->mass_unit.value_or(units.mass);
  units.length = spec->length_unit.value_or(units.length);
  units.time = spec->time_unit.value_or(units.time);
  units.massFactor = UnitSystem::consistencyFactor(units.mass, units.length, units.force, units.time);
  return units;
}

}  // namespace lodestone

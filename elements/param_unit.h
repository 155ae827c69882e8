// Param_Unit: the deck's named units, or a bare mass multiplication factor.
#pragma once

#include <optional>
#include <string>

#include "solver/core/schema.h"
#include "solver/core/units.h"

namespace lodestone {

struct ParamUnitSpec {
  SourceLoc loc;
  std::optional<std::string> force_unit, mass_unit, length_unit, time_unit;
  std::optional<double> mass_mult_factor;
};

const ElementSchema<ParamUnitSpec>& paramUnitSchema();
void checkParamUnit(const ParamUnitSpec& spec, Diagnostics& diagnostics);
// The unit system a deck declares; SI names and factor 1 for what it leaves out.
UnitSystem unitSystemOf(const std::optional<ParamUnitSpec>& spec);

}  // namespace lodestone

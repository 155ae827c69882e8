// Param_Transient: integrator tolerance and step limits for transient simulations.
#pragma once

#include <optional>
#include <string>

#include "solver/core/model.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ParamTransientSpec {
  SourceLoc loc;
  std::string integrator_type;
  double integr_tol = 0;
  std::optional<double> h_max, h_min, h0_max;
  int max_order = 0;
  double dae_constr_tol = 0;
};

const ElementSchema<ParamTransientSpec>& paramTransientSchema();
void checkParamTransient(const ParamTransientSpec& spec, Diagnostics& diagnostics);
// Settings for the integrator; the schema's defaults when the deck has no Param_Transient.
IntegratorSettings integratorSettingsOf(const std::optional<ParamTransientSpec>& spec);

}  // namespace lodestone

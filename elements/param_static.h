// Param_Static: the convergence limits of static analyses (Simulate analysis_type="Static").
#pragma once

#include <optional>
#include <string>

#include "solver/core/model.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ParamStaticSpec {
  SourceLoc loc;
  std::string method;
  std::optional<double> max_imbalance, max_error;
  std::optional<int> max_num_iter;
};

const ElementSchema<ParamStaticSpec>& paramStaticSchema();
void checkParamStatic(const ParamStaticSpec& spec, Diagnostics& diagnostics);
// The limits for the static solver; Lodestone's own where the deck gives none.
StaticSettings staticSettingsOf(const std::optional<ParamStaticSpec>& spec);

}  // namespace lodestone

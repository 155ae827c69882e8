// Param_Static. Lodestone has one static method, a force-imbalance solve: every body's net load and every joint
// equation driven to zero over the positions and the joints' reactions (Levenberg–Marquardt, solver/driver/
// multibody_statics.cpp). That is what MotionSolve's FIM_S and FIM_D compute; MKEAM (kinetic energy attrition)
// runs as the same solve, with a warning.
#include "param_static.h"

#include "solver/core/text.h"

namespace lodestone {

namespace {

const std::string kMkeamNote = "applies to method MKEAM, which Lodestone runs as a force-imbalance solve";

}  // namespace

const ElementSchema<ParamStaticSpec>& paramStaticSchema() {
  using S = ParamStaticSpec;
  static const ElementSchema<S> schema{
      .element = "Param_Static",
      .attributes = {
          attr::keyword("method", &S::method, {"FIM_D", "FIM_S", "MKEAM"}).byDefault(std::string("FIM_D")).modifiable(),
          attr::real("max_imbalance", &S::max_imbalance).above(0).modifiable(),
          attr::real("max_error", &S::max_error).above(0).modifiable(),
          attr::integer("max_num_iter", &S::max_num_iter).atLeast(1).modifiable(),
          attr::ignored<S>("stability", "the Levenberg–Marquardt damping keeps the Jacobian regular"),
          attr::ignored<S>("compliance_delta", "the static solver's Jacobian is computed by differences of its own"),
          attr::ignored<S>("max_ke_tol", kMkeamNote),
          attr::ignored<S>("max_dq_tol", kMkeamNote),
          attr::presentation<S>("label"),
      }};
  return schema;
}

void checkParamStatic(const ParamStaticSpec& spec, Diagnostics& diagnostics) {
  if (spec.method == "MKEAM") {
    diagnostics.warning(spec.loc, "method MKEAM (kinetic energy attrition) runs as a force-imbalance solve (FIM_S): "
                                  "it finds the equilibrium nearest the start, stable or not");
  }
}

StaticSettings staticSettingsOf(const std::optional<ParamStaticSpec>& given) {
  StaticSettings settings;
  if (!given) return settings;
  settings.maxImbalance = given->max_imbalance;
  settings.maxConstraintError = given->max_error;
  if (given->max_num_iter) settings.maxIterations = *given->max_num_iter;
  return settings;
}

}  // namespace lodestone

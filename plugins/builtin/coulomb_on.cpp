// COULOMB_ON (MotionSolve): regularised Coulomb friction with stiction — μ rises to μs by the stiction transition
// speed, then falls to μd by the friction transition speed.
#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/step_functions.h"
#include "solver/core/text.h"

namespace lodestone {
namespace {

enum Slot { kStatic, kDynamic, kStictionVelocity, kFrictionVelocity };  // the order of the table below

void checkCoulombOn(LawValues values, LawFindings& findings) {
  // The two STEPs below need vs < vd; with vs ≥ vd the second one would run backwards.
  if (values[kStictionVelocity] >= values[kFrictionVelocity]) {
    findings.errors.push_back("stiction_trans_vel (" + formatReal(values[kStictionVelocity]) +
                              ") must be smaller than friction_trans_vel (" + formatReal(values[kFrictionVelocity]) +
                              ")");
  }
  law_parameters::warnDynamicAboveStatic(values[kStatic], values[kDynamic], findings);
  law_parameters::warnNoFriction(values[kStatic] == 0 && values[kDynamic] == 0, "mu_static and mu_dynamic are both",
                                 findings);
}

double coulombOnCoefficient(LawValues values, double slipSpeed) {
  const double vs = values[kStictionVelocity], vd = values[kFrictionVelocity];
  if (slipSpeed <= vs) return step(slipSpeed, 0, 0, vs, values[kStatic]);
  if (slipSpeed < vd) return step(slipSpeed, vs, values[kStatic], vd, values[kDynamic]);
  return values[kDynamic];
}

}  // namespace

const FrictionLaw& coulombOnLaw() {
  using namespace law_parameters;
  static const FrictionLaw law{
      .keyword = "COULOMB_ON",
      .summary = "MotionSolve Coulomb friction with stiction: μ rises to μs at vs, then blends to μd at vd",
      .parameters = {
          required("mu_static", atLeast(0), "static friction coefficient μs, dimensionless"),
          required("mu_dynamic", atLeast(0), "dynamic friction coefficient μd, dimensionless"),
          required("stiction_trans_vel", above(0), "slip speed vs at which μ reaches μs, velocity"),
          required("friction_trans_vel", above(0), "slip speed vd from which μ is μd, velocity"),
      },
      .check = checkCoulombOn,
      .coefficient = coulombOnCoefficient,
  };
  return law;
}

}  // namespace lodestone

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

// Below vs, μs times the STEP through the origin from −1 at −vs to 1 at vs, as Adams documents its contact friction
// (μ = STEP(v, −vs, μs, vs, −μs) on the signed slip) and MotionSolve describes COULOMB_ON ("a viscous force" at small
// slip): μ rises from 0 with slope 1.5·μs/vs, so a contact at rest resists a small slip in proportion to it. (A STEP
// from 0 at v = 0, flat there, resisted it only in proportion to v²: a resting sphere's spin met no friction in the
// Jacobian at rest, and Newton's corrections overshot into the stiction band.)
double coulombOnCoefficient(LawValues values, double slipSpeed) {
  const double vs = values[kStictionVelocity], vd = values[kFrictionVelocity];
  if (slipSpeed <= vs) return values[kStatic] * step(slipSpeed, -vs, -1, vs, 1);
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

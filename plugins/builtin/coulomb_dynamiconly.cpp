// COULOMB_DYNAMICONLY (MotionSolve): regularised Coulomb friction without a stiction hump — μ rises smoothly from
// 0 to μd over the friction transition speed.
#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

enum Slot { kDynamic, kFrictionVelocity };  // the order of the table below

double coulombDynamicOnlyCoefficient(LawValues values, double slipSpeed) {
  return step(slipSpeed, 0, 0, values[kFrictionVelocity], values[kDynamic]);
}

void checkCoulombDynamicOnly(LawValues values, LawFindings& findings) {
  law_parameters::warnNoFriction(values[kDynamic] == 0, "mu_dynamic is", findings);
}

}  // namespace

const FrictionLaw& coulombDynamicOnlyLaw() {
  using namespace law_parameters;
  static const FrictionLaw law{
      .keyword = "COULOMB_DYNAMICONLY",
      .summary = "MotionSolve Coulomb friction without stiction: μ rises by STEP from 0 to μd at vd",
      .parameters = {
          required("mu_dynamic", atLeast(0), "dynamic friction coefficient μd, dimensionless"),
          required("friction_trans_vel", above(0), "slip speed vd from which μ is μd, velocity"),
      },
      .check = checkCoulombDynamicOnly,
      .coefficient = coulombDynamicOnlyCoefficient,
  };
  return law;
}

}  // namespace lodestone

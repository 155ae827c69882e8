// IMPACT (MotionSolve): a power-law spring plus a damper that ramps in over the first dmax of penetration, so
// the force does not jump when contact begins.
#include <algorithm>
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kExponent, kDamping, kDmax };  // the order of the table below

double impactForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;  // apart: no force, and no pow of a negative base
  const double elastic = values[kStiffness] * penetrationPower(delta, values[kExponent]);
  const double damping = step(delta, 0, 0, values[kDmax], values[kDamping]);
  return std::max(0.0, elastic + damping * input.penetrationRate);
}

// The spring begins and ends as δ^e; the damping, ramped in by STEP's cubic over dmax, as δ² (its second derivative
// jumps). At a separation, where the damping pulls, the spring's power still decides for e < 2, and a larger e only
// makes the force clipped at 0 before the event: at least as smooth as at onset.
int impactSmoothnessAt(LawValues values, ContactChange) {
  const int spring = powerSmoothness(values[kExponent]);
  return values[kDamping] > 0 ? std::min(spring, 2) : spring;
}

}  // namespace

const NormalLaw& impactLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "IMPACT",
      .summary = "MotionSolve IMPACT: k·δ^e plus damping ramped in by STEP over the first dmax of penetration",
      .parameters = {
          required("stiffness", above(0), "spring coefficient k, force per length^exponent"),
          required("exponent", atLeast(1), "exponent e of the penetration in k·δ^e, dimensionless"),
          required("damping", atLeast(0), "full damping coefficient c, force per velocity"),
          required("dmax", above(0), "penetration at which the damping reaches c, length"),
      },
      .force = impactForce,
      .smoothnessAt = impactSmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

// POISSON (MotionSolve): a Hertzian spring K·δ^1.5 loaded more on approach than on rebound, so that fast
// impacts lose exactly the energy the coefficient of restitution says (REFERENCE.md §3).
#include <algorithm>
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

enum Slot { kPenalty, kRestitution, kTransitionVelocity };  // the order of the table below

double poissonForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;
  const double e2 = values[kRestitution] * values[kRestitution];
  // Approach is loaded with (1 + a), rebound with (1 − a): the energy ratio (1 − a)/(1 + a) is then e².
  const double a = (1 - e2) / (1 + e2);
  const double vt = values[kTransitionVelocity];
  const double loading = 1 + a * step(input.penetrationRate, -vt, -1, vt, 1);
  // δ·sqrt(δ) is δ^1.5 without the cost of pow.
  return std::max(0.0, values[kPenalty] * delta * std::sqrt(delta) * loading);
}

// K·δ^1.5 begins and ends as Hertz's δ^1.5, whatever the loading factor.
int poissonSmoothnessAt(LawValues, ContactChange) { return powerSmoothness(1.5); }

}  // namespace

const NormalLaw& poissonLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "POISSON",
      .summary = "MotionSolve POISSON: Hertzian K·δ^1.5 scaled so that impacts rebound with restitution e",
      .parameters = {
          required("penalty", above(0), "Hertzian stiffness K, force per length^1.5"),
          required("restitution_coef", between(0, 1), "coefficient of restitution e, dimensionless"),
          optional("normal_trans_vel", 1, above(0),
                   "penetration rate over which the loading blends from rebound to approach, velocity"),
      },
      .force = poissonForce,
      .smoothnessAt = poissonSmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

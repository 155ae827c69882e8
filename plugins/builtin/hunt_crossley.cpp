// HUNT_CROSSLEY (MapleSim): a power-law spring with a damper that scales with the penetration, so (for p > 0)
// the force is continuous at onset and the restitution depends on the impact speed as observed.
#include <algorithm>
#include <cmath>

#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kExponent, kDamping, kPenetrationExponent, kVelocityExponent };  // the table's order

double huntCrossleyForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;
  const double rate = input.penetrationRate;
  const double q = values[kVelocityExponent];
  // δ̇·|δ̇|^(q−1) written as sign(δ̇)·|δ̇|^q: the same for δ̇ ≠ 0, and 0 rather than 0·∞ = NaN at δ̇ = 0
  // when q < 1.
  const double signedRatePower = q == 1 ? rate : std::copysign(std::pow(std::abs(rate), q), rate);
  const double spring = values[kStiffness] * penetrationPower(delta, values[kExponent]);
  const double damper = values[kDamping] * signedRatePower * std::pow(delta, values[kPenetrationExponent]);
  const double force = spring + damper;
  return force > 0 ? force : 0;
}

// The spring begins as δ^n and the damper as δ^p (p = 0: it jumps by dn·δ̇^q). At a separation the damper pulls:
// where p < n it outweighs the spring near δ = 0 and the force is clipped to 0 before the event; otherwise the spring
// ends as it began.
int huntCrossleySmoothnessAt(LawValues values, ContactChange change) {
  const int spring = powerSmoothness(values[kExponent]);
  if (values[kDamping] == 0) return spring;
  if (change == ContactChange::Separation) {
    return values[kPenetrationExponent] < values[kExponent] ? kSmoothForce : spring;
  }
  return std::min(spring, powerSmoothness(values[kPenetrationExponent]));
}

}  // namespace

const NormalLaw& huntCrossleyLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "HUNT_CROSSLEY",
      .summary = "MapleSim Hunt-Crossley: cn·δ^n + dn·δ̇·|δ̇|^(q−1)·δ^p, never pulling",
      .parameters = {
          required("stiffness", above(0), "spring coefficient cn, force per length^exponent"),
          optional("exponent", 1.5, atLeast(1), "exponent n of the penetration in the spring, dimensionless"),
          optional("damping", 0, atLeast(0),
                   "damping coefficient dn, force per (velocity^velocity_exponent·length^penetration_exponent)"),
          optional("penetration_exponent", 1, atLeast(0), "exponent p of the penetration in the damper, dimensionless"),
          optional("velocity_exponent", 1, above(0), "exponent q of the penetration rate in the damper, dimensionless"),
      },
      .force = huntCrossleyForce,
      .smoothnessAt = huntCrossleySmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

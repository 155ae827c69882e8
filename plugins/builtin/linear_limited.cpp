// LINEAR_LIMITED (MapleSim linear spring and limited damper): the pushing damper force may not exceed the spring
// force, so the force starts from zero at onset instead of jumping by d·δ̇.
#include <algorithm>

#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kDamping };  // the order of the table below

double linearLimitedForce(LawValues values, const NormalInput& input) {
  if (input.penetration <= 0) return 0;
  const double spring = values[kStiffness] * input.penetration;
  const double damper = values[kDamping] * input.penetrationRate;
  return spring + damper > 0 ? spring + std::min(spring, damper) : 0;
}

// The damper pushes no more than the spring: the force begins as 2c·δ, its rate jumping. As it ends the receding
// damper has clipped it to 0 already, unless there is no damper and the spring's rate jumps there too.
int linearLimitedSmoothnessAt(LawValues values, ContactChange change) {
  return change == ContactChange::Separation && values[kDamping] > 0 ? kSmoothForce : 1;
}

}  // namespace

const NormalLaw& linearLimitedLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "LINEAR_LIMITED",
      .summary = "MapleSim linear spring and limited damper: c·δ + min(c·δ, d·δ̇), never pulling",
      .parameters = {
          required("stiffness", above(0), "spring stiffness c, force per length"),
          required("damping", atLeast(0), "damping coefficient d, force per velocity"),
      },
      .force = linearLimitedForce,
      .smoothnessAt = linearLimitedSmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

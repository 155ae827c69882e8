// LINEAR (MapleSim linear spring and damper): c·δ + d·δ̇, never pulling. The damper acts from the first instant
// of contact, so the force jumps by d·δ̇ at onset — that is the law, not an accident.
#include "builtin_laws.h"
#include "law_parameters.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kDamping };  // the order of the table below

double linearForce(LawValues values, const NormalInput& input) {
  if (input.penetration <= 0) return 0;
  const double force = values[kStiffness] * input.penetration + values[kDamping] * input.penetrationRate;
  return force > 0 ? force : 0;
}

// The damper jumps by d·δ̇ as contact begins. As it ends the force is 0 already: the receding damper outweighs the
// vanishing spring and the force is clipped at 0. Without a damper, the spring's rate jumps at both.
int linearSmoothnessAt(LawValues values, ContactChange change) {
  return dashpotSmoothness(values[kDamping] != 0, 1, change);
}

}  // namespace

const NormalLaw& linearLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "LINEAR",
      .summary = "MapleSim linear spring and damper: c·δ + d·δ̇, never pulling",
      .parameters = {
          required("stiffness", above(0), "spring stiffness c, force per length"),
          optional("damping", 0, atLeast(0), "damping coefficient d, force per velocity"),
      },
      .force = linearForce,
      .smoothnessAt = linearSmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

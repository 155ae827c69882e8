// SMOOTH (Simscape smooth spring-damper): a linear spring-damper faded in by STEP over the transition width, so
// force and stiffness both start from zero at onset.
#include <algorithm>

#include "builtin_laws.h"
#include "law_parameters.h"
#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

enum Slot { kStiffness, kDamping, kTransitionWidth };  // the order of the table below

double smoothForce(LawValues values, const NormalInput& input) {
  const double delta = input.penetration;
  if (delta <= 0) return 0;
  const double fade = step(delta, 0, 0, values[kTransitionWidth], 1);
  return std::max(0.0, fade * (values[kStiffness] * delta + values[kDamping] * input.penetrationRate));
}

// STEP's cubic fades the force in as δ²·b·δ̇ (its second derivative jumps), or as δ³ without a damper. As it ends a
// receding damper has clipped the force to 0 already.
int smoothSmoothnessAt(LawValues values, ContactChange change) {
  if (values[kDamping] == 0) return 3;
  return change == ContactChange::Onset ? 2 : kSmoothForce;
}

}  // namespace

const NormalLaw& smoothLaw() {
  using namespace law_parameters;
  static const NormalLaw law{
      .keyword = "SMOOTH",
      .summary = "Simscape smooth spring-damper: STEP(δ, 0, 0, w, 1)·(k·δ + b·δ̇), never pulling",
      .parameters = {
          required("stiffness", above(0), "spring stiffness k, force per length"),
          optional("damping", 0, atLeast(0), "damping coefficient b, force per velocity"),
          required("transition_width", above(0), "penetration w over which the force fades in, length"),
      },
      .force = smoothForce,
      .smoothnessAt = smoothSmoothnessAt,
  };
  return law;
}

}  // namespace lodestone

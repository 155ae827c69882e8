// The constraint equations of joints: each scalar equation's value Φ at the markers' poses, and its velocity
// Jacobian — the row g with dΦ/dt = g_I·(v_I, ω_I) + g_J·(v_J, ω_J), where v is a body's CG velocity and ω its
// angular velocity, both in ground. The same rows carry the joint's reaction: λ·g_I is the force and the torque
// about the CG that equation's multiplier λ applies to body I. One place knows every joint's formulas.
#pragma once

#include <Eigen/Dense>

#include "elements/constraint_joint.h"
#include "solver/core/rotation.h"

namespace lodestone {

using Vector6 = Eigen::Matrix<double, 6, 1>;

// Where a joint's markers are, and the CGs of the bodies they sit on (for ground, any fixed point: the origin).
struct JointFrames {
  Vector3 positionI = Vector3::Zero();
  Matrix3 axesI = Matrix3::Identity();  // columns x, y, z in ground
  Vector3 cgI = Vector3::Zero();
  Vector3 positionJ = Vector3::Zero();
  Matrix3 axesJ = Matrix3::Identity();
  Vector3 cgJ = Vector3::Zero();
};

struct EquationValue {
  double value = 0;
  Vector6 gI = Vector6::Zero();  // (∂Φ̇/∂v_I, ∂Φ̇/∂ω_I), ground axes
  Vector6 gJ = Vector6::Zero();
  double angle = 0;  // Screw, RackPinion: the unwrapped angle θ the value used
};

// Equation `equation` at `frames`. Screw, RackPinion and JointRotation measure an angle that may turn many times:
// of the values atan2 gives plus whole turns, the one nearest `referenceAngle` (the angle at the latest accepted
// state).
EquationValue evaluateJointEquation(const JointEquation& equation, const JointFrames& frames, double referenceAngle);

// Whether equations of this kind measure an angle that may turn many times (Screw, RackPinion, JointRotation, and
// the first and third body-fixed angles; the second stays within ±π/2 and is never unwrapped away from it).
inline bool measuresTurningAngle(JointEquationKind kind) {
  return kind == JointEquationKind::Screw || kind == JointEquationKind::RackPinion ||
         kind == JointEquationKind::JointRotation || kind == JointEquationKind::BodyFixedAngle;
}

// The angle a Screw, RackPinion, JointRotation or BodyFixedAngle equation measures at `frames`, in (−π, π].
double jointEquationAngle(const JointEquation& equation, const JointFrames& frames);

}  // namespace lodestone

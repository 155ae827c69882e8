// Force_JointFriction: MotionSolve's friction in a joint (Adams' FRICTION statement), on REVOLUTE, TRANSLATIONAL and
// SPHERICAL joints, loaded by a preload and the joint's own reactions (its constraint multipliers), with stick-slip
// stiction.
//
// The law (docs/joints.md#joint-friction). The friction acts along the joint's free coordinates: a torque about z_J
// for a REVOLUTE, a force along z_J for a TRANSLATIONAL, a torque against the relative rotation for a SPHERICAL. Its
// capacity, from the reaction on the I marker in J's axes (F, T) and the bits of `inputs` (preload, reaction force,
// bending moment, torsional moment):
//   REVOLUTE       C(μ) = μ·(Rp·(|F_xy| + |T_xy|/Rb) + Rn·|F_z|) + torque_preload   (Rp pin_radius, Rb
//                  bending_reaction_arm, Rn friction_arm; the slip is measured on the pin's surface, Rp·θ)
//   TRANSLATIONAL  C(μ) = μ·(|F_xy| + |T_xy|/Xs + |T_z|/Ra) + force_preload          (Xs initial_overlap, Ra
//                  reaction_arm)
//   SPHERICAL      C(μ) = μ·Rb·|F| + torque_preload   (Rb ball_radius; the ball carries no moment, so the last two
//                  bits have nothing to read; the slip is Rb·φ on the ball's surface, φ the rotation vector)
// Stick-slip: a bristle of deflection z = x − a (x the slip coordinate on the surface, a an anchor that the joint
// drags once |z| reaches max_stiction_deform zmax), u = clamp(z/zmax, −1, 1), β = STEP(|v|, vs, 0, 2·vs, 1):
//   All       f = −[(1 − β)·C(μs)·u + β·C(μd)·sign(v)]
//   Stiction  f = −(1 − β)·C(μs)·u
//   Sliding   f = −C(μd)·STEP(v, −vs, −1, vs, 1)
// so the joint holds up to C(μs) with a creep below zmax, breaks away at exactly C(μs), and slides at C(μd). In a
// SPHERICAL joint z, v and u are vectors (|u| clamped to 1, sign(v) the unit vector v/|v|): the same law along the
// direction the ball slips or strains.
// The law itself, evaluated in the residual: elements/force_joint_friction_law.h.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elements/constraint_joint.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceJointFrictionSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long joint_id = 0;
  double mu_static = 0, mu_dynamic = 0;
  double max_stiction_deform = 0.01;
  double stiction_trans_vel = 0.1;
  std::string inactive = "NONE";
  std::string effect = "ALL";
  std::string inputs = "1111";
  double torque_preload = 0, force_preload = 0;
  double friction_arm = 1, bending_reaction_arm = 1, pin_radius = 1;
  double ball_radius = 1;
  double reaction_arm = 1, initial_overlap = 1;
  std::string overlap_delta = "CONSTANT";
};

const ElementSchema<ForceJointFrictionSpec>& forceJointFrictionSchema();
// mu_dynamic <= mu_static; inputs four binary digits.
void checkForceJointFriction(const ForceJointFrictionSpec& spec, Diagnostics& diagnostics);

enum class FrictionEffect { All, Stiction, Sliding };
// The joint a friction acts in: one rotation, one translation, or a ball's three rotations.
enum class FrictionJointKind { Revolute, Translational, Spherical };

// One friction element, built: its joint and its law's numbers.
struct JointFriction {
  long id = 0;
  SourceLoc loc;
  long jointId = 0;
  FrictionJointKind kind = FrictionJointKind::Revolute;
  bool rotational() const { return kind != FrictionJointKind::Translational; }  // a torque, not a force
  int markerI = -1, markerJ = -1;  // into Model::markers
  int bodyI = -1, bodyJ = -1;      // into Model::bodies; -1 for ground
  double muStatic = 0, muDynamic = 0;
  double maxStictionDeform = 0, stictionVelocity = 0;
  FrictionEffect effect = FrictionEffect::All;
  bool usePreload = true, useReactionForce = true, useBendingMoment = true, useTorsionalMoment = true;
  double preload = 0;       // torque_preload (REVOLUTE, SPHERICAL) or force_preload (TRANSLATIONAL)
  double pinRadius = 1, frictionArm = 1, bendingArm = 1;  // REVOLUTE
  double ballRadius = 1;                                  // SPHERICAL
  double overlap = 1, reactionArm = 1;                    // TRANSLATIONAL
};

struct JointFrictionModel {
  std::vector<JointFriction> frictions;
};

// The model's Force_JointFriction elements on its active joints. A joint that is not REVOLUTE, TRANSLATIONAL or
// SPHERICAL, or that is inactive or missing, is an error at the element's line.
std::shared_ptr<JointFrictionModel> buildJointFrictionModel(const std::vector<ForceJointFrictionSpec>& specs,
                                                            const Model& model, Diagnostics& diagnostics);

}  // namespace lodestone

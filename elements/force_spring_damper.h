// Force_SpringDamper (Adams SPRINGDAMPER): a linear spring and damper between markers I and J, translational or
// rotational. The deck element, its checks, and its law.
//
// Attributes as MotionSolve's XML page and exported decks write them: type="TRANSLATIONAL" | "ROTATIONAL",
// stiffness, damping, length (the free length; for ROTATIONAL the free angle, in radians) and preload (the force or
// torque when the distance or angle equals length). (Adams names them K, C, LENGTH, FORCE and KT, CT, ANGLE,
// TORQUE; MotionSolve's Python API TRANSLATION/ROTATION, k, c, length, force, kt, ct, angle, torque.)
//
//   TRANSLATIONAL: with r = |p_I − p_J| and ṙ its rate, f = −stiffness·(r − length) − damping·ṙ + preload, along
//     the line from J to I: on I at its origin, the reaction on J at its origin; positive f pushes them apart.
//   ROTATIONAL: with θ the angle from J's x axis to I's x axis about J's z axis (AZ(I,J)) and θ̇ = WZ(I,J,J),
//     t = −stiffness·(θ − length) − damping·θ̇ + preload, about J's z axis on I, the reaction on J. The z axes
//     should be parallel (Adams requires it). θ counts whole turns as the bodies wind up (the evaluator follows it
//     from one evaluation to the next), so a spring wound 1.2 turns pulls back 1.2 turns.
#pragma once

#include <optional>
#include <string>

#include "elements/force_law.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ForceSpringDamperSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  long i_marker_id = 0, j_marker_id = 0;
  double stiffness = 0, damping = 0, length = 0, preload = 0;
  bool active = true;  // false after <Deactivate element_type="SPDP"> (or SPRINGDAMPER, FORCE)
};

const ElementSchema<ForceSpringDamperSpec>& forceSpringDamperSchema();
// A translational spring's free length is a length: not negative. A spring with nothing to give is warned about.
void checkForceSpringDamper(const ForceSpringDamperSpec& spec, Diagnostics& diagnostics);

struct SpringDamper {
  bool rotational = false;
  long iMarker = 0, jMarker = 0;
  double stiffness = 0, damping = 0, length = 0, preload = 0;
};

std::optional<SpringDamper> buildSpringDamper(const ForceSpringDamperSpec& spec, const Model& model,
                                              ForceConnection& connection, Diagnostics& diagnostics);

// `angle` carries a rotational spring's angle from one evaluation to the next (NaN before the first), so that θ
// goes on past ±π: each evaluation takes the turn of AZ nearest to the previous angle.
ElementAction springDamperAction(const SpringDamper& spring, const ExpressionContext& context, double& angle);

}  // namespace lodestone

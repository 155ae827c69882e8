// Constraint_Gear: MotionSolve's gear between two joints — spur, helical, bevel or rack-and-pinion — given by a
// common-velocity marker: its origin is the contact point, its z-axis the direction the two gears' teeth move
// together there, and it sits on the housing, the body that holds both joints' J markers.
//
// The material points of the two gears at the contact point move alike along z_cv, relative to the housing:
// v1·z_cv = v2·z_cv. A joint turning by q about z_J moves its gear's point at the contact point by
// q̇·(z_J × (p_cv − p_J)); one sliding by q along z_J by q̇·z_J. Those factors are fixed in the housing, so the
// gear is a coupler (elements/constraint_coupler.h) with coefficients c = (z_J × (p_cv − p_J))·z_cv for a
// rotation and c = z_J·z_cv for a translation, those of joint 2 negated, taken in the deck's configuration: for
// two spur gears of pitch radii r1 and r2, r1·q1 + r2·q2 = 0 (external mesh). A CYLINDRICAL joint takes part
// with both of its coordinates (a helical gear's slide turns it too), each whose factor is not zero.
#pragma once

#include <string>
#include <vector>

#include "elements/constraint_joint.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ConstraintGearSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long joint1_id = 0, joint2_id = 0;
  long cv_marker_id = 0;
};

const ElementSchema<ConstraintGearSpec>& constraintGearSchema();
// The two joints differ.
void checkConstraintGear(const ConstraintGearSpec& spec, Diagnostics& diagnostics);

// Adds each gear's equation to `constraints` (after its joints and motions). The cv marker must be on the body of
// both joints' J markers, and each joint must move the contact point along z_cv.
void appendGears(const std::vector<ConstraintGearSpec>& gears, const std::vector<ConstraintJointSpec>& jointSpecs,
                 const Model& model, ConstraintModel& constraints, Diagnostics& diagnostics);

}  // namespace lodestone

// Motion_Marker: a prescribed motion between two markers of two bodies — DX(I,J,J), DY(I,J,J) or DZ(I,J,J) = f
// (direction X, Y, Z), or a body-fixed 1-2-3 angle of I's axes from J's (B1, B2, B3: R_J^T R_I = Rx(b1) Ry(b2)
// Rz(b3)) = f — given as displacement, velocity or acceleration (val_type D, V, A) by an expression or a MOTSUB,
// exactly as Motion_Joint's law (elements/motion_joint.h): one more constraint equation (OnJointAxisLine or
// BodyFixedAngle), whose reaction is the force along J's axis, or the torque, that drives the motion (joints.csv,
// element Motion_Marker). B1 and B3 may turn many times; B2 stays within ±90° (the angles' singularity).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "elements/constraint_joint.h"
#include "plugins/element_subroutine.h"
#include "solver/core/schema.h"

namespace lodestone {

struct MotionMarkerSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  long i_marker_id = 0;
  long j_marker_id = 0;
  std::string direction;  // "X", "Y", "Z", "B1", "B2", "B3"
  std::string type;       // "EXPRESSION" or "USERSUB"
  std::string val_type;   // "D", "V", "A"
  std::optional<std::string> expr;
  std::optional<double> ic_disp, ic_vel;
  bool active = true;
  SubroutineAttributeValues subroutine;  // type="USERSUB": MOTSUB
};

const ElementSchema<MotionMarkerSpec>& motionMarkerSchema();
// I and J differ; USERSUB names its MOTSUB's library or script; EXPRESSION has expr.
void checkMotionMarker(const MotionMarkerSpec& spec, Diagnostics& diagnostics);

// Adds each active Motion_Marker's equation to `constraints` (after the joints and Motion_Joints). Markers on one
// body (or both on ground) are an error, as for a joint.
void appendMarkerMotions(const std::vector<MotionMarkerSpec>& specs, const Model& model, ConstraintModel& constraints,
                         Diagnostics& diagnostics);

}  // namespace lodestone

// Motion_Marker: a prescribed motion between two markers along one axis of the J marker — DX(I,J,J), DY(I,J,J) or
// DZ(I,J,J) = f (direction X, Y, Z) — given as displacement, velocity or acceleration (val_type D, V, A) by an
// expression or a MOTSUB, exactly as Motion_Joint's law (elements/motion_joint.h) but on any two markers of two
// bodies: one more constraint equation, of kind OnJointAxisLine, whose reaction is the force along J's axis that
// drives the motion (joints.csv, element Motion_Marker). The rotational directions B1, B2, B3 (body-fixed 1-2-3
// angles of I from J) are refused at the element's line.
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
  std::string direction;  // "X", "Y", "Z" (B1, B2, B3 are read and refused)
  std::string type;       // "EXPRESSION" or "USERSUB"
  std::string val_type;   // "D", "V", "A"
  std::optional<std::string> expr;
  std::optional<double> ic_disp, ic_vel;
  bool active = true;
  SubroutineAttributeValues subroutine;  // type="USERSUB": MOTSUB
};

const ElementSchema<MotionMarkerSpec>& motionMarkerSchema();
// B1, B2, B3 refused; I and J differ; USERSUB names its MOTSUB's library or script; EXPRESSION has expr.
void checkMotionMarker(const MotionMarkerSpec& spec, Diagnostics& diagnostics);

// Adds each active Motion_Marker's equation to `constraints` (after the joints and Motion_Joints). Markers on one
// body (or both on ground) are an error, as for a joint.
void appendMarkerMotions(const std::vector<MotionMarkerSpec>& specs, const Model& model, ConstraintModel& constraints,
                         Diagnostics& diagnostics);

}  // namespace lodestone

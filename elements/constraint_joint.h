// Constraint_Joint and Constraint_Jprim: the deck elements, and the joints of a model as lists of scalar
// constraint equations between an I marker and a J marker (elements/joint_equations evaluates them).
//
// Each joint type is a combination of primitives, as Adams and MotionSolve define them (the joint axis is the
// z-axis of the markers; d = p_I − p_J):
//   ATPOINT (3)        d = 0 in ground axes
//   INLINE (2)         d·x_J = d·y_J = 0: I's origin on J's z-axis
//   INPLANE (1)        d·z_J = 0: I's origin in J's x-y plane
//   PARALLEL_AXES (2)  z_I·x_J = z_I·y_J = 0
//   PERPENDICULAR (1)  z_I·z_J = 0
//   ORIENTATION (3)    z_I·x_J = z_I·y_J = x_I·y_J = 0
// FIXED = ATPOINT + ORIENTATION; REVOLUTE = ATPOINT + PARALLEL_AXES; SPHERICAL = ATPOINT;
// TRANSLATIONAL = INLINE + ORIENTATION; CYLINDRICAL = INLINE + PARALLEL_AXES; PLANAR = INPLANE + PARALLEL_AXES;
// UNIVERSAL = ATPOINT + z_I·z_J = 0 (the z-axes are the cross's pins); HOOKE = ATPOINT + x_I·y_J = 0 (the z-axes
// point down the shafts); CONSTANT_VELOCITY = ATPOINT + x_I·y_J + y_I·x_J = 0 (z-axes down the shafts, away from
// the joint centre: equal and opposite rotations about them);
// SCREW: (d·z_J − d0) = pitch·(θ − θ0)/2π with θ the rotation of x_I about z_J from x_J;
// RACK_PINION: (d·z_J − d0) = (pitch_diameter/2)·(θ − θ0) with θ the rotation of the pinion (I) about z_I, x_I
// along the rack's z_J at the start. SCREW and RACK_PINION remove one degree of freedom each and rely on other
// joints to hold the axes; d0 and θ0 are their values in the deck's configuration (ours: Adams does not say).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "elements/motion_joint.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"

namespace lodestone {

struct ConstraintJointSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  std::string type;
  long i_marker_id = 0;
  long j_marker_id = 0;
  std::optional<double> pitch;           // SCREW
  std::optional<double> pitch_diameter;  // RACK_PINION
  bool active = true;
};

const ElementSchema<ConstraintJointSpec>& constraintJointSchema();
const ElementSchema<ConstraintJointSpec>& constraintJprimSchema();
// SCREW needs pitch, RACK_PINION pitch_diameter; I and J must differ.
void checkConstraintJoint(const ConstraintJointSpec& spec, Diagnostics& diagnostics);

// ---- the joints of a model ------------------------------------------------------------------------------------

// One scalar equation of a joint.
enum class JointEquationKind {
  Point,            // d·e_axis (ground axes x, y, z)
  OnJointAxisLine,  // d·(axis of J): x or y for INLINE, z for INPLANE
  AxesDot,          // (axis of I)·(axis of J)
  ConstantVelocity, // x_I·y_J + y_I·x_J
  Screw,            // d·z_J − d0 − ratio·(θ − θ0), θ about z_J
  RackPinion,       // d·z_J − d0 − ratio·(θ − θ0), θ about z_I
  JointTranslation, // d·z_J: what a translational Motion_Joint prescribes
  JointRotation,    // θ, the rotation of x_I about z_J (AZ): what a rotational Motion_Joint prescribes
  BodyFixedAngle,   // angle axisI (0, 1, 2) of I's axes from J's by body-fixed 1-2-3 angles: Motion_Marker B1-B3
  Coupler,          // Σ c_k (q_k − q_k0) over the joint coordinates of Joint::coupled (Constraint_Coupler, _Gear)
};

struct JointEquation {
  JointEquationKind kind = JointEquationKind::Point;
  int axisI = 0;  // 0, 1, 2: x, y, z of I (AxesDot); of ground (Point); the angle (BodyFixedAngle)
  int axisJ = 0;  // of J (OnJointAxisLine, AxesDot)
  double ratio = 0;          // Screw: pitch/2π; RackPinion: pitch_diameter/2
  double offset = 0;         // d0, for Screw and RackPinion
  double angleOffset = 0;    // θ0, for Screw and RackPinion
  std::string name;          // "x translation", "z_I·x_J": what the equation holds, for messages
};

// What a Motion_Joint prescribes (see elements/motion_joint.h).
struct JointMotion {
  Expression expression;
  char valueType = 'D';  // 'D', 'V' or 'A'
  std::optional<double> initialDisplacement, initialVelocity;  // ic_disp, ic_vel
  // The moving bodies (indices into Model::bodies) whose positions the expression reads besides TIME, itself or
  // through the variables it reads; empty for a motion of time alone. Their columns join the motion's equation.
  std::vector<int> bodiesRead;
  // Whether the value can change at a fixed state (TIME read, itself or through a variable).
  bool readsTime = true;
  // Whether it reads any marker or variable (even of ground only): evaluated on the model's state, not on TIME.
  bool readsModel = false;
  // type="USERSUB": the MOTSUB that gives f's value (then `expression` is never evaluated).
  std::shared_ptr<const ElementSubroutine> subroutine;
  bool readsState() const { return !bodiesRead.empty(); }
  // The number of states the motion adds to the DAE: s for V, s and w for A.
  int stateCount() const { return valueType == 'D' ? 0 : valueType == 'V' ? 1 : 2; }
};

// One joint coordinate q a Constraint_Coupler or Constraint_Gear couples: measured between that joint's markers
// as a Motion_Joint measures it (`measure` is a JointTranslation or a JointRotation), counted from its value q0 in
// the deck's configuration, times its coefficient c.
struct CoupledCoordinate {
  long jointId = 0;
  JointEquation measure;
  int markerI = -1, markerJ = -1;  // index into Model::markers
  int bodyI = -1, bodyJ = -1;      // index into Model::bodies; -1 for ground
  double coefficient = 1;
  double origin = 0;               // q0
};

// A joint, a primitive, a Motion_Joint (type "MOTION", on its joint's markers, with `motion` set), or a coupler
// (type "COUPLER" or "GEAR", one equation of kind Coupler over `coupled`; its markers and bodies are its first
// joint's, for reactions and requests).
struct Joint {
  long id = 0;
  SourceLoc loc;
  std::string type;   // "REVOLUTE"
  int markerI = -1;   // index into Model::markers
  int markerJ = -1;
  int bodyI = -1;     // index into Model::bodies; -1 for ground
  int bodyJ = -1;
  std::vector<JointEquation> equations;
  std::shared_ptr<const JointMotion> motion;
  std::vector<CoupledCoordinate> coupled;  // a coupler's joint coordinates, two or three
  // The motions' equations are counted among the joints' in reactions only by their own element.
  bool isMotion() const { return motion != nullptr; }
  bool isCoupler() const { return !coupled.empty(); }
};

struct ConstraintModel {
  std::vector<Joint> joints;  // Constraint_Joint, Constraint_Jprim, Motion_Joint, then couplers: the active ones
  int equationCount = 0;
};

// "Constraint_Joint id=3 (deck.xml:12:3)"
std::string describeJoint(const Joint& joint);

// Where marker `markerIndex` (into Model::markers) is in the deck's configuration: its origin and axes in ground.
void markerFrameAtStart(const Model& model, int markerIndex, Vector3& position, Matrix3& axes);

// The value of `measure` (a JointTranslation or JointRotation) between markers `markerI` and `markerJ` (indices into
// Model::markers) in the deck's configuration; a rotation in (−π, π].
double jointCoordinateAtStart(const JointEquation& measure, int markerI, int markerJ, const Model& model);

// `joint`'s markers (indices into Model::markers) and their bodies, from the deck's marker ids; false when one is
// missing (the reader reported it) or, after an error at `loc` ending in `between` ("a joint connects two different
// bodies"), when both are on one body (or both on ground).
bool connectJointMarkers(long iMarker, long jMarker, const SourceLoc& loc, const Model& model, Joint& joint,
                         Diagnostics& diagnostics, const std::string& between);

// The law of a Motion_Joint (or of a Motion_Marker, its attributes given as a Motion_Joint's): its expression or
// MOTSUB, value type, initial values and what it reads; nothing after reporting why on the element's line.
std::shared_ptr<const JointMotion> buildMotionLaw(const MotionJointSpec& spec, const Model& model,
                                                 Diagnostics& diagnostics);

// The model's active joints, primitives and motions. A joint between two markers of one body, or between two
// ground markers, is an error; so is a motion on a joint that is inactive or of a type it cannot drive.
std::shared_ptr<ConstraintModel> buildConstraintModel(const std::vector<ConstraintJointSpec>& joints,
                                                            const std::vector<ConstraintJointSpec>& primitives,
                                                            const std::vector<MotionJointSpec>& motions,
                                                            const Model& model, Diagnostics& diagnostics);

}  // namespace lodestone

// What every force element with a law of its own shares (Force_Scalar_TwoBody, Force_Vector_*,
// Force_SpringDamper, Force_Bushing): the action its law computes from marker motions, where the element acts and
// what it reads once the model is built, and how its expressions are checked. The model of these elements and their
// run-time evaluation are in elements/force_elements.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "solver/core/diagnostics.h"
#include "solver/core/marker_measures.h"
#include "solver/core/model.h"
#include "solver/expr/expression.h"

namespace lodestone {

// A force element's law at one state, all in ground: a force and a torque on the I side with the point the force
// acts at, and the reaction on the J side with its own point. The evaluator turns the points into torques about the
// bodies' CGs, so a law needs to know nothing about bodies. A reaction that goes to ground, or that an action-only
// element does not have, is left zero.
// A load of a law over many markers: a force acting at `point` and a torque, on the body of `marker` (-1: ground).
struct MarkerAction {
  long marker = 0;
  int body = -1;
  Vector3 force = Vector3::Zero(), torque = Vector3::Zero(), point = Vector3::Zero();
};

struct ElementAction {
  Vector3 force = Vector3::Zero(), torque = Vector3::Zero(), point = Vector3::Zero();
  Vector3 reactionForce = Vector3::Zero(), reactionTorque = Vector3::Zero(), reactionPoint = Vector3::Zero();
  // The energy balance's view (energy.csv). A law with a potential (a spring, a bushing) gives the elastic energy it
  // stores and the power its damping dissipates (≥ 0); the power of a law without one (an expression) is work done
  // on the bodies.
  std::optional<double> strain;
  double dashpotPower = 0;
  // A field's loads (the magnets'): their power is work done by the field (energy.csv's work_field), not by an
  // expression (work_applied).
  bool field = false;
  // A law over many bodies (the induced magnets: every soft and permanent magnet of the model) gives its loads here,
  // one per marker, instead of the I and J sides above, which it leaves zero.
  std::vector<MarkerAction> atMarkers;
  // Numerical trouble at this state, in words for run.log (an induction solve that missed its tolerance); "" if none.
  std::string trouble;
};

// Where a built force element acts and what its loads depend on.
struct ForceConnection {
  int bodyI = -1;  // moving body (index into Model::bodies) the action loads; -1: ground
  int bodyJ = -1;  // moving body the reaction loads; -1: ground, or no reaction (action-only, one-body elements)
  // The markers it acts between (ids; markerJ 0 for one-body elements): what MARKER_FORCE requests sum by.
  long markerI = 0, markerJ = 0;
  // Every moving body whose state the loads read: those of the element's markers and of the markers its
  // expressions name, themselves or through Reference_Variables (the Jacobian differences over these).
  std::vector<int> bodiesRead;
  // Whether the loads may read the bodies' velocities; the Jacobian differences only positions and orientations of an
  // element whose loads cannot (a magnet pair), 7 of the 13 states.
  bool readsVelocities = true;
  // A law over many bodies: the moving bodies its ElementAction::atMarkers load (bodyI and bodyJ are then -1).
  std::vector<int> bodiesLoaded;
  // Its expressions read contacts' loads (CONTACT, themselves or through Reference_Variables): the contacts are
  // evaluated before it, and again at each state the Jacobian moves a body to (bodiesRead holds the contacts' bodies).
  bool readsContacts = false;
};

// ---- six-component elements (Force_Bushing, Force_Beam, Force_Field) ------------------------------------------------
// Their one shared kinematics: the deflection of marker I from J and its rate, both in J's axes, and how a load in J's
// axes acts. Each law only maps the deflection to a load.

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Vector6 = Eigen::Matrix<double, 6, 1>;

struct RelativeDeflection {
  Matrix3 axes;          // J's axes (columns), in ground
  Vector3 point;         // I's origin, in ground: where the load acts, on I and (as reaction) on J
  Vector6 displacement;  // [DX DY DZ](I,J,J), then I's rotation from J: [AX AY AZ](I,J)
  Vector6 rate;          // the separation's derivative seen from J, then I's angular velocity relative to J's
};

// Adams calls the rotation "projected small-angle rotational displacements"; AX, AY, AZ(I,J) agree with any other
// small-angle measure to first order and are exact for a rotation about one of J's axes.
RelativeDeflection relativeDeflection(const MarkerMotion& i, const MarkerMotion& j);

// A load [F; T] in J's axes acting on I (F at I's origin), and on J the reaction −F and −T − δ × F, δ = p_I − p_J:
// the same as −F acting at I's origin on J's body, which is how it is applied.
ElementAction deflectionLoadAction(const RelativeDeflection& deflection, const Vector6& load);

// The moving body marker `id` is on (-1: ground, or a marker the model lacks); the body is added to `bodiesRead`.
int bodyOfMarker(const Model& model, long id, ForceConnection& connection);

// An element between two markers (a beam, a field): `connection`'s markers and bodies set from them; false, with an
// error at `loc` ending in `between` ("a beam joins two different bodies"), when both are on one body.
bool connectMarkerPair(long iMarker, long jMarker, const SourceLoc& loc, const Model& model,
                       ForceConnection& connection, Diagnostics& diagnostics, const std::string& between);

// A force element's expression attribute, compiled and checked: markers, variables and contacts it names must exist,
// and it may not read accelerations (the force would then depend on the accelerations it causes, which Lodestone does
// not solve for) nor an element's loads (JOINT…, SFORCE…, FX…: refuseLoadReads). The bodies it reads, and whether it
// reads contacts' loads, are added to `connection`. Errors say the attribute and the column.
std::optional<Expression> buildForceExpression(const std::string& attribute, const std::string& text,
                                               const SourceLoc& loc, const Model& model, ForceConnection& connection,
                                               Diagnostics& diagnostics);

}  // namespace lodestone

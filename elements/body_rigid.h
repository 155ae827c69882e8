// Body_Rigid: the deck element (attributes, checks, initial state) and the rigid-body equations the
// integrator solves for each moving body — kinematics and Newton–Euler with the gyroscopic term.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>

#include <Eigen/Dense>

#include "solver/core/marker_measures.h"
#include "solver/core/model.h"
#include "solver/core/schema.h"
#include "solver/expr/expression.h"

namespace lodestone {

struct BodyRigidSpec {
  SourceLoc loc;
  long id = 0;
  std::string label;
  bool isground = false;
  std::optional<double> mass;
  double inertia_xx = 0, inertia_yy = 0, inertia_zz = 0;
  double inertia_xy = 0, inertia_yz = 0, inertia_xz = 0;  // positive integrals ∫xy dm, as Adams defines them
  std::optional<long> cg_id, im_id, lprf_id;
  double v_ic_x = 0, v_ic_y = 0, v_ic_z = 0;  // CG velocity, global axes
  double w_ic_x = 0, w_ic_y = 0, w_ic_z = 0;  // angular velocity, global axes
  // MotionSolve's "exact" flags for the initial-condition solve.
  bool v_ic_x_flag = true, v_ic_y_flag = true, v_ic_z_flag = true;
  bool w_ic_x_flag = true, w_ic_y_flag = true, w_ic_z_flag = true;
};

const ElementSchema<BodyRigidSpec>& bodyRigidSchema();
// Cross-attribute checks that need only this element.
void checkBodyRigid(const BodyRigidSpec& spec, Diagnostics& diagnostics);

// The inertia tensor of the six deck values: products enter with a minus sign (Ixy = ∫xy dm).
Matrix3 inertiaTensor(const BodyRigidSpec& spec);
// Moves an inertia tensor given about `imOrigin` in axes `imAxes` (both in ground) to the CG, in `bodyAxes`.
Matrix3 inertiaAboutCg(const Matrix3& inertiaAtIm, const Matrix3& imAxes, const Vector3& imOrigin, double mass,
                       const Vector3& cg, const Matrix3& bodyAxes);

// ---- the equations of one moving body ---------------------------------------------------------------------

// Layout of one body's 13 state variables.
namespace body_state {
constexpr int kSize = 13;
constexpr int kPosition = 0;         // CG in ground (3)
constexpr int kEulerParameters = 3;  // body axes in ground (4)
constexpr int kVelocity = 7;         // CG velocity in ground (3)
constexpr int kAngularVelocity = 10; // in body axes (3)
}  // namespace body_state

// Everything applied to a body, in ground axes; the torque is about the CG.
struct BodyLoad {
  Vector3 force = Vector3::Zero();
  Vector3 torque = Vector3::Zero();
};

// What one element (a contact pair, a force) applies to the two bodies it joins, in ground; torques about each
// body's CG.
struct TwoBodyLoads {
  Vector3 forceOnI = Vector3::Zero(), torqueOnI = Vector3::Zero();
  Vector3 forceOnJ = Vector3::Zero(), torqueOnJ = Vector3::Zero();
};

// What one joint, motion or force element applies at its two markers, in ground: the force on each and the torque
// about each marker's origin (what MARKER_FORCE requests sum).
struct MarkerPairLoad {
  long markerI = 0, markerJ = 0;  // Reference_Marker ids
  LoadSource source = LoadSource::None;  // the element's kind and id, for JOINT(id, …), SFORCE(id, …)…
  long id = 0;
  Vector3 forceOnI = Vector3::Zero(), torqueOnI = Vector3::Zero();
  Vector3 forceOnJ = Vector3::Zero(), torqueOnJ = Vector3::Zero();
};

// A moving body's frame and motion in ground, computed once per residual for every force element to read.
struct BodyKinematics {
  Vector3 position = Vector3::Zero();         // CG
  Matrix3 rotation = Matrix3::Identity();     // body axes in ground (columns)
  Vector3 velocity = Vector3::Zero();         // CG
  Vector3 angularVelocity = Vector3::Zero();  // ground axes
  // From y' where the residual has it (user subroutines read them, e.g. CNFSUB's gapdotdot); zero otherwise.
  Vector3 acceleration = Vector3::Zero();         // CG
  Vector3 angularAcceleration = Vector3::Zero();  // ground axes

  // Velocity in ground of the body's material point that is at `point` (ground) now.
  Vector3 velocityAt(const Vector3& point) const { return velocity + angularVelocity.cross(point - position); }
  // Acceleration in ground of that material point.
  Vector3 accelerationAt(const Vector3& point) const {
    const Vector3 arm = point - position;
    return acceleration + angularAcceleration.cross(arm) + angularVelocity.cross(angularVelocity.cross(arm));
  }
};

// The kinematics of a body's 13 state values (the Euler parameters need not be normalised).
BodyKinematics bodyKinematics(const double* state);
// The forward-difference step for a state value in the Jacobian's coupling blocks (contacts, forces, joints):
// about the square root of the machine epsilon, relative to values larger than 1.
inline double differenceStep(double value) { return 1.5e-8 * std::max(1.0, std::fabs(value)); }

// Calls visit(k, increment, kinematics) for each of the first `count` of a body's 13 state values, moved by its
// difference step with the others as given: the columns of a Jacobian block by forward differences.
template <class Visit>
void forEachPerturbedState(const double* state, int count, Visit&& visit) {
  double moved[body_state::kSize];
  std::copy_n(state, body_state::kSize, moved);
  for (int k = 0; k < count; ++k) {
    const double saved = moved[k];
    const double increment = differenceStep(saved);
    moved[k] = saved + increment;
    const BodyKinematics kinematics = bodyKinematics(moved);
    moved[k] = saved;
    visit(k, increment, kinematics);
  }
}

// Adds the accelerations of the body's 13 state derivatives (ω' is in body axes; R·ω' is the angular
// acceleration in ground, since d(Rω_b)/dt = Rω'_b + ω × Rω_b and ω × ω = 0).
void addAccelerations(const double* stateDerivative, BodyKinematics& kinematics);

// Where a marker is and how it moves, when its body has these kinematics (null: a ground marker).
MarkerMotion markerMotion(const Marker& marker, const BodyKinematics* body);

using BodyBlock = Eigen::Matrix<double, body_state::kSize, body_state::kSize>;

// The 13 residuals of one body: p' − v, e' − ½Q(e)ω, M v' − f, J ω' + ω × Jω − Rᵀτ, where M and J carry the
// mass multiplication factor. y, yp point at the body's 13 values. A point body's turning rows are M ω' instead
// (elements/body_point.h), here and in the Jacobian and rate product below.
void bodyResidual(const RigidBody& body, double massFactor, const double* y, const double* yp, const BodyLoad& load,
                  double* residual);
// The same, given the rotation matrix of y's Euler parameters, which the residual's kinematics stage has already
// computed for every force element.
void bodyResidual(const RigidBody& body, double massFactor, const Matrix3& rotation, const double* y,
                  const double* yp, const BodyLoad& load, double* residual);

// ∂residual/∂y + cj·∂residual/∂y' of bodyResidual with the load held fixed (loads add their own terms).
void bodyJacobian(const RigidBody& body, double massFactor, const double* y, double cj, const BodyLoad& load,
                  BodyBlock& block);
// out += scale · ∂residual/∂y' · v over the body's 13 values. ∂residual/∂y' is the identity on p and e, M on v, J on
// ω: constant, so the iteration matrix at any cj is the one at another cj plus (cj − cj_other)·it.
void addBodyRateProduct(const RigidBody& body, double massFactor, double scale, const double* v, double* out);

// The 13 initial state values of a body (its ω converted to body axes).
void bodyInitialState(const RigidBody& body, double* y);

// A body's kinetic energy at its 13 state values, with the mass multiplication factor: ½M·v² of its CG's motion
// and ½ω·Jω of its turning (ω in body axes).
struct KineticEnergy {
  double translational = 0, rotational = 0;
};
KineticEnergy bodyKineticEnergy(const RigidBody& body, double massFactor, const double* state);

}  // namespace lodestone

// Body_Point: a point mass — the deck element (attributes, checks) and what sets its equations apart from a rigid
// body's. It is a RigidBody with `point` set (solver/core/model.h): the same 13 states, so that forces, markers,
// requests and outputs read it as any body, but it has no inertia and its axes stay those of ground.
#pragma once

#include <optional>
#include <string>

#include "elements/body_rigid.h"

namespace lodestone {

struct BodyPointSpec {
  SourceLoc loc;
  long id = 0;  // unique among Body_Point elements; a Body_Rigid may have the same id in MotionSolve
  std::string label;
  std::optional<long> cg_id, lprf_id;
  std::optional<double> mass;
  double v_ic_x = 0, v_ic_y = 0, v_ic_z = 0;  // CG velocity, global axes
  bool v_ic_x_flag = true, v_ic_y_flag = true, v_ic_z_flag = true;
};

const ElementSchema<BodyPointSpec>& bodyPointSchema();
// Cross-attribute checks that need only this element.
void checkBodyPoint(const BodyPointSpec& spec, Diagnostics& diagnostics);

// ---- the turning rows of a point body ----------------------------------------------------------------------------
// A point mass has nothing to turn: its rows of J ω' + ω × Jω = τ are replaced by scale·ω' = 0, scaled like its
// translational rows (M v' = f) so the iteration matrix stays balanced. ω starts at 0, so it stays 0 and the Euler
// parameters (e' = ½Q(e)ω) keep their initial value: the orientation never changes and torques are ignored.

// The factor of ω' in a point body's turning rows: its mass with the mass multiplication factor.
inline double pointTurnRowScale(const RigidBody& body, double massFactor) { return massFactor * body.mass; }

// Overwrites the three turning rows of a point body's 13 residuals with scale·ω'.
void pointBodyTurnResidual(const RigidBody& body, double massFactor, const double* yp, double* residual);

// Overwrites the turning rows of a point body's own 13×13 iteration-matrix block with cj·scale on the diagonal,
// dropping whatever forces, contacts and joints added to those rows: ω' = 0 does not depend on them.
void pointBodyTurnJacobian(const RigidBody& body, double massFactor, double cj, BodyBlock& block);

}  // namespace lodestone

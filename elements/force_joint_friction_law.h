// Force_JointFriction's law at a state (elements/force_joint_friction.h states it): the friction of each element from
// its joint's reaction and slip, the anchors of its bristles, and the loads it puts on the bodies and markers.
#pragma once

#include <span>
#include <vector>

#include "elements/body_rigid.h"
#include "elements/force_joint_friction.h"
#include "solver/output/result_tables.h"

namespace lodestone {

// What one friction element does at a state: the slip, the normal load, the friction (for requests and tests).
struct JointFrictionSample {
  double slipVelocity = 0;   // v on the surface (length/time); in a SPHERICAL joint |v|
  double bristle = 0;        // u = z/zmax, in [−1, 1]; in a SPHERICAL joint |u|
  double staticCapacity = 0, dynamicCapacity = 0;  // C(μs), C(μd)
  double friction = 0;       // f along (about) z_J on I: a force or a torque; in a SPHERICAL joint |f|
  Vector3 load = Vector3::Zero();  // the friction on I in ground's axes: f·z_J, or a SPHERICAL joint's torque
  double coefficient = 0;    // the blend of μs and μd that multiplies the normal load (FRICTION's μ)
};

// Evaluates the friction elements in the residual: each reads its joint's reaction from the multipliers of the
// state being evaluated (the same iterate Newton is solving for), so the loop friction → accelerations → reactions
// → friction is closed in the residual itself, at no extra state.
class JointFrictionEvaluator {
 public:
  explicit JointFrictionEvaluator(const Model& model);
  bool empty() const { return frictions_.empty(); }
  bool started() const { return started_; }
  // The anchors at the start: each joint's slip coordinate at `bodies` (no bristle deflection).
  void start(std::span<const BodyKinematics> bodies);
  // `reactions` below: one per element, in order, its joint's reaction at the state (a zero one if not active).
  // Adds the friction loads at `bodies` with the joints' reactions `reactions`.
  // `reactions` may be empty (a start without multipliers): no friction then.
  // `atOutput`: at an output within the latest accepted step (see acceptState).
  void addLoads(std::span<const BodyKinematics> bodies, std::span<const JointReaction> reactions,
                std::vector<BodyLoad>& loads, bool atOutput = false) const;
  // At an output: the same loads at the joint markers, for requests and FX…TM (source None), appended to `loads`,
  // and what FRICTION() reads of each element, appended to `measures`.
  void addOutputs(std::span<const BodyKinematics> bodies, std::span<const JointReaction> reactions,
                  std::vector<MarkerPairLoad>& loads, std::vector<FrictionMeasures>& measures) const;
  // After an accepted step: the anchors follow the joints that slid beyond zmax. The outputs within that step, which
  // come after, keep the anchors its solution was computed with (`atOutput`).
  void acceptState(std::span<const BodyKinematics> bodies);
  // The power the friction takes from the bodies (−f·v, ≥ 0 while sliding; the bristle gives back what it stored).
  double dissipatedPower(std::span<const BodyKinematics> bodies, std::span<const JointReaction> reactions) const;
  int count() const { return static_cast<int>(frictions_.size()); }
  long idOf(int index) const { return frictions_[static_cast<size_t>(index)].id; }

 private:
  struct Placed {
    Vector3 positionI, positionJ;
    Matrix3 axesJ;
    double slip = 0;          // x: the slip coordinate (Rp·θ, or d·z_J)
    double slipVelocity = 0;  // v
    // SPHERICAL: I's axes in J's, and ω_I − ω_J in ground's axes.
    Matrix3 relative = Matrix3::Identity();
    Vector3 relativeRate = Vector3::Zero();
  };
  Placed place(const JointFriction& friction, int index, std::span<const BodyKinematics> bodies,
               bool atOutput = false) const;
  // Element `index`'s friction where `place` put it, with its joint's reaction `reaction`.
  JointFrictionSample sample(int index, const Placed& placed, const JointReaction& reaction,
                             bool atOutput = false) const;
  // The same for a SPHERICAL joint's friction: `sample`'s law along the direction the ball slips or strains.
  JointFrictionSample sampleSpherical(int index, const Placed& placed, const JointReaction& reaction,
                                      bool atOutput) const;
  // A SPHERICAL joint's bristle: the rotation from its anchor to `relative` as a vector in J's axes (angle·axis).
  Vector3 rotationFromAnchor(int index, const Matrix3& relative, bool atOutput) const;

  const Model& model_;
  std::vector<JointFriction> frictions_;
  std::vector<double> anchors_;  // a, per element
  std::vector<double> angles_;   // the latest accepted joint angle (REVOLUTE), to count whole turns
  std::vector<double> stepAnchors_, stepAngles_;  // the same at the start of the latest accepted step
  // A SPHERICAL joint's anchor: the relative orientation (I's axes in J's) where its bristle is straight.
  std::vector<Matrix3> orientationAnchors_, stepOrientationAnchors_;
  bool started_ = false;
};

}  // namespace lodestone

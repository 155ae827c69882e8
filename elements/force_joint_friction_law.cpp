// Force_JointFriction's law: the friction of each element at a state, its bristles' anchors, and its loads.
#include "force_joint_friction_law.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <Eigen/Geometry>

#include "solver/core/step_functions.h"

namespace lodestone {
namespace {

double magnitude(double value) { return std::fabs(value); }
double magnitude(const Vector3& value) { return value.norm(); }

// The friction and its coefficient (FRICTION's μ) of the law in force_joint_friction.h, at β = `sliding`, from the
// bristle u, the slip's direction (sign(v), or v/|v| in a ball) and `smoothed()`, effect="Sliding"'s
// STEP(v, −vs, −1, vs, 1) along the slip. One law for a joint's one coordinate (Slip = double) and a ball's three.
template <class Slip>
struct StickSlip {
  Slip friction;
  double coefficient;
};

// `smoothed` is called only for that effect: the residual evaluates this law at every call.
template <class Slip, class Smoothed>
StickSlip<Slip> stickSlip(const JointFriction& law, double sliding, double staticCapacity, double dynamicCapacity,
                          const Slip& bristle, const Slip& direction, const Smoothed& smoothed) {
  switch (law.effect) {
    case FrictionEffect::All:
      return {Slip(-((1 - sliding) * staticCapacity * bristle + sliding * dynamicCapacity * direction)),
              (1 - sliding) * law.muStatic * magnitude(bristle) + sliding * law.muDynamic * magnitude(direction)};
    case FrictionEffect::Stiction:
      return {Slip(-(1 - sliding) * staticCapacity * bristle), (1 - sliding) * law.muStatic * magnitude(bristle)};
    case FrictionEffect::Sliding:
      break;
  }
  const Slip slip = smoothed();
  return {Slip(-dynamicCapacity * slip), law.muDynamic * magnitude(slip)};
}

}  // namespace

JointFrictionEvaluator::JointFrictionEvaluator(const Model& model) : model_(model) {
  if (model.jointFrictions) frictions_ = model.jointFrictions->frictions;
  anchors_.assign(frictions_.size(), 0.0);
  angles_.assign(frictions_.size(), 0.0);
  orientationAnchors_.assign(frictions_.size(), Matrix3::Identity());
  stepAnchors_ = anchors_;
  stepAngles_ = angles_;
  stepOrientationAnchors_ = orientationAnchors_;
}

JointFrictionEvaluator::Placed JointFrictionEvaluator::place(const JointFriction& friction, int index,
                                                             std::span<const BodyKinematics> bodies,
                                                             bool atOutput) const {
  const auto frame = [&](int markerIndex, int body, Vector3& position, Matrix3& axes) -> const BodyKinematics* {
    const Marker& marker = model_.markers[static_cast<size_t>(markerIndex)];
    if (body < 0) {
      position = marker.position;
      axes = marker.orientation;
      return nullptr;
    }
    const BodyKinematics& kinematics = bodies[static_cast<size_t>(body)];
    position = kinematics.position + kinematics.rotation * marker.position;
    axes = kinematics.rotation * marker.orientation;
    return &kinematics;
  };
  Placed placed;
  Matrix3 axesI;
  const BodyKinematics* bodyI = frame(friction.markerI, friction.bodyI, placed.positionI, axesI);
  const BodyKinematics* bodyJ = frame(friction.markerJ, friction.bodyJ, placed.positionJ, placed.axesJ);
  const Vector3 axis = placed.axesJ.col(2);
  const Vector3 omegaI = bodyI ? bodyI->angularVelocity : Vector3::Zero();
  const Vector3 omegaJ = bodyJ ? bodyJ->angularVelocity : Vector3::Zero();
  if (friction.kind == FrictionJointKind::Spherical) {
    placed.relative = placed.axesJ.transpose() * axesI;
    placed.relativeRate = omegaI - omegaJ;
  } else if (friction.kind == FrictionJointKind::Revolute) {
    // θ: x_I about z_J from x_J, the whole turns counted from the latest accepted angle.
    const double measured = std::atan2(axesI.col(0).dot(placed.axesJ.col(1)), axesI.col(0).dot(placed.axesJ.col(0)));
    const double reference = (atOutput ? stepAngles_ : angles_)[static_cast<size_t>(index)];
    const double turn = 2 * std::numbers::pi;
    const double angle = measured + turn * std::round((reference - measured) / turn);
    placed.slip = friction.pinRadius * angle;
    placed.slipVelocity = friction.pinRadius * (omegaI - omegaJ).dot(axis);
  } else {
    placed.slip = (placed.positionI - placed.positionJ).dot(axis);
    const Vector3 velocityI = bodyI ? bodyI->velocityAt(placed.positionI) : Vector3::Zero();
    const Vector3 velocityJ = bodyJ ? bodyJ->velocityAt(placed.positionI) : Vector3::Zero();
    placed.slipVelocity = (velocityI - velocityJ).dot(axis);
  }
  return placed;
}

void JointFrictionEvaluator::start(std::span<const BodyKinematics> bodies) {
  for (size_t k = 0; k < frictions_.size(); ++k) {
    angles_[k] = 0;
    const Placed placed = place(frictions_[k], static_cast<int>(k), bodies);
    anchors_[k] = placed.slip;
    if (frictions_[k].kind == FrictionJointKind::Revolute) angles_[k] = placed.slip / frictions_[k].pinRadius;
    orientationAnchors_[k] = placed.relative;
  }
  stepAnchors_ = anchors_;
  stepAngles_ = angles_;
  stepOrientationAnchors_ = orientationAnchors_;
  started_ = true;
}

void JointFrictionEvaluator::acceptState(std::span<const BodyKinematics> bodies) {
  stepAnchors_ = anchors_;
  stepAngles_ = angles_;
  stepOrientationAnchors_ = orientationAnchors_;
  for (size_t k = 0; k < frictions_.size(); ++k) {
    const JointFriction& friction = frictions_[k];
    const Placed placed = place(friction, static_cast<int>(k), bodies);
    if (friction.kind == FrictionJointKind::Spherical) {
      // The anchor turns towards the ball's orientation until the bristle's strain, Rb·|φ|, is zmax again.
      const Vector3 rotation = rotationFromAnchor(static_cast<int>(k), placed.relative, false);
      const double limit = friction.maxStictionDeform / friction.ballRadius;
      if (rotation.norm() > limit) {
        orientationAnchors_[k] =
            Eigen::AngleAxisd(limit, rotation.normalized()).toRotationMatrix().transpose() * placed.relative;
      }
      continue;
    }
    if (friction.kind == FrictionJointKind::Revolute) angles_[k] = placed.slip / friction.pinRadius;
    // The anchor is dragged along once the bristle is at its limit: the clamp makes this invisible to the friction.
    const double deflection = placed.slip - anchors_[k];
    if (std::fabs(deflection) > friction.maxStictionDeform) {
      anchors_[k] = placed.slip - std::copysign(friction.maxStictionDeform, deflection);
    }
  }
}

Vector3 JointFrictionEvaluator::rotationFromAnchor(int index, const Matrix3& relative, bool atOutput) const {
  const Matrix3& anchor = (atOutput ? stepOrientationAnchors_ : orientationAnchors_)[static_cast<size_t>(index)];
  const Eigen::AngleAxisd rotation(Matrix3(relative * anchor.transpose()));
  return rotation.angle() * rotation.axis();
}

JointFrictionSample JointFrictionEvaluator::sample(int index, const Placed& placed, const JointReaction& reaction,
                                                   bool atOutput) const {
  const JointFriction& friction = frictions_[static_cast<size_t>(index)];
  if (friction.kind == FrictionJointKind::Spherical) return sampleSpherical(index, placed, reaction, atOutput);
  JointFrictionSample sample;
  sample.slipVelocity = placed.slipVelocity;
  const double anchor = (atOutput ? stepAnchors_ : anchors_)[static_cast<size_t>(index)];
  sample.bristle = std::clamp((placed.slip - anchor) / friction.maxStictionDeform,
                              -1.0, 1.0);
  // The normal load: the reaction on I, in J's axes (the torque about I's origin).
  double normal = 0;
  const Vector3 force = placed.axesJ.transpose() * reaction.force;
  const Vector3 torque = placed.axesJ.transpose() * reaction.torque;
  const double radialForce = std::hypot(force.x(), force.y());
  const double bendingMoment = std::hypot(torque.x(), torque.y());
  if (friction.kind == FrictionJointKind::Revolute) {
    if (friction.useReactionForce) {
      normal += friction.pinRadius * radialForce + friction.frictionArm * std::fabs(force.z());
    }
    if (friction.useBendingMoment) normal += friction.pinRadius * bendingMoment / friction.bendingArm;
  } else {
    if (friction.useReactionForce) normal += radialForce;
    if (friction.useBendingMoment) normal += bendingMoment / friction.overlap;
    if (friction.useTorsionalMoment) normal += std::fabs(torque.z()) / friction.reactionArm;
  }
  const double preload = friction.usePreload ? friction.preload : 0.0;
  sample.staticCapacity = friction.muStatic * normal + preload;
  sample.dynamicCapacity = friction.muDynamic * normal + preload;
  const double vs = friction.stictionVelocity;
  const double speed = std::fabs(placed.slipVelocity);
  const double sliding = step(speed, vs, 0, 2 * vs, 1);  // β: 0 while sticking, 1 sliding
  const double direction = placed.slipVelocity > 0 ? 1.0 : placed.slipVelocity < 0 ? -1.0 : 0.0;
  const auto smoothed = [&] { return step(placed.slipVelocity, -vs, -1, vs, 1); };
  const StickSlip<double> law = stickSlip(friction, sliding, sample.staticCapacity, sample.dynamicCapacity,
                                          sample.bristle, direction, smoothed);
  sample.friction = law.friction;
  sample.coefficient = law.coefficient;
  sample.load = sample.friction * placed.axesJ.col(2);
  return sample;
}

JointFrictionSample JointFrictionEvaluator::sampleSpherical(int index, const Placed& placed,
                                                            const JointReaction& reaction, bool atOutput) const {
  const JointFriction& friction = frictions_[static_cast<size_t>(index)];
  const double radius = friction.ballRadius;
  // Strain and slip on the ball's surface, in J's axes.
  Vector3 bristle = radius * rotationFromAnchor(index, placed.relative, atOutput) / friction.maxStictionDeform;
  if (bristle.norm() > 1) bristle.normalize();
  const Vector3 slipVelocity = radius * (placed.axesJ.transpose() * placed.relativeRate);
  const double speed = slipVelocity.norm();
  const Vector3 direction = speed > 0 ? Vector3(slipVelocity / speed) : Vector3::Zero();
  // The ball carries the reaction force whole, in whatever direction; it carries no moment.
  const double normal = friction.useReactionForce ? radius * reaction.force.norm() : 0.0;
  const double preload = friction.usePreload ? friction.preload : 0.0;
  JointFrictionSample sample;
  sample.slipVelocity = speed;
  sample.bristle = bristle.norm();
  sample.staticCapacity = friction.muStatic * normal + preload;
  sample.dynamicCapacity = friction.muDynamic * normal + preload;
  const double vs = friction.stictionVelocity;
  const double sliding = step(speed, vs, 0, 2 * vs, 1);  // β, as `sample`'s
  // STEP(v, −vs, −1, vs, 1) along the slip: odd in v, so its value at |v| times the slip's direction.
  const auto smoothed = [&] { return Vector3(step(speed, -vs, -1, vs, 1) * direction); };
  const StickSlip<Vector3> law = stickSlip(friction, sliding, sample.staticCapacity, sample.dynamicCapacity,
                                           bristle, direction, smoothed);  // the torque on I, in J's axes
  sample.coefficient = law.coefficient;
  sample.load = placed.axesJ * law.friction;
  sample.friction = law.friction.norm();
  return sample;
}

void JointFrictionEvaluator::addLoads(std::span<const BodyKinematics> bodies, std::span<const JointReaction> reactions,
                                      std::vector<BodyLoad>& loads, bool atOutput) const {
  if (reactions.empty()) return;
  for (size_t k = 0; k < frictions_.size(); ++k) {
    const JointFriction& friction = frictions_[k];
    const Placed placed = place(friction, static_cast<int>(k), bodies, atOutput);
    const JointFrictionSample sampled = sample(static_cast<int>(k), placed, reactions[k], atOutput);
    if (friction.rotational()) {
      if (friction.bodyI >= 0) loads[static_cast<size_t>(friction.bodyI)].torque += sampled.load;
      if (friction.bodyJ >= 0) loads[static_cast<size_t>(friction.bodyJ)].torque -= sampled.load;
    } else {
      // At I's origin, on I and (reacting) on J.
      const Vector3& force = sampled.load;
      if (friction.bodyI >= 0) {
        BodyLoad& load = loads[static_cast<size_t>(friction.bodyI)];
        load.force += force;
        load.torque += (placed.positionI - bodies[static_cast<size_t>(friction.bodyI)].position).cross(force);
      }
      if (friction.bodyJ >= 0) {
        BodyLoad& load = loads[static_cast<size_t>(friction.bodyJ)];
        load.force -= force;
        load.torque -= (placed.positionI - bodies[static_cast<size_t>(friction.bodyJ)].position).cross(force);
      }
    }
  }
}

double JointFrictionEvaluator::dissipatedPower(std::span<const BodyKinematics> bodies,
                                               std::span<const JointReaction> reactions) const {
  double power = 0;
  for (size_t k = 0; k < frictions_.size(); ++k) {
    const Placed placed = place(frictions_[k], static_cast<int>(k), bodies);
    const JointFrictionSample sampled = sample(static_cast<int>(k), placed, reactions[k]);
    if (frictions_[k].kind == FrictionJointKind::Spherical) {
      power -= sampled.load.dot(placed.relativeRate);
      continue;
    }
    // A torque works on the angular rate, v/Rp; a force on v.
    const double rate = frictions_[k].kind == FrictionJointKind::Revolute
                            ? sampled.slipVelocity / frictions_[k].pinRadius
                            : sampled.slipVelocity;
    power -= sampled.friction * rate;
  }
  return power;
}

void JointFrictionEvaluator::addOutputs(std::span<const BodyKinematics> bodies,
                                        std::span<const JointReaction> reactions, std::vector<MarkerPairLoad>& loads,
                                        std::vector<FrictionMeasures>& measures) const {
  // Ground (no body) is at rest.
  const auto velocityAt = [&](int body, const Vector3& point) -> Vector3 {
    return body >= 0 ? bodies[static_cast<size_t>(body)].velocityAt(point) : Vector3::Zero();
  };
  const auto angularVelocity = [&](int body) -> Vector3 {
    return body >= 0 ? bodies[static_cast<size_t>(body)].angularVelocity : Vector3::Zero();
  };
  for (size_t k = 0; k < frictions_.size(); ++k) {
    const JointFriction& friction = frictions_[k];
    const Placed placed = place(friction, static_cast<int>(k), bodies, true);
    const JointFrictionSample sampled = sample(static_cast<int>(k), placed, reactions[k], true);
    const Vector3 axis = placed.axesJ.col(2);
    MarkerPairLoad load;
    load.markerI = model_.markers[static_cast<size_t>(friction.markerI)].id;
    load.markerJ = model_.markers[static_cast<size_t>(friction.markerJ)].id;
    FrictionMeasures measured;
    measured.id = friction.id;
    measured.markerJ = static_cast<int>(load.markerJ);
    if (friction.rotational()) {
      load.torqueOnI = sampled.load;
      load.torqueOnJ = -load.torqueOnI;
      // A ball's coefficient along the rotation its friction resists (a pin's along its axis, whichever way it turns).
      const Vector3 along = friction.kind == FrictionJointKind::Revolute ? axis
                            : sampled.friction > 0                  ? Vector3(-sampled.load / sampled.friction)
                                                                    : Vector3::Zero();
      measured.rotationalCoefficient = sampled.coefficient * along;
    } else {
      load.forceOnI = sampled.load;
      load.forceOnJ = -load.forceOnI;
      load.torqueOnJ = (placed.positionI - placed.positionJ).cross(load.forceOnJ);
      measured.translationalCoefficient = sampled.coefficient * axis;
    }
    measured.force = load.forceOnI;
    measured.torque = load.torqueOnI;
    measured.slipVelocity = velocityAt(friction.bodyI, placed.positionI) - velocityAt(friction.bodyJ, placed.positionI);
    measured.slipAngularVelocity = angularVelocity(friction.bodyI) - angularVelocity(friction.bodyJ);
    loads.push_back(load);
    measures.push_back(measured);
  }
}

}  // namespace lodestone

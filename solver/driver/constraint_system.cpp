// Joints in the residual and the iteration matrix, assembly, redundancy and reactions.
#include "constraint_system.h"

#include <algorithm>
#include <array>
#include <cmath>

#include <Eigen/SparseCholesky>
#include <Eigen/SparseQR>

#include "elements/reference_spline.h"
#include "elements/subroutine_state.h"
#include "jacobian_assembly.h"
#include "joint_graph.h"
#include "solver/core/rotation.h"
#include "solver/output/number_format.h"

namespace lodestone {

using namespace body_state;

namespace {

Vector3 vec3(const double* v) { return {v[0], v[1], v[2]}; }

// The loads of equation value g times λ: force and torque about the CG, in ground.
void addReaction(const Vector6& g, double lambda, BodyLoad& load) {
  load.force += lambda * g.head<3>();
  load.torque += lambda * g.tail<3>();
}

}  // namespace

ConstraintSystem::ConstraintSystem(const Model& model, std::span<const double> bodyStates)
    : model_(model), firstMultiplier_(static_cast<int>(model.bodies.size()) * kSize), motionContext_(model) {
  if (!model.constraints) return;
  for (const Joint& joint : model.constraints->joints) {
    ActiveJoint active;
    active.joint = &joint;
    for (int k = 0; k < static_cast<int>(joint.equations.size()); ++k) active.equations.push_back(k);
    const auto column = [&](int body) {
      if (body < 0) return -1;
      const auto found = std::find(active.bodies.begin(), active.bodies.end(), body);
      if (found != active.bodies.end()) return static_cast<int>(found - active.bodies.begin());
      active.bodies.push_back(body);
      return static_cast<int>(active.bodies.size()) - 1;
    };
    const auto addPair = [&](int markerI, int markerJ, int bodyI, int bodyJ) {
      active.pairs.push_back({markerI, markerJ, bodyI, bodyJ, column(bodyI), column(bodyJ)});
    };
    if (joint.isCoupler()) {
      for (const CoupledCoordinate& coordinate : joint.coupled) {
        addPair(coordinate.markerI, coordinate.markerJ, coordinate.bodyI, coordinate.bodyJ);
        active.referenceAngles.push_back(coordinate.measure.angleOffset);
      }
    } else {
      addPair(joint.markerI, joint.markerJ, joint.bodyI, joint.bodyJ);
      for (const JointEquation& equation : joint.equations) active.referenceAngles.push_back(equation.angleOffset);
      if (joint.isMotion()) {
        for (const int body : joint.motion->bodiesRead) active.readColumns.push_back(column(body));
      }
    }
    for (size_t k = 0; k < active.bodies.size(); ++k) {
      if (model.bodies[static_cast<size_t>(active.bodies[k])].point) active.pointColumns.push_back(static_cast<int>(k));
    }
    joints_.push_back(std::move(active));
    hasMotions_ = hasMotions_ || joint.isMotion();
  }
  if (joints_.empty()) return;
  std::vector<double> initial;
  if (bodyStates.empty()) {
    initial.resize(static_cast<size_t>(firstMultiplier_));
    for (size_t b = 0; b < model.bodies.size(); ++b) bodyInitialState(model.bodies[b], initial.data() + b * kSize);
    bodyStates = initial;
  }
  decideIndependentEquations(bodyStates);
  int offset = firstMultiplier_;
  for (ActiveJoint& active : joints_) {
    const size_t m = active.equations.size();
    active.offset = offset;
    offset += 2 * static_cast<int>(m);
    active.values.resize(m);
    if (active.joint->isCoupler()) continue;  // its angles are its coordinates', whichever equations stay
    active.referenceAngles.resize(m);
    for (size_t k = 0; k < m; ++k) {
      active.referenceAngles[k] = active.joint->equations[static_cast<size_t>(active.equations[k])].angleOffset;
    }
  }
  multiplierCount_ = offset - firstMultiplier_;
  for (ActiveJoint& active : joints_) {
    if (!active.joint->isMotion() || active.joint->motion->stateCount() == 0) continue;
    active.motionState = offset;
    offset += active.joint->motion->stateCount();
  }
  motionStateCount_ = offset - firstMultiplier_ - multiplierCount_;
}

namespace {

// Motion expressions read TIME and the model's data only (splines of TIME; checked when the deck is read).
class TimeOnly final : public ExpressionContext {
 public:
  TimeOnly(double time, const DataModel* data) : time_(time), data_(data) {}
  double time() const override { return time_; }
  MarkerMotion marker(int) const override { return {}; }
  double spline(SplineMethod method, int id, double x, double z, int order) const override {
    const ReferenceSpline* spline = data_ ? data_->spline(id) : nullptr;
    return spline ? spline->evaluate(method, x, z, order) : ExpressionContext::spline(method, id, x, z, order);
  }
  double arrayValue(int id, int position) const override {
    const ReferenceArray* array = data_ ? data_->array(id) : nullptr;
    if (!array || position < 1 || position > static_cast<int>(array->values.size())) {
      return ExpressionContext::arrayValue(id, position);
    }
    return array->values[static_cast<size_t>(position - 1)];
  }

 private:
  double time_;
  const DataModel* data_;
};

}  // namespace

double ConstraintSystem::motionValue(const JointMotion& motion, double time) const {
  if (!motion.readsModel) return motion.expression.evaluate(TimeOnly(time, model_.data.get()));
  motionContext_.setState(time, motionBodies_);  // forgets the variables computed at another time or state
  if (motion.subroutine) {
    return callElementSubroutine(*motion.subroutine, ContextSubroutineState(model_, motionContext_), false)[0];
  }
  return motion.expression.evaluate(motionContext_);
}

namespace {

// The five-point differences of a state-reading motion's f: f at the state moved by these multiples of the step, and
// the turns by them about ground's axes with the step in radians (the same every time: made once).
constexpr std::array<double, 4> kStencil = {1, -1, 2, -2};
constexpr double kTurnStep = 1e-3;
const std::array<std::array<Matrix3, kStencil.size()>, 3>& stencilTurns() {
  static const auto turns = [] {
    std::array<std::array<Matrix3, kStencil.size()>, 3> made;
    for (int axis = 0; axis < 3; ++axis) {
      for (size_t k = 0; k < kStencil.size(); ++k) {
        made[static_cast<size_t>(axis)][k] =
            Eigen::AngleAxisd(kStencil[k] * kTurnStep, Vector3::Unit(axis)).toRotationMatrix();
      }
    }
    return made;
  }();
  return turns;
}

}  // namespace

ConstraintSystem::StateMotionTerms ConstraintSystem::stateMotionTerms(const JointMotion& motion) const {
  StateMotionTerms terms;
  terms.value = motionValue(motion, targetTime_);
  terms.gradient.setZero(6, static_cast<Eigen::Index>(motion.bodiesRead.size()));
  const auto& turns = stencilTurns();
  for (size_t r = 0; r < motion.bodiesRead.size(); ++r) {
    BodyKinematics& body = motionBodies_[static_cast<size_t>(motion.bodiesRead[r])];
    const BodyKinematics saved = body;
    // Five-point central differences with steps of 1e-3 (relative to the CG's distance from the origin, radians
    // for turns): truncation ~1e-13 of f's fifth derivative, rounding ~1e-13 of f. The rows are then smooth enough
    // in the state for the iteration matrix to difference them again.
    const double step = 1e-3 * std::max(1.0, saved.position.cwiseAbs().maxCoeff());
    // (8 (f(h) − f(−h)) − (f(2h) − f(−2h))) / 12h, with f at the body moved by `moveTo(k)` to kStencil[k]·h.
    const auto derivative = [&](const auto& moveTo, double h) {
      std::array<double, kStencil.size()> at;
      for (size_t k = 0; k < kStencil.size(); ++k) {
        moveTo(k);
        at[k] = motionValue(motion, targetTime_);
        body = saved;
      }
      return (8 * (at[0] - at[1]) - (at[2] - at[3])) / (12 * h);
    };
    const auto column = static_cast<Eigen::Index>(r);
    for (int axis = 0; axis < 3; ++axis) {
      terms.gradient(axis, column) = derivative(
          [&](size_t k) { body.position = saved.position + (kStencil[k] * step) * Vector3::Unit(axis); }, step);
      terms.gradient(3 + axis, column) = derivative(
          [&](size_t k) { body.rotation = turns[static_cast<size_t>(axis)][k] * saved.rotation; }, kTurnStep);
    }
  }
  return terms;
}

void ConstraintSystem::updateTargets(double time, const double* y, bool withAcceleration) {
  targetTime_ = time;
  bool bodiesLoaded = false;
  for (ActiveJoint& active : joints_) {
    if (!active.joint->isMotion()) continue;
    const JointMotion& motion = *active.joint->motion;
    if (motion.readsModel && !bodiesLoaded) {
      motionBodies_.resize(model_.bodies.size());
      for (size_t b = 0; b < model_.bodies.size(); ++b) motionBodies_[b] = bodyKinematics(y + b * kSize);
      bodiesLoaded = true;
    }
    const auto valueAt = [&](double at) { return motionValue(motion, at); };
    const double value = valueAt(time);
    active.expressionValue = value;
    // Central differences: the first derivative with a relative step of 1e-5 (truncation ~1e-11 of the third
    // derivative, rounding ~1e-11 of f), the second with 1e-4 (~1e-9 and ~1e-8).
    const auto rate = [&]() {
      const double h = 1e-5 * std::max(1.0, std::fabs(time));
      return (valueAt(time + h) - valueAt(time - h)) / (2 * h);
    };
    const auto curvature = [&]() {
      const double h = 1e-4 * std::max(1.0, std::fabs(time));
      return (valueAt(time + h) - 2 * value + valueAt(time - h)) / (h * h);
    };
    if (motion.readsState()) {
      // q(x) − f(x, t) = 0 (val_type D): evaluateJoint takes f and ∂f/∂x at the bodies it is given. The velocity
      // equation (G_q − ∂f/∂x) u = ∂f/∂t needs f's rate at the fixed state. Its time derivative is
      // (G_q − ∂f/∂x) u' = −γ + ∂²f/∂t² + 2 (∂²f/∂t∂x)·u: γ, G's change along u, is differenced at a fixed time, so
      // the mixed term comes twice, once from ∂f/∂t's change along u and once from ∂f/∂x's change in time. It is a
      // four-point difference over the bodies moved along their velocities by ±h and time by ±h (truncation and
      // rounding ~1e-8 with h = 1e-4).
      active.targetPosition = value;
      active.targetVelocity = motion.readsTime ? rate() : 0.0;
      active.targetAcceleration = 0;
      if (withAcceleration && motion.readsTime) {
        const double h = 1e-4 * std::max(1.0, std::fabs(time));
        const std::vector<BodyKinematics> base = motionBodies_;
        const auto movedAlong = [&](double by, double at) {
          for (size_t b = 0; b < base.size(); ++b) {
            BodyKinematics& body = motionBodies_[b];
            body.position = base[b].position + by * base[b].velocity;
            const Vector3 turn = by * base[b].angularVelocity;
            body.rotation = turn.norm() > 0
                                ? Matrix3(Eigen::AngleAxisd(turn.norm(), turn.normalized()).toRotationMatrix() *
                                          base[b].rotation)
                                : base[b].rotation;
          }
          return valueAt(at);
        };
        const double mixed = (movedAlong(h, time + h) - movedAlong(h, time - h) - movedAlong(-h, time + h) +
                              movedAlong(-h, time - h)) / (4 * h * h);
        motionBodies_ = base;
        active.targetAcceleration = curvature() + 2 * mixed;
      }
      continue;
    }
    switch (motion.valueType) {
      case 'D':
        active.targetPosition = value;
        active.targetVelocity = rate();
        if (withAcceleration) active.targetAcceleration = curvature();
        break;
      case 'V':
        active.targetPosition = y[active.motionState];
        active.targetVelocity = value;
        if (withAcceleration) active.targetAcceleration = rate();
        break;
      default:
        active.targetPosition = y[active.motionState];
        active.targetVelocity = y[active.motionState + 1];
        active.targetAcceleration = value;
        break;
    }
  }
}

JointFrames ConstraintSystem::framesOf(const Joint& joint, std::span<const BodyKinematics> bodies) const {
  const auto of = [&](int body) { return body < 0 ? nullptr : &bodies[static_cast<size_t>(body)]; };
  return framesOf(joint.markerI, joint.markerJ, of(joint.bodyI), of(joint.bodyJ));
}

JointFrames ConstraintSystem::framesOf(int markerI, int markerJ, const BodyKinematics* bodyI,
                                       const BodyKinematics* bodyJ) const {
  JointFrames frames;
  const auto place = [&](int markerIndex, const BodyKinematics* body, Vector3& position, Matrix3& axes, Vector3& cg) {
    const Marker& marker = model_.markers[static_cast<size_t>(markerIndex)];
    if (!body) {
      position = marker.position;
      axes = marker.orientation;
      cg.setZero();
      return;
    }
    position = body->position + body->rotation * marker.position;
    axes = body->rotation * marker.orientation;
    cg = body->position;
  };
  place(markerI, bodyI, frames.positionI, frames.axesI, frames.cgI);
  place(markerJ, bodyJ, frames.positionJ, frames.axesJ, frames.cgJ);
  return frames;
}

void ConstraintSystem::evaluateJoint(const ActiveJoint& active, std::span<const BodyKinematics> bodies,
                                     int replacedBody, const BodyKinematics* replacement,
                                     std::vector<EquationRows>& values, std::vector<double>* angles,
                                     JointFrames* firstFrames, StateMotionTerms* motionTerms) const {
  evaluateJointRows(active, bodies, replacedBody, replacement, values, angles, firstFrames, motionTerms);
  // A point body never turns (its ω stays 0): its rotation columns would only let the reactions' torques and the
  // stabilisation's Gᵀμ reach its Euler parameters, and let assembly turn it. Its joints hold only where its
  // markers are (model_builder refuses those that would hold its rotation).
  for (const int column : active.pointColumns) {
    for (EquationRows& rows : values) rows.g.col(column).tail<3>().setZero();
  }
}

void ConstraintSystem::evaluateJointRows(const ActiveJoint& active, std::span<const BodyKinematics> bodies,
                                         int replacedBody, const BodyKinematics* replacement,
                                         std::vector<EquationRows>& values, std::vector<double>* angles,
                                         JointFrames* firstFrames, StateMotionTerms* motionTerms) const {
  const Joint& joint = *active.joint;
  const auto kinematicsOf = [&](int body) -> const BodyKinematics* {
    if (body < 0) return nullptr;
    return body == replacedBody ? replacement : &bodies[static_cast<size_t>(body)];
  };
  const auto framesOfPair = [&](const MarkerPair& pair) {
    return framesOf(pair.markerI, pair.markerJ, kinematicsOf(pair.bodyI), kinematicsOf(pair.bodyJ));
  };
  // Adds `scale` times a measurement's rows on its pair's two bodies.
  const auto addRows = [](const MarkerPair& pair, const EquationValue& measured, double scale, EquationRows& rows) {
    if (pair.columnI >= 0) rows.g.col(pair.columnI) += scale * measured.gI;
    if (pair.columnJ >= 0) rows.g.col(pair.columnJ) += scale * measured.gJ;
  };
  const Eigen::Index columns = static_cast<Eigen::Index>(active.bodies.size());
  values.resize(active.equations.size());
  if (angles) angles->resize(active.referenceAngles.size());
  if (joint.isCoupler()) {
    // One equation, Σ c (q − q0) over the coupled joints' coordinates, each measured on its own markers.
    for (EquationRows& rows : values) {
      rows.value = 0;
      rows.g.setZero(6, columns);
      for (size_t t = 0; t < joint.coupled.size(); ++t) {
        const CoupledCoordinate& coordinate = joint.coupled[t];
        const JointFrames frames = framesOfPair(active.pairs[t]);
        if (t == 0 && firstFrames) *firstFrames = frames;
        const EquationValue measured =
            evaluateJointEquation(coordinate.measure, frames, active.referenceAngles[t]);
        rows.value += coordinate.coefficient * (measured.value - coordinate.origin);
        addRows(active.pairs[t], measured, coordinate.coefficient, rows);
        if (angles) (*angles)[t] = measured.angle;
      }
    }
    return;
  }
  const JointFrames frames = framesOfPair(active.pairs.front());
  if (firstFrames) *firstFrames = frames;
  const bool readsState = joint.isMotion() && joint.motion->readsState() && !active.equations.empty();
  StateMotionTerms freshTerms;
  const StateMotionTerms* terms = &active.motionTerms;
  if (readsState) {
    const std::vector<int>& read = joint.motion->bodiesRead;
    if (replacedBody < 0 || std::find(read.begin(), read.end(), replacedBody) != read.end()) {
      motionBodies_.assign(bodies.begin(), bodies.end());
      if (replacedBody >= 0) motionBodies_[static_cast<size_t>(replacedBody)] = *replacement;
      freshTerms = stateMotionTerms(*joint.motion);
      terms = &freshTerms;
    }
    if (motionTerms) *motionTerms = *terms;
  }
  for (size_t k = 0; k < active.equations.size(); ++k) {
    const EquationValue measured = evaluateJointEquation(joint.equations[static_cast<size_t>(active.equations[k])],
                                                         frames, active.referenceAngles[k]);
    EquationRows& rows = values[k];
    rows.value = measured.value - (joint.isMotion() && !readsState ? active.targetPosition : 0.0);
    rows.g.setZero(6, columns);
    addRows(active.pairs.front(), measured, 1.0, rows);
    if (readsState) {
      rows.value -= terms->value;
      for (size_t r = 0; r < active.readColumns.size(); ++r) {
        rows.g.col(active.readColumns[r]) -= terms->gradient.col(static_cast<Eigen::Index>(r));
      }
    }
    if (angles) (*angles)[k] = measured.angle;
  }
}

double ConstraintSystem::equationValueAt(const Joint& joint, int index, std::span<const BodyKinematics> bodies) const {
  for (const ActiveJoint& active : joints_) {
    if (active.joint != &joint) continue;
    ActiveJoint alone = active;
    alone.equations = {index};
    if (!joint.isCoupler()) alone.referenceAngles = {joint.equations[static_cast<size_t>(index)].angleOffset};
    std::vector<EquationRows> values;
    evaluateJoint(alone, bodies, -1, nullptr, values);
    return values.front().value;
  }
  return 0;
}

void ConstraintSystem::evaluate(std::span<const BodyKinematics> bodies, double time, const double* y) {
  updateTargets(time, y);
  for (ActiveJoint& active : joints_) {
    evaluateJoint(active, bodies, -1, nullptr, active.values, nullptr, &active.frames, &active.motionTerms);
  }
}

void ConstraintSystem::acceptState(std::span<const BodyKinematics> bodies) {
  std::vector<EquationRows> values;
  std::vector<double> angles;
  for (ActiveJoint& active : joints_) {
    bool turns = false;
    if (active.joint->isCoupler()) {
      for (const CoupledCoordinate& coordinate : active.joint->coupled) {
        turns = turns || measuresTurningAngle(coordinate.measure.kind);
      }
    }
    for (const int e : active.equations) {
      const JointEquationKind kind = active.joint->equations[static_cast<size_t>(e)].kind;
      turns = turns || measuresTurningAngle(kind);
    }
    if (!turns || active.equations.empty()) continue;
    evaluateJoint(active, bodies, -1, nullptr, values, &angles);
    active.referenceAngles = angles;
  }
}

void ConstraintSystem::addLoads(const double* y, std::vector<BodyLoad>& loads) const {
  for (const ActiveJoint& active : joints_) {
    for (size_t k = 0; k < active.equations.size(); ++k) {
      const double lambda = y[active.offset + static_cast<int>(k)];
      for (size_t c = 0; c < active.bodies.size(); ++c) {
        addReaction(active.values[k].g.col(static_cast<Eigen::Index>(c)), lambda,
                    loads[static_cast<size_t>(active.bodies[c])]);
      }
    }
  }
}

void ConstraintSystem::addResidual(const double* y, const double* yp, std::span<const BodyKinematics> bodies,
                                   double* r) const {
  // q' − T(u − Gᵀμ): adds T Gᵀμ, i.e. G_vᵀμ to p's rows and ½Q(e) Rᵀ G_ωᵀμ to e's rows.
  const auto stabilise = [&](const Vector6& g, int body, double mu) {
    if (mu == 0) return;
    const int offset = body * kSize;
    const BodyKinematics& k = bodies[static_cast<size_t>(body)];
    Eigen::Map<Vector3>(r + offset + kPosition) += mu * g.head<3>();
    const Vector4 e(y[offset + kEulerParameters], y[offset + kEulerParameters + 1], y[offset + kEulerParameters + 2],
                    y[offset + kEulerParameters + 3]);
    Eigen::Map<Vector4>(r + offset + kEulerParameters) +=
        0.5 * eulerParameterRateMatrix(e) * (k.rotation.transpose() * (mu * g.tail<3>()));
  };
  for (const ActiveJoint& active : joints_) {
    const Joint& joint = *active.joint;
    const int m = static_cast<int>(active.equations.size());
    for (int k = 0; k < m; ++k) {
      const EquationRows& value = active.values[static_cast<size_t>(k)];
      const double mu = y[active.offset + m + k];
      double velocityTerm = 0;
      for (size_t c = 0; c < active.bodies.size(); ++c) {
        const Vector6 g = value.g.col(static_cast<Eigen::Index>(c));
        const BodyKinematics& kinematics = bodies[static_cast<size_t>(active.bodies[c])];
        velocityTerm += g.head<3>().dot(kinematics.velocity) + g.tail<3>().dot(kinematics.angularVelocity);
        stabilise(g, active.bodies[c], mu);
      }
      r[active.offset + k] = velocityTerm - (joint.isMotion() ? active.targetVelocity : 0.0);
      r[active.offset + m + k] = value.value;
    }
    // A motion's own states: s' = f (V) or s' = w, w' = f (A).
    if (active.motionState >= 0) {
      const int s = active.motionState;
      if (joint.motion->valueType == 'V') {
        r[s] = yp[s] - active.expressionValue;
      } else {
        r[s] = yp[s] - y[s + 1];
        r[s + 1] = yp[s + 1] - active.expressionValue;
      }
    }
  }
}

void ConstraintSystem::addPatternBlocks(JacobianPattern& pattern) {
  for (ActiveJoint& active : joints_) {
    const int columns = 2 * static_cast<int>(active.equations.size());
    if (columns == 0) continue;
    for (const int body : active.bodies) {
      active.blockBodyJoint.push_back(pattern.addBlock({body * kSize, kSize, active.offset, columns}));
      active.blockJointBody.push_back(pattern.addBlock({active.offset, columns, body * kSize, kSize}));
      active.bodyJoint.push_back(Eigen::MatrixXd::Zero(kSize, columns));
      active.jointBody.push_back(Eigen::MatrixXd::Zero(columns, kSize));
    }
  }
  for (ActiveJoint& active : joints_) {
    if (active.motionState < 0) continue;
    const int states = active.joint->motion->stateCount();
    if (!active.equations.empty()) {
      active.blockJointMotion = pattern.addBlock({active.offset, 2, active.motionState, states});
    }
    active.blockMotionMotion = pattern.addBlock({active.motionState, states, active.motionState, states});
  }
}

void ConstraintSystem::differentiate(const double* y, std::span<const BodyKinematics> bodies,
                                     const CouplingSink& coupling) {
  std::vector<EquationRows> moved;
  for (ActiveJoint& active : joints_) {
    const int m = static_cast<int>(active.equations.size());
    if (m == 0) continue;
    const size_t bodyCount = active.bodies.size();
    // Velocity terms g·u of an equation, with body `replacedBody` at `replacement`.
    const auto velocityRow = [&](const EquationRows& value, int replacedBody, const BodyKinematics* replacement) {
      double sum = 0;
      for (size_t c = 0; c < bodyCount; ++c) {
        const int body = active.bodies[c];
        const BodyKinematics& k = body == replacedBody ? *replacement : bodies[static_cast<size_t>(body)];
        const auto g = value.g.col(static_cast<Eigen::Index>(c));
        sum += g.head<3>().dot(k.velocity) + g.tail<3>().dot(k.angularVelocity);
      }
      return sum;
    };
    for (size_t side = 0; side < bodyCount; ++side) {
      const int body = active.bodies[side];
      Eigen::MatrixXd& bodyJoint = active.bodyJoint[side];
      Eigen::MatrixXd& jointBody = active.jointBody[side];
      bodyJoint.setZero();
      jointBody.setZero();
      const BodyKinematics& own = bodies[static_cast<size_t>(body)];
      const double* state = y + body * kSize;
      const Vector4 e(state[kEulerParameters], state[kEulerParameters + 1], state[kEulerParameters + 2],
                      state[kEulerParameters + 3]);
      const Eigen::Matrix<double, 4, 3> halfQ = 0.5 * eulerParameterRateMatrix(e);
      for (int k = 0; k < m; ++k) {
        const Vector6 g = active.values[static_cast<size_t>(k)].g.col(static_cast<Eigen::Index>(side));
        const Vector3 gOmegaBody = own.rotation.transpose() * g.tail<3>();
        // The body's rows: −Gᵀ on the load rows (column λ), T Gᵀ on the kinematic rows (column μ).
        bodyJoint.block<3, 1>(kVelocity, k) = -g.head<3>();
        bodyJoint.block<3, 1>(kAngularVelocity, k) = -gOmegaBody;
        bodyJoint.block<3, 1>(kPosition, m + k) = g.head<3>();
        bodyJoint.block<4, 1>(kEulerParameters, m + k) = halfQ * gOmegaBody;
        // The velocity rows are G u: linear in the velocities (ω in body axes turns with R).
        jointBody.block<1, 3>(k, kVelocity) = g.head<3>().transpose();
        jointBody.block<1, 3>(k, kAngularVelocity) = gOmegaBody.transpose();
      }
      // Position derivatives by forward differences over the body's 7 position states: of Φ, of G u, and of the
      // reactions Gᵀλ on every body's load rows. (The μ terms' position derivatives are left out: μ vanishes on the
      // solution, so they only slow Newton by terms of the order of μ.)
      forEachPerturbedState(state, kVelocity, [&](int column, double increment, const BodyKinematics& perturbed) {
        evaluateJoint(active, bodies, body, &perturbed, moved);
        std::array<BodyLoad, 6> changes{};  // at most six bodies: a coupler of three joints
        for (int k = 0; k < m; ++k) {
          const EquationRows& base = active.values[static_cast<size_t>(k)];
          const EquationRows& now = moved[static_cast<size_t>(k)];
          jointBody(k, column) = (velocityRow(now, body, &perturbed) - velocityRow(base, -1, nullptr)) / increment;
          jointBody(m + k, column) = (now.value - base.value) / increment;
          const double lambda = y[active.offset + k];
          for (size_t c = 0; c < bodyCount; ++c) {
            const auto bodyColumn = static_cast<Eigen::Index>(c);
            addReaction(now.g.col(bodyColumn) - base.g.col(bodyColumn), lambda, changes[c]);
          }
        }
        for (size_t c = 0; c < bodyCount; ++c) {
          const int rowBody = active.bodies[c];
          auto block = coupling(rowBody, body);
          const Matrix3& rotation = bodies[static_cast<size_t>(rowBody)].rotation;
          block.block<3, 1>(0, column) -= changes[c].force / increment;
          block.block<3, 1>(3, column) -= rotation.transpose() * changes[c].torque / increment;
        }
      });
    }
  }
}

void ConstraintSystem::writeJacobian(double cj, JacobianAssembler& assembler) const {
  for (const ActiveJoint& active : joints_) {
    if (active.motionState >= 0) {
      // Rows (G u − V, Φ − P) against the states (s[, w]): P = s, and V = w for val_type A; and the states' own
      // rows s' − f, or s' − w and w' − f. Column-major.
      const bool velocity = active.joint->motion->valueType == 'V';
      const double jointMotionV[2] = {0, -1};
      const double jointMotionA[4] = {0, -1, -1, 0};
      const double motionMotionV[1] = {cj};
      const double motionMotionA[4] = {cj, 0, -1, cj};
      if (active.blockJointMotion >= 0) {
        assembler.addBlock(active.blockJointMotion, velocity ? jointMotionV : jointMotionA);
      }
      assembler.addBlock(active.blockMotionMotion, velocity ? motionMotionV : motionMotionA);
    }
    for (size_t side = 0; side < active.blockBodyJoint.size(); ++side) {
      assembler.addBlock(active.blockBodyJoint[side], active.bodyJoint[side].data());
      assembler.addBlock(active.blockJointBody[side], active.jointBody[side].data());
    }
  }
}

// ---- the stacked equations, for assembly and redundancy -------------------------------------------------------

void ConstraintSystem::stackJacobian(std::span<const double> y, Eigen::VectorXd& phi,
                                     std::vector<Eigen::Triplet<double>>& g) {
  const size_t bodyCount = model_.bodies.size();
  scratch_.resize(bodyCount);
  for (size_t b = 0; b < bodyCount; ++b) scratch_[b] = bodyKinematics(y.data() + b * kSize);
  int rows = 0;
  for (const ActiveJoint& active : joints_) rows += static_cast<int>(active.equations.size());
  phi.resize(rows);
  g.clear();
  int row = 0;
  std::vector<EquationRows> values;
  for (ActiveJoint& active : joints_) {
    evaluateJoint(active, scratch_, -1, nullptr, values);
    for (const EquationRows& value : values) {
      phi(row) = value.value;
      for (size_t b = 0; b < active.bodies.size(); ++b) {
        for (int c = 0; c < 6; ++c) {
          const double entry = value.g(c, static_cast<Eigen::Index>(b));
          if (entry != 0) g.emplace_back(row, active.bodies[b] * 6 + c, entry);
        }
      }
      ++row;
    }
  }
}

void ConstraintSystem::decideIndependentEquations(std::span<const double> bodyStates) {
  Eigen::VectorXd phi;
  std::vector<Eigen::Triplet<double>> triplets;
  std::vector<double> state(bodyStates.begin(), bodyStates.end());
  stackJacobian(state, phi, triplets);
  const int rows = static_cast<int>(phi.size());
  if (rows == 0) return;
  // Each equation's row scaled to unit length, so that the rank test compares like with like (translations in
  // deck units, rotations in radians).
  Eigen::VectorXd norms = Eigen::VectorXd::Zero(rows);
  for (const auto& t : triplets) norms(t.row()) += t.value() * t.value();

  // The rank is decided block by block (joint_graph.h): nodes are the bodies and ground, edges the joints. A
  // coupler joins several bodies: it is a node of its own with an edge to each of its coupled joints' bodies, and
  // the blocks its edges fall in are merged (a block's rank test holds for a union of blocks too).
  const int bodyCount = static_cast<int>(model_.bodies.size());
  const auto node = [&](int body) { return body < 0 ? bodyCount : body; };
  std::vector<std::pair<int, int>> edges;
  std::vector<std::vector<int>> edgesOfJoint;
  std::vector<int> rowOfFirstEquation;
  int row = 0;
  int nodeCount = bodyCount + 1;
  for (const ActiveJoint& active : joints_) {
    edgesOfJoint.emplace_back();
    if (active.joint->isCoupler()) {
      const int couplerNode = nodeCount++;
      for (const MarkerPair& pair : active.pairs) {
        for (const int body : {pair.bodyI, pair.bodyJ}) {
          edgesOfJoint.back().push_back(static_cast<int>(edges.size()));
          edges.emplace_back(couplerNode, node(body));
        }
      }
    } else if (active.joint->isMotion() && active.joint->motion->readsState()) {
      // A motion whose expression reads other bodies joins them all, as a coupler does: a node of its own.
      const int motionNode = nodeCount++;
      std::vector<int> joined{active.joint->bodyI, active.joint->bodyJ};
      for (const int body : active.joint->motion->bodiesRead) joined.push_back(body);
      for (const int body : joined) {
        edgesOfJoint.back().push_back(static_cast<int>(edges.size()));
        edges.emplace_back(motionNode, node(body));
      }
    } else {
      edgesOfJoint.back().push_back(static_cast<int>(edges.size()));
      edges.emplace_back(node(active.joint->bodyI), node(active.joint->bodyJ));
    }
    rowOfFirstEquation.push_back(row);
    row += static_cast<int>(active.equations.size());
  }
  const std::vector<int> blockOfEdge = biconnectedBlocks(nodeCount, edges);
  int blockCount = blockOfEdge.empty() ? 0 : *std::max_element(blockOfEdge.begin(), blockOfEdge.end()) + 1;
  // Merged blocks: each block's representative, found by following `mergedInto` to a block that maps to itself.
  std::vector<int> mergedInto(static_cast<size_t>(blockCount));
  for (int b = 0; b < blockCount; ++b) mergedInto[static_cast<size_t>(b)] = b;
  const auto representative = [&](int block) {
    while (mergedInto[static_cast<size_t>(block)] != block) block = mergedInto[static_cast<size_t>(block)];
    return block;
  };
  for (const std::vector<int>& jointEdges : edgesOfJoint) {
    for (const int edge : jointEdges) {
      const int from = representative(blockOfEdge[static_cast<size_t>(edge)]);
      const int to = representative(blockOfEdge[static_cast<size_t>(jointEdges.front())]);
      if (from != to) mergedInto[static_cast<size_t>(from)] = to;
    }
  }
  std::vector<int> blockOfJoint;
  for (const std::vector<int>& jointEdges : edgesOfJoint) {
    blockOfJoint.push_back(representative(blockOfEdge[static_cast<size_t>(jointEdges.front())]));
  }
  std::vector<std::vector<int>> rowsOfBlock(static_cast<size_t>(blockCount));
  for (size_t j = 0; j < joints_.size(); ++j) {
    for (size_t k = 0; k < joints_[j].equations.size(); ++k) {
      rowsOfBlock[static_cast<size_t>(blockOfJoint[j])].push_back(rowOfFirstEquation[j] + static_cast<int>(k));
    }
  }
  std::vector<std::vector<Eigen::Triplet<double>>> tripletsOfRow(static_cast<size_t>(rows));
  for (const auto& t : triplets) tripletsOfRow[static_cast<size_t>(t.row())].push_back(t);

  std::vector<char> independent(static_cast<size_t>(rows), 0);
  std::vector<int> localColumn(static_cast<size_t>(bodyCount) * 6, -1);
  for (const std::vector<int>& blockRows : rowsOfBlock) {
    // The block's Gᵀ: its bodies' velocities by its equations.
    std::vector<Eigen::Triplet<double>> transposed;
    std::vector<int> usedColumns;
    for (int local = 0; local < static_cast<int>(blockRows.size()); ++local) {
      const int global = blockRows[static_cast<size_t>(local)];
      for (const auto& t : tripletsOfRow[static_cast<size_t>(global)]) {
        int& column = localColumn[static_cast<size_t>(t.col())];
        if (column < 0) {
          column = static_cast<int>(usedColumns.size());
          usedColumns.push_back(t.col());
        }
        transposed.emplace_back(column, local, t.value() / std::sqrt(norms(global)));
      }
    }
    if (!usedColumns.empty()) {
      Eigen::SparseMatrix<double> gt(static_cast<Eigen::Index>(usedColumns.size()),
                                     static_cast<Eigen::Index>(blockRows.size()));
      gt.setFromTriplets(transposed.begin(), transposed.end());
      gt.makeCompressed();
      Eigen::SparseQR<Eigen::SparseMatrix<double>, Eigen::COLAMDOrdering<int>> qr;
      qr.setPivotThreshold(1e-9);
      qr.compute(gt);
      const auto& permutation = qr.colsPermutation().indices();
      for (Eigen::Index k = 0; k < qr.rank(); ++k) {
        independent[static_cast<size_t>(blockRows[static_cast<size_t>(permutation(k))])] = 1;
      }
    }
    for (const int column : usedColumns) localColumn[static_cast<size_t>(column)] = -1;
  }
  // An equation with no velocity Jacobian at all (between two ground markers cannot happen; a degenerate axis
  // pair) is dependent too: the loop above never marks it.
  row = 0;
  for (ActiveJoint& active : joints_) {
    std::vector<int> kept;
    for (const int e : active.equations) {
      if (independent[static_cast<size_t>(row)] && norms(row) > 0) {
        kept.push_back(e);
      } else if (active.joint->isMotion()) {
        motionConflicts_.push_back(describeJoint(*active.joint) + " drives a " + active.joint->equations[static_cast<size_t>(e)].name +
                                   " that the joints already hold, so it cannot act; check joint_id and motion_type");
      } else {
        leftOut_.push_back({active.joint, e});
        redundancyNotes_.push_back(describeJoint(*active.joint) + ": " + active.joint->equations[static_cast<size_t>(e)].name +
                                   " repeats what other joints already hold; it is left out, and the reaction it "
                                   "would carry is carried by those joints");
      }
      ++row;
    }
    active.equations = std::move(kept);
  }
}

// ---- assembly -------------------------------------------------------------------------------------------------

bool ConstraintSystem::projectPositions(std::span<double> y, int maxIterations, AssemblyReport& report,
                                        Eigen::VectorXd& phi, Eigen::SparseMatrix<double>& g,
                                        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal) {
  const int bodyCount = static_cast<int>(model_.bodies.size());
  const double tolerance = 1e-12 * lengthScale(y);
  std::vector<Eigen::Triplet<double>> triplets;
  for (;;) {
    stackJacobian(y.first(static_cast<size_t>(firstMultiplier_)), phi, triplets);
    Eigen::Index worst = 0;
    report.largestError = phi.size() > 0 ? phi.cwiseAbs().maxCoeff(&worst) : 0.0;
    if (!std::isfinite(report.largestError)) {
      report.failure = describeRow(static_cast<int>(worst)) + " cannot be assembled: its equations became undefined";
      return false;
    }
    if (report.largestError <= tolerance) return true;
    if (report.iterations == maxIterations || !factoriseStacked(triplets, phi.size(), g, normal)) {
      report.failure = describeRow(static_cast<int>(worst)) + " cannot be assembled: after " +
                       std::to_string(report.iterations) + " iterations it is still off by " +
                       scientific(report.largestError, 3) +
                       "; check that its markers can coincide as the joint type requires";
      return false;
    }
    const Eigen::VectorXd change = -(g.transpose() * normal.solve(phi));
    for (int b = 0; b < bodyCount; ++b) {
      double* state = y.data() + b * kSize;
      Eigen::Map<Vector3>(state + kPosition) += change.segment<3>(6 * b);
      Eigen::Map<Vector4> e(state + kEulerParameters);
      e = rotateEulerParameters(e, change.segment<3>(6 * b + 3)).normalized();
    }
    ++report.iterations;
  }
}

bool ConstraintSystem::projectOutput(double time, std::span<double> y) {
  if (joints_.empty()) return true;
  updateTargets(time, y.data());
  AssemblyReport report;
  Eigen::VectorXd phi;
  Eigen::SparseMatrix<double> g;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> normal;
  std::vector<double> original(y.begin(), y.end());
  // Interpolated states miss the equations by about the local error: a few iterations close them; if they do not
  // (a singular configuration), the output keeps what IDAS gave.
  if (!projectPositions(y, 5, report, phi, g, normal)) {
    std::copy(original.begin(), original.end(), y.begin());
    return false;
  }
  if (phi.size() == 0) return true;
  if (!factoriseNormal(y, phi, g, normal)) return false;
  projectVelocities(y, g, normal);
  return true;
}

bool ConstraintSystem::factoriseNormal(std::span<const double> y, Eigen::VectorXd& phi, Eigen::SparseMatrix<double>& g,
                                       Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal) {
  std::vector<Eigen::Triplet<double>> triplets;
  stackJacobian(y.first(static_cast<size_t>(firstMultiplier_)), phi, triplets);
  return factoriseStacked(triplets, phi.size(), g, normal);
}

bool ConstraintSystem::factoriseStacked(const std::vector<Eigen::Triplet<double>>& triplets, Eigen::Index rows,
                                        Eigen::SparseMatrix<double>& g,
                                        Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal) const {
  g.resize(rows, static_cast<Eigen::Index>(model_.bodies.size()) * 6);
  g.setFromTriplets(triplets.begin(), triplets.end());
  normal.compute(Eigen::SparseMatrix<double>(g * g.transpose()));
  return normal.info() == Eigen::Success;
}

std::string ConstraintSystem::describeSingularRow(
    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& factors) const {
  // Eigen stops at the first zero pivot: D is set up to it, and its position maps back through the ordering.
  const Eigen::VectorXd pivots = factors.vectorD();
  for (Eigen::Index k = 0; k < pivots.size(); ++k) {
    if (pivots(k) == 0) return describeRow(static_cast<int>(factors.permutationPinv().indices()(k)));
  }
  return "a joint";
}

double ConstraintSystem::lengthScale(std::span<const double> y) const {
  double scale = 1;
  for (size_t b = 0; b < model_.bodies.size(); ++b) {
    scale = std::max(scale, vec3(y.data() + b * kSize).cwiseAbs().maxCoeff());
  }
  for (const Marker& marker : model_.markers) scale = std::max(scale, marker.position.cwiseAbs().maxCoeff());
  return scale;
}

Eigen::VectorXd ConstraintSystem::stackedTargets(double ActiveJoint::*target) const {
  int rows = 0;
  for (const ActiveJoint& active : joints_) rows += static_cast<int>(active.equations.size());
  Eigen::VectorXd values = Eigen::VectorXd::Zero(rows);
  int row = 0;
  for (const ActiveJoint& active : joints_) {
    for (size_t k = 0; k < active.equations.size(); ++k, ++row) {
      if (active.joint->isMotion()) values(row) = active.*target;
    }
  }
  return values;
}

Eigen::VectorXd ConstraintSystem::projectVelocities(std::span<double> y, const Eigen::SparseMatrix<double>& g,
                                                    const Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>& normal) {
  const size_t bodyCount = model_.bodies.size();
  Eigen::VectorXd u(static_cast<Eigen::Index>(6 * bodyCount));
  std::vector<Matrix3> rotations(bodyCount);
  for (size_t b = 0; b < bodyCount; ++b) {
    const BodyKinematics k = bodyKinematics(y.data() + b * kSize);
    rotations[b] = k.rotation;
    u.segment<3>(static_cast<Eigen::Index>(6 * b)) = k.velocity;
    u.segment<3>(static_cast<Eigen::Index>(6 * b + 3)) = k.angularVelocity;
  }
  const Eigen::VectorXd change = -(g.transpose() * normal.solve(g * u - stackedTargets(&ActiveJoint::targetVelocity)));
  u += change;
  for (size_t b = 0; b < bodyCount; ++b) {
    double* state = y.data() + b * kSize;
    Eigen::Map<Vector3>(state + kVelocity) = u.segment<3>(static_cast<Eigen::Index>(6 * b));
    Eigen::Map<Vector3>(state + kAngularVelocity) =
        rotations[b].transpose() * u.segment<3>(static_cast<Eigen::Index>(6 * b + 3));
  }
  return change;
}

AssemblyReport ConstraintSystem::assemble(
    double time, bool firstStart, std::span<double> y, std::span<double> yp,
    const std::function<void(std::span<const double> y, std::vector<BodyLoad>& loads)>& loadsAt) {
  AssemblyReport report;
  if (!motionConflicts_.empty()) {
    report.failure = motionConflicts_.front();
    return report;
  }
  initialiseMotionStates(firstStart, y);
  updateTargets(time, y.data(), true);
  const int bodyCount = static_cast<int>(model_.bodies.size());
  const int columns = bodyCount * 6;
  std::vector<double> start(y.begin(), y.begin() + firstMultiplier_);
  Eigen::VectorXd phi;
  Eigen::SparseMatrix<double> g;
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> normal;
  if (!projectPositions(y, 50, report, phi, g, normal)) return report;
  // The equations left out as repeats must hold too: joints that contradict each other only look redundant.
  {
    std::vector<BodyKinematics> bodies(static_cast<size_t>(bodyCount));
    for (int b = 0; b < bodyCount; ++b) bodies[static_cast<size_t>(b)] = bodyKinematics(y.data() + b * kSize);
    const double scale = lengthScale(y);
    for (const auto& [joint, index] : leftOut_) {
      const JointEquation& equation = joint->equations[static_cast<size_t>(index)];
      const double value = equationValueAt(*joint, index, bodies);
      if (std::fabs(value) > 1e-8 * scale) {
        report.failure = describeJoint(*joint) + " cannot be assembled: its " + equation.name + " is off by " +
                         scientific(std::fabs(value), 3) +
                         " where the other joints hold the bodies; the joints contradict each other";
        return report;
      }
    }
  }

  // Velocities: the smallest change that satisfies G u = V (zero but for motions).
  Eigen::VectorXd velocityChange = Eigen::VectorXd::Zero(columns);
  if (phi.size() > 0) {
    if (!factoriseNormal(y, phi, g, normal)) {
      report.failure = describeSingularRow(normal) + " cannot be assembled: the joints lock up or lose an axis in the "
                       "assembled configuration; check that the joints' axes are not aligned where they must cross";
      return report;
    }
    velocityChange = projectVelocities(y, g, normal);
  }
  // Movements, for the report.
  for (int b = 0; b < bodyCount; ++b) {
    AssemblyReport::Moved moved;
    moved.body = b;
    const double* now = y.data() + b * kSize;
    const double* then = start.data() + b * kSize;
    moved.translation = (vec3(now) - vec3(then)).norm();
    const Vector4 eNow(now[3], now[4], now[5], now[6]);
    const Vector4 eThen(then[3], then[4], then[5], then[6]);
    moved.rotation = 2 * std::acos(std::min(1.0, std::fabs(eNow.normalized().dot(eThen.normalized()))));
    moved.velocityChange = velocityChange.segment<3>(6 * b).norm();
    moved.angularVelocityChange = velocityChange.segment<3>(6 * b + 3).norm();
    if (moved.translation > 0 || moved.rotation > 0 || moved.velocityChange > 0 || moved.angularVelocityChange > 0) {
      report.moved.push_back(moved);
    }
  }
  std::sort(report.moved.begin(), report.moved.end(), [](const auto& a, const auto& b) {
    return a.translation + a.rotation > b.translation + b.rotation;
  });

  std::vector<BodyLoad> loads(static_cast<size_t>(bodyCount));
  loadsAt(y, loads);
  if (std::optional<std::string> singular = solveAccelerations(y, yp, g, loads)) {
    report.failure = *singular + " cannot be assembled: the joints are nearly singular in the assembled configuration, "
                     "so their reactions cannot be found; check that the joints' axes are not aligned where they must "
                     "cross";
  }
  return report;
}

bool ConstraintSystem::consistentOutput(double time, std::span<double> y, std::span<double> yp,
                                        const std::vector<BodyLoad>& loads) {
  if (joints_.empty()) return true;
  updateTargets(time, y.data(), true);
  Eigen::VectorXd phi;
  std::vector<Eigen::Triplet<double>> triplets;
  stackJacobian(y.first(static_cast<size_t>(firstMultiplier_)), phi, triplets);
  Eigen::SparseMatrix<double> g(phi.size(), static_cast<Eigen::Index>(model_.bodies.size()) * 6);
  g.setFromTriplets(triplets.begin(), triplets.end());
  return !solveAccelerations(y, yp, g, loads).has_value();
}

std::optional<std::string> ConstraintSystem::solveAccelerations(std::span<double> y, std::span<double> yp,
                                                                const Eigen::SparseMatrix<double>& g,
                                                                const std::vector<BodyLoad>& loads) {
  const int bodyCount = static_cast<int>(model_.bodies.size());
  const int columns = bodyCount * 6;
  std::vector<BodyKinematics> kinematics(static_cast<size_t>(bodyCount));
  for (int b = 0; b < bodyCount; ++b) kinematics[static_cast<size_t>(b)] = bodyKinematics(y.data() + b * kSize);
  Eigen::VectorXd u(columns);
  for (int b = 0; b < bodyCount; ++b) {
    u.segment<3>(6 * b) = kinematics[static_cast<size_t>(b)].velocity;
    u.segment<3>(6 * b + 3) = kinematics[static_cast<size_t>(b)].angularVelocity;
  }
  // Accelerations: M u' = F + Gᵀλ with G u' = −γ, γ = (dG/dt) u by central differences along the motion.
  const double massFactor = model_.units.massFactor;
  Eigen::VectorXd free(columns);  // M⁻¹ F
  std::vector<Matrix3> inverseInertia(static_cast<size_t>(bodyCount));
  for (int b = 0; b < bodyCount; ++b) {
    const RigidBody& body = model_.bodies[static_cast<size_t>(b)];
    const BodyKinematics& k = kinematics[static_cast<size_t>(b)];
    const BodyLoad& load = loads[static_cast<size_t>(b)];
    free.segment<3>(6 * b) = load.force / (massFactor * body.mass);
    if (body.point) {
      // Its turning rows are ω' = 0: no inertia to invert, and no joint's rotation column reaches it.
      inverseInertia[static_cast<size_t>(b)].setZero();
      free.segment<3>(6 * b + 3).setZero();
      continue;
    }
    const Matrix3 inertia = massFactor * k.rotation * body.inertia * k.rotation.transpose();
    inverseInertia[static_cast<size_t>(b)] = inertia.inverse();
    free.segment<3>(6 * b + 3) =
        inverseInertia[static_cast<size_t>(b)] * (load.torque - k.angularVelocity.cross(inertia * k.angularVelocity));
  }
  Eigen::VectorXd accelerations = free;
  Eigen::VectorXd lambda;
  if (g.rows() > 0) {
    const double h = 1e-6;
    const auto velocityTermsAt = [&](double sign) {
      std::vector<double> shifted(y.begin(), y.begin() + firstMultiplier_);
      for (int b = 0; b < bodyCount; ++b) {
        double* state = shifted.data() + b * kSize;
        Eigen::Map<Vector3>(state + kPosition) += sign * h * u.segment<3>(6 * b);
        Eigen::Map<Vector4> e(state + kEulerParameters);
        e = rotateEulerParameters(e, sign * h * u.segment<3>(6 * b + 3));
      }
      Eigen::VectorXd unused;
      std::vector<Eigen::Triplet<double>> shiftedTriplets;
      stackJacobian(shifted, unused, shiftedTriplets);
      Eigen::SparseMatrix<double> shiftedG(g.rows(), columns);
      shiftedG.setFromTriplets(shiftedTriplets.begin(), shiftedTriplets.end());
      return Eigen::VectorXd(shiftedG * u);
    };
    const Eigen::VectorXd gamma = (velocityTermsAt(1) - velocityTermsAt(-1)) / (2 * h);
    // G M⁻¹ Gᵀ λ = −γ − G M⁻¹ F
    Eigen::SparseMatrix<double> inverseMass(columns, columns);
    std::vector<Eigen::Triplet<double>> massTriplets;
    for (int b = 0; b < bodyCount; ++b) {
      const double inverse = 1 / (massFactor * model_.bodies[static_cast<size_t>(b)].mass);
      for (int i = 0; i < 3; ++i) massTriplets.emplace_back(6 * b + i, 6 * b + i, inverse);
      for (int i = 0; i < 3; ++i) {
        for (int j = 0; j < 3; ++j) massTriplets.emplace_back(6 * b + 3 + i, 6 * b + 3 + j, inverseInertia[static_cast<size_t>(b)](i, j));
      }
    }
    inverseMass.setFromTriplets(massTriplets.begin(), massTriplets.end());
    const Eigen::SparseMatrix<double> reduced = g * inverseMass * g.transpose();
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> reducedSolver(reduced);
    if (reducedSolver.info() != Eigen::Success) return describeSingularRow(reducedSolver);
    lambda = reducedSolver.solve(stackedTargets(&ActiveJoint::targetAcceleration) - gamma - g * free);
    accelerations = free + inverseMass * (g.transpose() * lambda);
  }

  std::fill(yp.begin(), yp.end(), 0.0);
  for (int b = 0; b < bodyCount; ++b) {
    const double* state = y.data() + b * kSize;
    double* rate = yp.data() + b * kSize;
    const BodyKinematics& k = kinematics[static_cast<size_t>(b)];
    Eigen::Map<Vector3>(rate + kPosition) = vec3(state + kVelocity);
    const Vector4 e(state[3], state[4], state[5], state[6]);
    Eigen::Map<Vector4>(rate + kEulerParameters) = 0.5 * eulerParameterRateMatrix(e) * vec3(state + kAngularVelocity);
    Eigen::Map<Vector3>(rate + kVelocity) = accelerations.segment<3>(6 * b);
    Eigen::Map<Vector3>(rate + kAngularVelocity) = k.rotation.transpose() * accelerations.segment<3>(6 * b + 3);
  }
  int row = 0;
  for (const ActiveJoint& active : joints_) {
    const int m = static_cast<int>(active.equations.size());
    for (int k = 0; k < m; ++k, ++row) {
      y[static_cast<size_t>(active.offset + k)] = lambda.size() > 0 ? lambda(row) : 0.0;
      y[static_cast<size_t>(active.offset + m + k)] = 0.0;
    }
    if (active.motionState >= 0) {
      const size_t state = static_cast<size_t>(active.motionState);
      if (active.joint->motion->valueType == 'V') {
        yp[state] = active.expressionValue;
      } else {
        yp[state] = y[state + 1];
        yp[state + 1] = active.expressionValue;
      }
    }
  }
  return std::nullopt;
}

void ConstraintSystem::initialiseMotionStates(bool firstStart, std::span<double> y) {
  const size_t bodyCount = model_.bodies.size();
  scratch_.resize(bodyCount);
  for (size_t b = 0; b < bodyCount; ++b) scratch_[b] = bodyKinematics(y.data() + b * kSize);
  for (const ActiveJoint& active : joints_) {
    if (active.motionState < 0) continue;
    const JointMotion& motion = *active.joint->motion;
    const Joint& joint = *active.joint;
    const EquationValue measured =
        evaluateJointEquation(joint.equations.front(), framesOf(joint, scratch_), active.referenceAngles.empty()
                                                                                       ? joint.equations.front().angleOffset
                                                                                       : active.referenceAngles.front());
    double rate = 0;
    if (joint.bodyI >= 0) {
      const BodyKinematics& k = scratch_[static_cast<size_t>(joint.bodyI)];
      rate += measured.gI.head<3>().dot(k.velocity) + measured.gI.tail<3>().dot(k.angularVelocity);
    }
    if (joint.bodyJ >= 0) {
      const BodyKinematics& k = scratch_[static_cast<size_t>(joint.bodyJ)];
      rate += measured.gJ.head<3>().dot(k.velocity) + measured.gJ.tail<3>().dot(k.angularVelocity);
    }
    const size_t state = static_cast<size_t>(active.motionState);
    y[state] = firstStart && motion.initialDisplacement ? *motion.initialDisplacement : measured.value;
    if (motion.valueType == 'A') {
      y[state + 1] = firstStart && motion.initialVelocity ? *motion.initialVelocity : rate;
    }
  }
}

std::string ConstraintSystem::describeRow(int row) const {
  for (const ActiveJoint& active : joints_) {
    if (row < static_cast<int>(active.equations.size())) {
      return describeJoint(*active.joint) + " (" +
             active.joint->equations[static_cast<size_t>(active.equations[static_cast<size_t>(row)])].name + ")";
    }
    row -= static_cast<int>(active.equations.size());
  }
  return "a joint";
}

int ConstraintSystem::lambdaIndexOfRow(int row) const {
  for (const ActiveJoint& active : joints_) {
    if (row < static_cast<int>(active.equations.size())) return active.offset + row;
    row -= static_cast<int>(active.equations.size());
  }
  return -1;
}

double ConstraintSystem::largestPositionError(double time, std::span<const double> y) {
  updateTargets(time, y.data());
  Eigen::VectorXd phi;
  std::vector<Eigen::Triplet<double>> triplets;
  stackJacobian(y.first(static_cast<size_t>(firstMultiplier_)), phi, triplets);
  return phi.size() > 0 ? phi.cwiseAbs().maxCoeff() : 0.0;
}

void ConstraintSystem::reactions(const double* y, std::vector<JointReaction>& out) const {
  out.clear();
  for (size_t k = 0; k < joints_.size(); ++k) {
    const Joint& joint = *joints_[k].joint;
    JointReaction reaction;
    reaction.id = joint.id;
    reaction.element = joint.loc.element;
    reaction.markerI = model_.markers[static_cast<size_t>(joint.markerI)].id;
    reaction.markerJ = model_.markers[static_cast<size_t>(joint.markerJ)].id;
    reactionLoads(static_cast<int>(k), y, reaction);
    out.push_back(std::move(reaction));
  }
}

int ConstraintSystem::reactionIndexOf(long id, std::string_view element) const {
  for (size_t k = 0; k < joints_.size(); ++k) {
    if (joints_[k].joint->id == id && joints_[k].joint->loc.element == element) return static_cast<int>(k);
  }
  return -1;
}

void ConstraintSystem::reactionLoads(int index, const double* y, JointReaction& reaction) const {
  const ActiveJoint& active = joints_[static_cast<size_t>(index)];
  const Joint& joint = *active.joint;
  BodyLoad onI, onJ;
  if (joint.isCoupler()) {
    // What the coupler applies through its first joint: its multiplier times that coordinate's rows.
    const CoupledCoordinate& first = joint.coupled.front();
    const EquationValue measured = evaluateJointEquation(first.measure, active.frames, active.referenceAngles[0]);
    const double lambda = active.equations.empty() ? 0.0 : first.coefficient * y[active.offset];
    addReaction(measured.gI, lambda, onI);
    addReaction(measured.gJ, lambda, onJ);
  } else {
    // Each equation's own rows at the latest frames, on both markers: the stacked rows have no column for ground,
    // and a joint's reaction on a ground marker is as wanted as any other (JOINT(id,1,…), Adams' requests).
    for (size_t k = 0; k < active.equations.size(); ++k) {
      const double lambda = y[active.offset + static_cast<int>(k)];
      const EquationValue measured = evaluateJointEquation(
          joint.equations[static_cast<size_t>(active.equations[k])], active.frames, active.referenceAngles[k]);
      addReaction(measured.gI, lambda, onI);
      addReaction(measured.gJ, lambda, onJ);
    }
  }
  // The equations' rows give the torques about the bodies' CGs (ground's origin for a ground marker); moved to
  // the markers' origins.
  const JointFrames& frames = active.frames;
  reaction.force = onI.force;
  reaction.torque = onI.torque + (frames.cgI - frames.positionI).cross(onI.force);
  reaction.forceOnJ = onJ.force;
  reaction.torqueOnJ = onJ.torque + (frames.cgJ - frames.positionJ).cross(onJ.force);
}

double ConstraintSystem::motionPower(std::span<const BodyKinematics> bodies, const double* y) const {
  double power = 0;
  std::vector<EquationRows> values;
  for (const ActiveJoint& active : joints_) {
    if (!active.joint->isMotion()) continue;
    evaluateJoint(active, bodies, -1, nullptr, values);
    for (size_t k = 0; k < active.equations.size(); ++k) {
      // The equation's velocity rows g give its reaction λ·g on each body: λ times g·(v, ω) is its power.
      double rate = 0;
      for (size_t c = 0; c < active.bodies.size(); ++c) {
        const BodyKinematics& kinematics = bodies[static_cast<size_t>(active.bodies[c])];
        const auto g = values[k].g.col(static_cast<Eigen::Index>(c));
        rate += g.head<3>().dot(kinematics.velocity) + g.tail<3>().dot(kinematics.angularVelocity);
      }
      power += y[active.offset + static_cast<int>(k)] * rate;
    }
  }
  return power;
}

std::string ConstraintSystem::describeVariable(int index) const {
  for (const ActiveJoint& active : joints_) {
    if (active.motionState < 0 || index < active.motionState) continue;
    const int k = index - active.motionState;
    if (k < active.joint->motion->stateCount()) {
      return describeJoint(*active.joint) + (k == 0 ? ", integrated displacement" : ", integrated velocity");
    }
  }
  const Joint* joint = jointOfVariable(index);
  if (!joint) return {};
  for (const ActiveJoint& active : joints_) {
    if (active.joint != joint) continue;
    const int m = static_cast<int>(active.equations.size());
    const int k = index - active.offset;
    const bool isLambda = k < m;
    const JointEquation& equation = joint->equations[static_cast<size_t>(active.equations[static_cast<size_t>(isLambda ? k : k - m)])];
    return describeJoint(*joint) + ", " + (isLambda ? "reaction multiplier of " : "stabilising multiplier of ") +
           equation.name;
  }
  return {};
}

const Joint* ConstraintSystem::jointOfVariable(int index) const {
  for (const ActiveJoint& active : joints_) {
    if (index >= active.offset && index < active.offset + 2 * static_cast<int>(active.equations.size())) {
      return active.joint;
    }
    if (active.motionState >= 0 && index >= active.motionState &&
        index < active.motionState + active.joint->motion->stateCount()) {
      return active.joint;
    }
  }
  return nullptr;
}

}  // namespace lodestone

// Residual and Jacobian assembly for the rigid bodies and the forces on them.
#include "multibody_system.h"

#include <cmath>

#include "elements/force_gravity.h"
#include "stopwatch.h"

namespace lodestone {

using namespace body_state;

MultibodySystem::MultibodySystem(const Model& model, PhaseTimes& times)
    : model_(model),
      times_(times),
      layout_(model),
      pattern_(layout_.size()),
      kinematics_(model.bodies.size()),
      loads_(model.bodies.size()) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const int offset = layout_.bodyOffset(body);
    bodyBlocks_.push_back(pattern_.addBlock({offset, kSize, offset, kSize}));
  }
}

void MultibodySystem::initialState(std::span<double> y) const {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    bodyInitialState(model_.bodies[static_cast<size_t>(body)], y.data() + layout_.bodyOffset(body));
  }
}

bool MultibodySystem::residual(double time, const double* y, const double* yp, double* r) {
  Stopwatch watch;
  lastNonFiniteBody_ = -1;
  updateKinematics(y);
  times_.kinematics += watch.lap();
  evaluateForces(time);
  times_.forces += watch.lap();
  assembleBodyEquations(y, yp, r);
  times_.assembly += watch.lap();
  ++times_.residualCalls;

  // A NaN or infinity would otherwise slip through Newton's convergence test; report it so IDAS retries with a
  // smaller step and, if it keeps happening, the failure names the body.
  for (int i = 0; i < layout_.size(); ++i) {
    if (!std::isfinite(r[i])) {
      lastNonFiniteBody_ = layout_.bodyOfVariable(i);
      return false;
    }
  }
  return true;
}

void MultibodySystem::updateKinematics(const double* y) {
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const double* state = y + layout_.bodyOffset(body);
    BodyKinematics& k = kinematics_[static_cast<size_t>(body)];
    k.position = Eigen::Map<const Vector3>(state + kPosition);
    k.rotation = rotationFromEulerParameters(Eigen::Map<const Vector4>(state + kEulerParameters));
    k.velocity = Eigen::Map<const Vector3>(state + kVelocity);
    k.angularVelocity = k.rotation * Eigen::Map<const Vector3>(state + kAngularVelocity);
  }
}

void MultibodySystem::evaluateForces(double /*time*/) {
  for (BodyLoad& load : loads_) load = BodyLoad{};
  addGravityLoads(model_, loads_);
  // Contact and other force elements add their loads here, reading kinematics_.
}

void MultibodySystem::assembleBodyEquations(const double* y, const double* yp, double* r) {
  const double massFactor = model_.units.massFactor;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const int offset = layout_.bodyOffset(body);
    bodyResidual(model_.bodies[static_cast<size_t>(body)], massFactor, kinematics_[static_cast<size_t>(body)].rotation,
                 y + offset, yp + offset, loads_[static_cast<size_t>(body)], r + offset);
  }
}

void MultibodySystem::jacobian(double time, const double* y, const double* /*yp*/, double cj,
                               JacobianAssembler& assembler) {
  Stopwatch watch;
  // The body blocks need the loads (a torque fixed in ground turns with the body); forces that depend on the
  // state will add their own coupling blocks here.
  updateKinematics(y);
  evaluateForces(time);
  const double massFactor = model_.units.massFactor;
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    bodyJacobian(model_.bodies[static_cast<size_t>(body)], massFactor, y + layout_.bodyOffset(body), cj,
                 loads_[static_cast<size_t>(body)], block_);
    assembler.addBlock(bodyBlocks_[static_cast<size_t>(body)], block_.data());
  }
  times_.jacobian += watch.lap();
  ++times_.jacobianCalls;
}

void MultibodySystem::sampleBodies(std::span<const double> y, std::vector<BodySample>& samples) const {
  samples.resize(model_.bodies.size());
  for (int body = 0; body < layout_.bodyCount(); ++body) {
    const double* state = y.data() + layout_.bodyOffset(body);
    BodySample& sample = samples[static_cast<size_t>(body)];
    const Vector4 e = Eigen::Map<const Vector4>(state + kEulerParameters);
    sample.id = model_.bodies[static_cast<size_t>(body)].id;
    sample.position = Eigen::Map<const Vector3>(state + kPosition);
    sample.eulerParameters = e.normalized();
    sample.velocity = Eigen::Map<const Vector3>(state + kVelocity);
    sample.angularVelocity = rotationFromEulerParameters(e) * Eigen::Map<const Vector3>(state + kAngularVelocity);
  }
}

}  // namespace lodestone

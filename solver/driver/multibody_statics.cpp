// Static equilibrium: the configuration where every body's loads — gravity, contacts, the joints' reactions —
// balance, at one time with the bodies at rest. Unknowns: each body's small displacement and rotation (six, in
// ground) and the joints' multipliers λ; equations: each body's net force and torque about its CG, and the joints'
// position equations Φ. The Jacobian is formed by differences (the loads of contacts and forces have no other
// form here), so one iteration costs (6·bodies + equations) load evaluations: fine for the mechanisms statics
// are run on, quadratic in their size.
#include <cmath>

#include <Eigen/Dense>

#include "multibody_system.h"
#include "solver/core/rotation.h"
#include "solver/output/number_format.h"

namespace lodestone {

using namespace body_state;

MultibodySystem::StaticReport MultibodySystem::solveStatics(double time, std::span<double> y) {
  StaticReport report;
  // Joint friction is left out of static solutions (docs/joints.md#joint-friction).
  solvingStatics_ = true;
  const struct StaticsDone {
    bool& flag;
    ~StaticsDone() { flag = false; }
  } staticsDone{solvingStatics_};
  const int bodies = layout_.bodyCount();
  if (bodies == 0) return report;
  for (int b = 0; b < bodies; ++b) {
    std::fill_n(y.data() + layout_.bodyOffset(b) + kVelocity, 6, 0.0);
  }
  Eigen::VectorXd phi;
  std::vector<Eigen::Triplet<double>> triplets;
  constraints_.stack(time, y, phi, triplets);
  const int rows = static_cast<int>(phi.size());
  std::vector<int> lambdaIndex(static_cast<size_t>(rows));
  for (int k = 0; k < rows; ++k) lambdaIndex[static_cast<size_t>(k)] = constraints_.lambdaIndexOfRow(k);
  const int size = 6 * bodies + rows;

  // The residual: each body's net load (force, torque about the CG; ground axes), then Φ.
  const auto residualAt = [&](std::span<const double> state, Eigen::VectorXd& out) {
    updateKinematics(state.data());
    detectContacts();
    evaluateForces(time, state.data());
    out.resize(size);
    for (int b = 0; b < bodies; ++b) {
      out.segment<3>(6 * b) = loads_[static_cast<size_t>(b)].force;
      // A point body does not turn (elements/body_point.h): a torque on it is ignored, as in the transient.
      const bool point = model_.bodies[static_cast<size_t>(b)].point;
      out.segment<3>(6 * b + 3) = point ? Vector3::Zero() : loads_[static_cast<size_t>(b)].torque;
    }
    Eigen::VectorXd constraintValues;
    std::vector<Eigen::Triplet<double>> unused;
    constraints_.stack(time, state, constraintValues, unused);
    out.tail(rows) = constraintValues;
  };
  // x ↦ y: move the bodies by Δx (translation, rotation in ground) and set the multipliers.
  const auto moved = [&](std::span<const double> from, const Eigen::VectorXd& step, std::vector<double>& to) {
    to.assign(from.begin(), from.end());
    for (int b = 0; b < bodies; ++b) {
      double* state = to.data() + layout_.bodyOffset(b);
      Eigen::Map<Vector3>(state + kPosition) += step.segment<3>(6 * b);
      if (model_.bodies[static_cast<size_t>(b)].point) continue;  // its orientation is fixed
      Eigen::Map<Vector4> e(state + kEulerParameters);
      e = rotateEulerParameters(e, step.segment<3>(6 * b + 3)).normalized();
    }
    for (int k = 0; k < rows; ++k) to[static_cast<size_t>(lambdaIndex[static_cast<size_t>(k)])] += step(6 * bodies + k);
  };

  // Scales for the convergence test: the loads at the start (at least the bodies' weights) and the model's size.
  Eigen::VectorXd r;
  residualAt(y, r);
  double loadScale = 0, lengthScale = 1;
  for (int b = 0; b < bodies; ++b) {
    const RigidBody& body = model_.bodies[static_cast<size_t>(b)];
    loadScale = std::max(loadScale, model_.units.massFactor * body.mass * model_.gravity.norm());
    loadScale = std::max(loadScale, r.segment<3>(6 * b).norm());
    lengthScale = std::max(lengthScale, body.position.cwiseAbs().maxCoeff());
  }
  if (loadScale == 0) loadScale = 1;
  // The largest force or torque left on a body, torques divided by `torqueArm` (a length, to compare them with
  // forces; 1 compares them as given).
  const auto imbalanceOf = [&](const Eigen::VectorXd& values, double torqueArm, int* worstBody) {
    double worst = 0;
    for (int b = 0; b < bodies; ++b) {
      const double load = std::max(values.segment<3>(6 * b).norm(), values.segment<3>(6 * b + 3).norm() / torqueArm);
      if (load > worst) {
        worst = load;
        if (worstBody) *worstBody = b;
      }
    }
    return worst;
  };
  // Param_Static's max_imbalance bounds every force and torque as given (MotionSolve tests each equation of motion);
  // without it, forces and torques over the model's size are held to 1e-9 of the load scale.
  const StaticSettings& limits = model_.statics;
  const auto converged = [&](const Eigen::VectorXd& values) {
    const double constraintError = rows > 0 ? values.tail(rows).cwiseAbs().maxCoeff() : 0.0;
    const bool balanced = limits.maxImbalance ? imbalanceOf(values, 1.0, nullptr) <= *limits.maxImbalance
                                              : imbalanceOf(values, lengthScale, nullptr) <= 1e-9 * loadScale;
    return balanced && constraintError <= limits.maxConstraintError.value_or(1e-10 * lengthScale);
  };

  double damping = 1e-3;
  std::vector<double> trial;
  Eigen::MatrixXd jacobian(size, size);
  Eigen::VectorXd shifted;
  while (!converged(r)) {
    if (report.iterations == limits.maxIterations) break;
    // Differences: each body coordinate by a small step, each multiplier by one (loads are linear in λ).
    for (int column = 0; column < size; ++column) {
      Eigen::VectorXd step = Eigen::VectorXd::Zero(size);
      const double h = column < 6 * bodies ? 1e-7 * (column % 6 < 3 ? lengthScale : 1.0) : 1.0;
      step(column) = h;
      moved(y, step, trial);
      residualAt(trial, shifted);
      jacobian.col(column) = (shifted - r) / h;
    }
    // Levenberg–Marquardt: Newton's step where the Jacobian is well conditioned, a scaled steepest descent where it
    // is not (a pendulum released horizontally sits where the gravity torque is at its largest, so Newton's
    // Jacobian is singular there). The damping shrinks after each success and grows until a step helps.
    const Eigen::MatrixXd normal = jacobian.transpose() * jacobian;
    const Eigen::VectorXd gradient = jacobian.transpose() * r;
    const Eigen::VectorXd scaling = normal.diagonal().cwiseMax(1e-12 * normal.diagonal().maxCoeff());
    const double before = r.norm();
    bool accepted = false;
    for (int attempt = 0; attempt < 40 && !accepted; ++attempt) {
      Eigen::MatrixXd damped = normal;
      damped.diagonal() += damping * scaling;
      const Eigen::VectorXd step = -damped.ldlt().solve(gradient);
      moved(y, step, trial);
      residualAt(trial, shifted);
      if (step.allFinite() && shifted.allFinite() && shifted.norm() < before) {
        accepted = true;
        damping = std::max(damping / 10, 1e-12);
      } else {
        damping *= 10;
      }
    }
    ++report.iterations;
    if (!accepted) {
      int body = 0;
      imbalanceOf(r, lengthScale, &body);
      report.failure = "no static equilibrium: no change of the configuration lowers the loads left (largest " +
                       scientific(imbalanceOf(r, lengthScale, nullptr), 3) + ", on " +
                       describeBody(model_.bodies[static_cast<size_t>(body)]) +
                       "); a body or a mechanism is free to move along a load";
      break;
    }
    std::copy(trial.begin(), trial.end(), y.begin());
    r = shifted;
  }
  int worstBody = 0;
  report.imbalance = imbalanceOf(r, lengthScale, &worstBody);
  report.constraintError = rows > 0 ? r.tail(rows).cwiseAbs().maxCoeff() : 0.0;
  if (!report.failure && !converged(r)) {
    report.failure = "no static equilibrium found after " + std::to_string(report.iterations) +
                     " iterations: " + describeBody(model_.bodies[static_cast<size_t>(worstBody)]) +
                     " still has an unbalanced load of " + scientific(report.imbalance, 3) +
                     "; allow more iterations or a larger imbalance (Param_Static max_num_iter, max_imbalance)";
  }
  return report;
}

}  // namespace lodestone

// The equations IDAS integrates, F(t, y, y') = 0, and their iteration matrix. The residual reads as an outline —
// kinematics, then forces, then the assembly of each body's equations — and times each stage for the run log.
// Nothing here allocates after construction: the residual runs thousands of times per simulated second.
#pragma once

#include <span>
#include <vector>

#include "elements/body_rigid.h"
#include "jacobian_assembly.h"
#include "solver/core/model.h"
#include "solver/output/body_results_writer.h"
#include "solver/output/run_statistics.h"
#include "state_layout.h"

namespace lodestone {

// A moving body's frame and motion in ground, computed once per residual for every force element to read.
struct BodyKinematics {
  Vector3 position = Vector3::Zero();         // CG
  Matrix3 rotation = Matrix3::Identity();     // body axes in ground (columns)
  Vector3 velocity = Vector3::Zero();         // CG
  Vector3 angularVelocity = Vector3::Zero();  // ground axes
};

class MultibodySystem {
 public:
  // `model` and `times` must outlive the system.
  MultibodySystem(const Model& model, PhaseTimes& times);

  const Model& model() const { return model_; }
  const StateLayout& layout() const { return layout_; }
  const JacobianPattern& jacobianPattern() const { return pattern_; }

  // The model's initial state (Body_Rigid initial pose and velocities).
  void initialState(std::span<double> y) const;

  // r = F(t, y, y'). Returns false when a residual is not finite; the body is then lastNonFiniteBody().
  bool residual(double time, const double* y, const double* yp, double* r);

  // ∂F/∂y + cj·∂F/∂y' at (t, y, y'), written block by block into `assembler` (which begin() has prepared).
  void jacobian(double time, const double* y, const double* yp, double cj, JacobianAssembler& assembler);

  // Index into model().bodies of the body whose residual was not finite in the latest evaluation; -1 if none.
  int lastNonFiniteBody() const { return lastNonFiniteBody_; }

  // What bodies.csv reports for state y: Euler parameters normalised, angular velocity turned into ground axes.
  void sampleBodies(std::span<const double> y, std::vector<BodySample>& samples) const;

 private:
  void updateKinematics(const double* y);
  void evaluateForces(double time);
  void assembleBodyEquations(const double* y, const double* yp, double* r);

  const Model& model_;
  PhaseTimes& times_;
  StateLayout layout_;
  JacobianPattern pattern_;
  std::vector<int> bodyBlocks_;  // each body's own block in pattern_
  std::vector<BodyKinematics> kinematics_;
  std::vector<BodyLoad> loads_;
  BodyBlock block_;
  int lastNonFiniteBody_ = -1;
};

}  // namespace lodestone

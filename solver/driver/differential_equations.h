// The Control_Diff equations in the integrator's residual: one state each, at the end of the state vector
// (StateLayout::differentialOffset), with row ẏ − f(t, y, …) = 0 (explicit) or F(t, y, ẏ, …) = 0 (is_implicit);
// after them the control systems' states (Control_StateEqn, Control_SISO), with rows ẋ − (A x + B u) = 0, u their
// input variables, or ẋ − f(t, x, u) = 0 with f a GSESUB's; and their iteration-matrix rows by finite differences
// over the few columns they read (the Control_Diff and control states and rates, the states of the bodies whose
// markers their expressions name, and those bodies' velocity rates where they read accelerations).
#pragma once

#include <span>
#include <vector>

#include <Eigen/Dense>

#include "elements/body_rigid.h"
#include "elements/control_diff.h"
#include "elements/control_state_eqn.h"
#include "elements/expression_context.h"
#include "jacobian_assembly.h"
#include "state_layout.h"

namespace lodestone {

class DifferentialEquations {
 public:
  // `model` and `layout` must outlive the equations.
  DifferentialEquations(const Model& model, const StateLayout& layout);

  bool empty() const { return count_ == 0; }
  // What DIF and DIF1 read, for every evaluator of expressions: the values and rates of the latest readState and
  // readRates.
  const DifferentialStates* states() const { return &states_; }
  // Where SENVAL in the equations reads the Sensor_Evaluate values (ModelExpressionContext).
  void setSensorEvaluateValues(const SensorEvaluateValues* values) { context_.setSensorEvaluateValues(values); }

  // y's Control_Diff entries: their ic.
  void initialState(double* y) const;
  void readState(const double* y);
  void readRates(const double* yp);

  // r's Control_Diff rows at (t, y, y') with the bodies' kinematics at y (after readState and readRates).
  void residual(double time, std::span<const BodyKinematics> bodies, double* r);
  // A consistent start for the explicit equations: yp's entries are f at (t, y); those of implicit ones their ic_dot.
  void consistentRates(double time, std::span<const BodyKinematics> bodies, double* yp);

  // Whether some row reads the bodies' accelerations (ACCX…, WDTX…, directly, through variables or a subroutine's
  // c_varval): the bodies' kinematics handed to residual() and differentiate() must then hold them (from y').
  bool readsAccelerations() const { return readsAccelerations_; }

  void addPatternBlocks(JacobianPattern& pattern);
  // ∂F/∂y and ∂F/∂y' of the rows at (t, y, y'), y and y' the whole state and rates (the bodies' columns are differenced
  // from them: the accelerations a row reads are the bodies' velocity rates); `bodies` holds the kinematics at y
  // (with the accelerations at y' where readsAccelerations) and is restored.
  void differentiate(double time, const double* y, const double* yp, std::vector<BodyKinematics>& bodies);
  void writeJacobian(double cj, JacobianAssembler& assembler) const;
  // out += scale · ∂F/∂y' · v over the rows (from the latest differentiate; the identity before any).
  void multiplyAddRateJacobian(double scale, const double* v, double* out) const;

 private:
  // Row k at the state the context was last set to (setState: once per state, since it forgets the variables'
  // values, which every row would otherwise compute again).
  double equationResidual(int k) const;
  // Every row at (time, bodies) and the current states and rates, into `out` (count_ values).
  void residuals(double time, std::span<const BodyKinematics> bodies, double* out);

  // Row k of a control system (k ≥ equationCount_): ẋ − (A x + B u), or ẋ − f(x, u) of its GSESUB, at the current
  // states and inputs.
  double controlResidual(int k) const;

  // Set while differentiate() perturbs states: a DIFSUB's dflag.
  struct DifferencingFlag {
    explicit DifferencingFlag(bool& flag) : flag_(flag) { flag_ = true; }
    ~DifferencingFlag() { flag_ = false; }
    bool& flag_;
  };
  const Model& model_;
  bool differencing_ = false;
  const DifferentialModel* equations_ = nullptr;
  const ControlModel* controls_ = nullptr;
  int offset_ = 0;
  int count_ = 0;          // Control_Diff states and control systems' states
  int equationCount_ = 0;  // the Control_Diff states, first
  std::vector<std::pair<int, int>> controlRows_;  // per control state: its system and its row in that system
  DifferentialStates states_;
  ModelExpressionContext context_;
  std::vector<std::vector<int>> bodiesRead_;  // per equation: moving bodies (indices) its expression reads
  std::vector<std::vector<int>> bodyBlocks_;  // per equation: its pattern block for each body read
  std::vector<std::vector<Eigen::Matrix<double, 1, body_state::kSize>>> bodyDerivatives_;
  // Per equation reading accelerations: its derivatives by each body's rates read (zero elsewhere).
  std::vector<std::vector<Eigen::Matrix<double, 1, body_state::kSize>>> bodyRateDerivatives_;
  std::vector<char> rowReadsAcceleration_;
  // bodiesRead_ turned round: per body read, the rows reading it and its index among each row's bodies.
  struct BodyReaders {
    int body = -1;
    std::vector<std::pair<int, size_t>> rows;
    bool readAcceleration = false;  // some of those rows reads accelerations
  };
  std::vector<BodyReaders> bodyReaders_;
  bool readsAccelerations_ = false;
  int squareBlock_ = -1;                      // rows × Control_Diff columns
  Eigen::MatrixXd stateDerivatives_, rateDerivatives_;
  std::vector<int> bodyOffsets_;
  std::vector<double> base_, perturbedRows_;  // differentiate's rows at the state and at a perturbed one
};

}  // namespace lodestone

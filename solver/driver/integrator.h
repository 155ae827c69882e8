// IDAS, set up for a MultibodySystem: residual form, analytic block Jacobian (dense LU or KLU), Euler-parameter
// projection in the nonlinear solver, step limits and tolerances from Param_Transient, consistent initial
// conditions by IDACalcIC. The driver steps it one internal step at a time and interpolates output times.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "multibody_system.h"
#include "solver/output/run_statistics.h"
#include "sundials_check.h"

namespace lodestone {

enum class LinearSolverKind { Dense, SparseKlu, Krylov };

// Dense LU is used up to this many bodies, KLU beyond. Measured with free_bodies_benchmark (microseconds per
// step per body, free tumbling bodies, integr_tol 1e-3 and 1e-6): one body ties (10 vs 7, 5.5 vs 5.4), and
// from two bodies on KLU wins and keeps winning (2: 5.8 vs 4.6; 4: 6.6 vs 3.7; 8: 11.4 vs 3.6; 16: 26 vs 3.3),
// because dense factorisation grows as n³ and dense substitution as n² while the block-diagonal KLU factors
// grow as n. Revisit when joints and contact couple bodies.
constexpr int kDenseLinearSolverMaxBodies = 1;
// From this many bodies on, GMRES with a block-Jacobi preconditioner replaces KLU. Contacts couple the bodies of
// a pile into a three-dimensional network whose LU factors fill in far beyond its non-zeros (KLU spent 70% of a
// 1000-sphere pile's time factorising and never finished 0.3 s); a Krylov iteration costs one pass over the
// blocks. Measured with Gram-Schmidt's dot products fused, user CPU time of the piles of contact_pile_benchmark (1 s)
// and peer_pile_benchmark (2 s), KLU against GMRES: 20 spheres 0.24 s / 0.27 s; 50: 1.39 / 1.15 and 0.68 / 0.62;
// 100: 5.83 / 3.80 (peers' pile). Where they cross depends on how densely the bodies touch, which a body count only
// guesses; this one sits between the two piles' crossings.
constexpr int kKrylovMinBodies = 40;

// Models with joints always factorise (KLU beyond one body), even when GMRES is requested: the block-Jacobi
// preconditioner sees each body alone and nothing of the joints' algebraic equations, and GMRES's weighted
// residual would not see the joints' rows at all (their multipliers weigh ~0, see the Integrator).
LinearSolverKind chooseLinearSolver(int bodyCount, std::optional<LinearSolverKind> requested,
                                    bool hasConstraints = false);
const char* describeLinearSolver(LinearSolverKind kind);

struct IntegratorOptions {
  std::optional<LinearSolverKind> linearSolver;  // empty: by model size (kDenseLinearSolverMaxBodies)
  // Tests switch this off to show the drift the projection prevents; runs always keep it on.
  bool projectEulerParameters = true;
};

// RootFound: the returned time is where a sensor's root function crossed zero (IDAS located it; see rootsFound()) or
// a contact began or ended (located here; see contactCrossings()).
enum class StepStatus { Stepped, ReachedStopTime, RootFound, Failed };

struct StepResult {
  StepStatus status = StepStatus::Stepped;
  int flag = 0;      // IDAS's return value
  double time = 0;   // where IDAS now is
};

// Why IDAS stopped, in the terms a user needs: when, IDAS's own flag and message, and which body's equations
// had the largest weighted local error.
struct FailureReport {
  double time = 0;
  int flag = 0;
  std::string flagName;        // "IDA_ERR_FAIL"
  std::string solverMessage;   // IDAS's last error message
  int worstVariable = -1;      // state index with the largest |local error × error weight|; -1 if unknown
  double worstWeightedError = 0;
  // Before IDAS has accepted a step there is no local error estimate; the weighted residual is used instead.
  bool fromResidual = false;
  int nonFiniteBody = -1;      // a body whose residual was not finite, if any was
};

class Integrator {
 public:
  // Receives every message IDAS reports (errors and warnings), already formatted as one line.
  using MessageHandler = std::function<void(const std::string& line)>;

  // `initialDerivative`, when given, is consistent with `initialState` (joints: see MultibodySystem::assemble) and
  // computeConsistentStart keeps it; otherwise IDACalcIC computes it. `energyFlows` (kIntegratedEnergyTermCount
  // values) are the energy balance's integrals at the start, carried on as IDAS quadratures while the system has
  // any (MultibodySystem::hasEnergyFlows) and constant otherwise.
  Integrator(MultibodySystem& system, const IntegratorSettings& settings, double startTime,
             std::span<const double> initialState, const IntegratorOptions& options, PhaseTimes& times,
             MessageHandler onMessage, std::span<const double> initialDerivative = {},
             std::span<const double> energyFlows = {});
  ~Integrator();
  Integrator(const Integrator&) = delete;
  Integrator& operator=(const Integrator&) = delete;

  // Makes y' consistent with y at the start time (IDACalcIC); `nextOutputTime` tells IDAS the time scale.
  StepResult computeConsistentStart(double nextOutputTime);

  // Integration stops exactly at `stopTime` (IDASetStopTime); must lie ahead of time().
  void setStopTime(double stopTime);
  // One internal IDAS step, or the first contact crossing within it (then the next step() returns the rest of it).
  StepResult step();
  // After a RootFound step: for each root function (the sensors'), −1 where it fell through zero, 0 elsewhere.
  const std::vector<int>& rootsFound() const { return rootsFound_; }
  // The contact onsets and separations located at the returned time (zero crossing; empty when none). Each step()
  // locates those after the previous returned time, pair by pair on IDAS's interpolant, and returns at the first
  // (StepStatus::RootFound); what IDAS itself reached is returned by the next step(), unless a restart intervenes.
  const std::vector<ContactEvaluator::Crossing>& contactCrossings() const { return crossings_; }
  // Whether the next step() returns what IDAS had already reached (after a return at a contact crossing) without
  // stepping IDAS.
  bool returnsReachedNext() const { return pendingReturn_.has_value(); }
  // The state IDAS returned from the latest step: its solution at the step's end, or at the root; and its
  // derivative there.
  std::span<const double> returnedState() const;
  std::span<const double> returnedDerivative() const;
  // A new largest step (a sensor's hmax). IDAS applies it when it changes the step size, at the end of a step: the
  // size it has already chosen, and keeps, is not cut (see limitNextStep).
  void setMaxStep(double hMax);
  // No step IDAS may take next is longer than this: the size it has chosen (IDAGetCurrentStep), or after a
  // (re)start the first step it will choose (h0_max or a sensor's stepsize, else a thousandth of the way to the
  // stop time, which IDAS only ever shrinks), at least h_min, within h_max and the stop time.
  double nextStepBound() const;
  // The next step ends at most `step` from time(): a stop time there, the one way to shorten the step IDAS has
  // already chosen (setMaxStep would act late). Integration goes on past it; it is not reported as the stop
  // time. A step at or beyond the way to the stop time leaves the stop time as it is.
  void limitNextStep(double step);
  // The size of the first step after the next restartAtReturnedState (a sensor's stepsize).
  void setNextStep(double step);
  // Restarts IDAS at `time` from the state it returned there (at a root: the force law changes, so the BDF
  // history before it would smear the change over the next steps). Keeps the stop time and the statistics. IDAS's
  // first step is `firstStep` when given, else the deck's (h0_max, a sensor's stepsize) or IDAS's own choice.
  void restartAtReturnedState(double time, double firstStep = 0);

  // The solution at `t` within the last step (IDAGetDky), Euler parameters normalised; and its derivative.
  void interpolate(double t, std::span<double> y) const;
  void interpolateDerivative(double t, std::vector<double>& yp) const;
  // The energy balance's integrals at `t` within the last step (IDAGetQuadDky), or at the returned time.
  std::span<const double> energyFlowsAt(double t) const;
  std::span<const double> returnedEnergyFlows() const { return returnedFlows_; }

  double time() const;
  // The integrator's current state (IDAGetCurrentY) untouched by the driver: after a step, IDAS's solution at
  // its current time, which is its history array's newest entry; at the stop time, IDAS's value there.
  std::span<const double> currentState() const;
  // Where IDAS's next (or failing) step was headed: the current state moved on by the current step size along
  // the current derivative. A failure at a contact onset happens in that step, while the accepted state is apart.
  void attemptedState(std::vector<double>& y) const;
  int lastOrder() const;
  double lastStepSize() const;
  SolverStatistics statistics() const;
  LinearSolverKind linearSolver() const { return linearSolverKind_; }

  FailureReport diagnoseFailure(int flag) const;
  // The state entry Newton could not settle at its latest failure to converge, and its last correction against the
  // error weights (1 is the tolerance's); nullopt before any failure, or without the Euler-parameter projection.
  struct NewtonFailure {
    int variable;  // kNoNewtonUpdate (euler_parameter_projection.h): it failed before its first update
    double weightedCorrection;
    long count;  // the solves that failed so far, this one included: a new failure has a larger count
  };
  std::optional<NewtonFailure> lastNewtonFailure() const;

 private:
  SolverStatistics currentStatistics() const;  // IDAS's counters since the latest (re)initialisation
  // One step of IDAS (or, after a return at a contact crossing, what IDAS had reached then).
  StepResult takeStep();
  // Contact crossings after `from` up to the returned time: the first becomes the returned time (see
  // contactCrossings()).
  void returnAtFirstCrossing(double from, StepResult& result);
  // When the crossing's pair changes status between `from` (where it has its old status) and `to` (the returned
  // state, where crossings() found its distance with the new status's sign), to within IDAS's own root tolerance
  // `tolerance`: the end of the last bracket, where it has crossed. Empty when it has its new status at `from` already
  // (synchronise finds it unlocated).
  std::optional<double> locateCrossing(const ContactEvaluator::Crossing& crossing, double from, double to,
                                       double tolerance);
  // IDAS's interpolant over its latest step as a polynomial in t − tn (IDAGetDky's derivatives at its time tn, over
  // their factorials), so that locating a crossing interpolates only its pair's two bodies.
  void expandInterpolant();
  // A state whose two bodies' parts (−1: ground, none) are the interpolant's at `t` (Euler parameters as they are);
  // the rest is not set.
  const double* interpolateBodies(double t, std::pair<int, int> bodies);
  static int residualCallback(double t, N_Vector y, N_Vector yp, N_Vector r, void* self);
  static int jacobianCallback(double t, double cj, N_Vector y, N_Vector yp, N_Vector r, SUNMatrix matrix, void* self,
                              N_Vector, N_Vector, N_Vector);
  static int preconditionerSetupCallback(double t, N_Vector y, N_Vector yp, N_Vector r, double cj, void* self);
  static int preconditionerSolveCallback(double t, N_Vector y, N_Vector yp, N_Vector r, N_Vector rhs, N_Vector z,
                                         double cj, double delta, void* self);
  static int jacobianTimesCallback(double t, N_Vector y, N_Vector yp, N_Vector r, N_Vector v, N_Vector jv, double cj,
                                   void* self, N_Vector, N_Vector);
  // Krylov: forms the iteration matrix's blocks at (t, y, y', cj) and factorises its diagonal blocks.
  bool setUpIterationBlocks(double t, const double* y, const double* yp, double cj);
  static void errorCallback(int code, const char* module, const char* function, char* message, void* self);
  static int rootCallback(double t, N_Vector y, N_Vector yp, double* g, void* self);
  static int energyRatesCallback(double t, N_Vector y, N_Vector yp, N_Vector rates, void* self);
  // After a step: the integrals at the time IDAS returned.
  void updateReturnedFlows();
  // Runs the body of a callback. An exception must not cross IDAS's C frames: it becomes −1 (unrecoverable) and
  // its message is kept for the failure report.
  template <class Body>
  int guarded(const char* what, Body&& body) {
    try {
      return body();
    } catch (const std::exception& error) {
      callbackException_ = error.what();
    } catch (...) {
      callbackException_ = std::string("unknown exception in ") + what;
    }
    return -1;
  }

  MultibodySystem& system_;
  PhaseTimes& times_;
  MessageHandler onMessage_;
  LinearSolverKind linearSolverKind_;
  std::unique_ptr<JacobianAssembler> assembler_;
  std::string lastErrorMessage_;
  std::string callbackException_;
  int stateSize_ = 0;
  std::optional<double> reachedTime_;
  bool consistentStartGiven_ = false;
  double stopTime_ = 0;
  bool limitedStop_ = false;     // IDAS's stop time is limitNextStep's, short of stopTime_
  bool restartPending_ = true;   // IDAS has not stepped since its (re)initialisation: it chooses its first step anew
  double maxStep_ = 0;           // IDAS's h_max in force; 0: none
  double minStep_ = 0;           // IDAS's h_min
  double initialStep_ = 0;       // IDAS's first step after a (re)start, when set; 0: its own choice
  double restartStep_ = 0;       // the first step of the pending restart alone, when set; 0: initialStep_
  std::vector<int> rootsFound_;
  std::vector<ContactEvaluator::Crossing> crossings_;   // located at the returned time
  std::vector<ContactEvaluator::Crossing> unlocated_;   // scratch: the crossings the returned state shows
  long crossingEvaluations_ = 0;                        // pair distances evaluated to locate crossings
  double interpolantTime_ = 0;                          // tn of expandInterpolant's polynomial
  std::vector<std::vector<double>> interpolantTerms_;   // its coefficients, lowest power first
  std::vector<double> crossingState_;                   // interpolateBodies's state
  // What IDAS returned when a contact crossing before it was returned instead.
  struct PendingReturn {
    StepResult result;
    std::vector<int> rootsFound;
    std::vector<double> y, yp, flows;
  };
  std::optional<PendingReturn> pendingReturn_;
  SolverStatistics beforeRestarts_;  // IDAReInit zeroes IDAS's counters; this keeps what they had reached
  // The energy balance: whether IDAS integrates it, its integrals at the returned time, and scratch for outputs.
  bool integratesFlows_ = false;
  std::vector<double> returnedFlows_;
  mutable std::vector<double> interpolatedFlows_;
  SUNLinearSolver kluSolver_ = nullptr;  // inside the timed wrapper, for re-analysis when the pattern grows
  long convergenceFailuresAtJacobian_ = 0;  // IDAS's Newton failure count at the latest Jacobian
  long sparseAnalyses_ = 0;  // KLU analyses afresh (jacobianCallback)
  int stalledSteps_ = 0;                    // consecutive steps that did not move time
  static constexpr int kMaxStalledSteps = 20;
  // Krylov only: the iteration matrix at the latest preconditioner set-up (at cj = setupCj_); with the system's
  // ∂F/∂y' (MultibodySystem::multiplyAddRateJacobian) a product at IDAS's current cj is exact:
  // A(cj) = A(setupCj_) + (cj − setupCj_)·∂F/∂y'.
  std::unique_ptr<BlockJacobian> iterationBlocks_;
  std::optional<double> setupCj_;

  // Declared in creation order: destroyed in reverse, IDAS memory before the solvers it points at.
  SundialsContextPtr context_;
  NVectorPtr y_;
  NVectorPtr yp_;
  SunMatrixPtr matrix_;
  LinearSolverPtr linearSolver_;
  NonlinearSolverPtr nonlinearSolver_;
  bool projectsEulerParameters_ = false;  // nonlinearSolver_ is makeEulerParameterProjection's
  IdasMemoryPtr idas_;
  mutable NVectorPtr interpolated_;
  NVectorPtr flows_;  // IDAS's quadrature vector (its size: kIntegratedEnergyTermCount)
};

}  // namespace lodestone

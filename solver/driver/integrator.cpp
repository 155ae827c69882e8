// IDAS set-up, stepping, interpolation and failure diagnosis.
#include "integrator.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>

#include <idas/idas.h>
#include <nvector/nvector_serial.h>
#include <sunlinsol/sunlinsol_dense.h>
#include <sunlinsol/sunlinsol_klu.h>
#include <sunlinsol/sunlinsol_spgmr.h>
#include <sunmatrix/sunmatrix_sparse.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

#include "euler_parameter_projection.h"
#include "solver/output/number_format.h"
#include "stopwatch.h"
#include "timed_linear_solver.h"
#include "vector_operations.h"

namespace lodestone {

LinearSolverKind chooseLinearSolver(int bodyCount, std::optional<LinearSolverKind> requested, bool hasConstraints) {
  if (requested && !(hasConstraints && *requested == LinearSolverKind::Krylov)) return *requested;
  if (bodyCount <= kDenseLinearSolverMaxBodies) return LinearSolverKind::Dense;
  return bodyCount < kKrylovMinBodies || hasConstraints ? LinearSolverKind::SparseKlu : LinearSolverKind::Krylov;
}

const char* describeLinearSolver(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::Dense: return "dense LU";
    case LinearSolverKind::SparseKlu: return "KLU sparse LU";
    case LinearSolverKind::Krylov: return "GMRES with block-Jacobi preconditioner";
  }
  return "?";
}

namespace {

// GMRES's Krylov subspace before it restarts (SUNDIALS' default is 5). A pile's contact network needs more
// iterations than that with a preconditioner that sees each body alone.
constexpr int kKrylovDimension = 30;
// How far below Newton's own tolerance GMRES solves each Newton correction (IDAS's eplifac; its default is 0.05). A
// correction solved more exactly than Newton's next iterate needs is work thrown away: IDAS's convergence test, not the
// linear solve, decides when the step's equations are met. Measured on the peers' piles: 100 spheres, 2 s, 21261 ->
// 14227 linear iterations at 0.2 for the same residuals (10929 -> 10842) and Newton failures (606); 1000 spheres,
// 0.3 s, 2 threads, 16866 -> 9828 at 0.25, wall 7.4 -> 6.1-6.4 s. At 0.5 the residuals begin to grow (8237 against
// 7790 at 1000 spheres), at 1.0 the steps too (5314 against 4860 at 100).
constexpr double kKrylovToleranceFactor = 0.25;

// The absolute tolerance that makes a joint multiplier's weight in IDAS's norms negligible (1e-100), without
// the subnormal numbers a larger one would give.
constexpr double kMultiplierAbsoluteTolerance = 1e100;

double* data(N_Vector vector) { return N_VGetArrayPointer(vector); }

void normaliseEulerParameters(const StateLayout& layout, double* y) {
  for (int body = 0; body < layout.bodyCount(); ++body) {
    Eigen::Map<Vector4> e(y + layout.eulerParameterOffset(body));
    const double norm = e.norm();
    if (norm > 0 && std::isfinite(norm)) e /= norm;
  }
}

}  // namespace

Integrator::Integrator(MultibodySystem& system, const IntegratorSettings& settings, double startTime,
                       std::span<const double> initialState, const IntegratorOptions& options, PhaseTimes& times,
                       MessageHandler onMessage, std::span<const double> initialDerivative,
                       std::span<const double> energyFlows)
    : system_(system),
      times_(times),
      onMessage_(std::move(onMessage)),
      linearSolverKind_(chooseLinearSolver(system.layout().bodyCount(), options.linearSolver, system.hasConstraints())),
      stateSize_(system.layout().size()) {
  const StateLayout& layout = system.layout();
  SUNContext context = nullptr;
  checkSundials(SUNContext_Create(nullptr, &context), "SUNContext_Create");
  context_.reset(context);

  y_.reset(checkCreated(N_VNew_Serial(stateSize_, context), "N_VNew_Serial"));
  // Fused vector operations (several dot products or linear combinations in one pass over memory) for every vector
  // IDAS and GMRES clone from y, which is all of theirs: enabled before they are cloned. Enabled only after GMRES
  // had cloned its Krylov vectors, they were not used: on the peers' 100-sphere pile the dot products of its
  // Gram-Schmidt were 12 % of the run, one pass per Krylov vector.
  checkSundials(N_VEnableFusedOps_Serial(y_.get(), SUNTRUE), "N_VEnableFusedOps_Serial");
  useVectorisedOperations(y_.get());
  yp_.reset(checkCreated(N_VNew_Serial(stateSize_, context), "N_VNew_Serial"));
  interpolated_.reset(checkCreated(N_VNew_Serial(stateSize_, context), "N_VNew_Serial"));
  std::copy(initialState.begin(), initialState.end(), data(y_.get()));
  consistentStartGiven_ = !initialDerivative.empty();
  if (consistentStartGiven_) {
    std::copy(initialDerivative.begin(), initialDerivative.end(), data(yp_.get()));
  } else {
    N_VConst(0.0, yp_.get());  // IDACalcIC computes it
  }

  idas_.reset(checkCreated(IDACreate(context), "IDACreate"));
  void* idas = idas_.get();
  checkSundials(IDASetErrHandlerFn(idas, errorCallback, this), "IDASetErrHandlerFn");
  checkSundials(IDAInit(idas, residualCallback, startTime, y_.get(), yp_.get()), "IDAInit");
  checkSundials(IDASetUserData(idas, this), "IDASetUserData");

  // Our choice: integr_tol is both the relative and the absolute tolerance, for every variable. Deck units
  // make positions (mm) and Euler parameters (≈1) differ in scale, and the relative part covers the large ones.
  if (layout.multiplierCount() == 0) {
    checkSundials(IDASStolerances(idas, settings.integrTol, settings.integrTol), "IDASStolerances");
  } else {
    // The joints' multipliers λ and μ are algebraic: left out of the error test (IDASetSuppressAlg, below) and,
    // through a weight of ~0, out of Newton's convergence test too. Their error shows where it matters, in the
    // velocities and positions they drive (δu = h·M⁻¹Gᵀδλ, δq = −h·T Gᵀδμ), which the test weighs. Weighed
    // themselves at 1/integr_tol, they made it see round-off: at step h a velocity residual at round-off ε|u|
    // moves λ by about m·ε|u|/h, which on the first steps at integr_tol 1e-8 (h ≈ 1e-8) outweighs the tolerance,
    // so Newton stalls and IDAS shrinks h until it fails at t = 0 (a revolute pivot off the origin; an INLINE
    // joint on a tilted axis). Measured on the Adams revolute pendulum at 1e-7 (5 s): 609 → 750 steps, but
    // 1060 → 989 residuals, 24 → 19 Newton failures, and the RMS error against Adams 3.2e-6 → 9.1e-7 in x.
    NVectorPtr absolute(checkCreated(N_VNew_Serial(stateSize_, context), "N_VNew_Serial"));
    N_VConst(settings.integrTol, absolute.get());
    const int first = layout.bodyStateSize();
    std::fill(data(absolute.get()) + first, data(absolute.get()) + first + layout.multiplierCount(),
              kMultiplierAbsoluteTolerance);
    checkSundials(IDASVtolerances(idas, settings.integrTol, absolute.get()), "IDASVtolerances");
    // IDAS reuses an iteration matrix while cj = α/h stays within 25% of the cj it was formed at, and corrects the
    // Newton update by 2/(1 + cj/cj_old) — right for differential variables, wrong for an index-2 multiplier,
    // whose entries scale with cj². Measured on the Adams revolute pendulum (5 s, integr_tol 1e-7): 25 Newton
    // failures in 961 steps with 25%, 3 in 750 with 5%, for 159 matrices instead of 79 and 989 residuals instead
    // of 1621. A joint's matrix blocks are cheap, so the matrix is refreshed sooner — unless an element over many
    // bodies (the soft magnets) makes each matrix cost many residuals: there IDAS's 25% stays. Measured on
    // models/magnets/magnetic_crane.xml to 5.32 s (125 soft cubes, the rope's joints): 1453 matrices in 3524 steps
    // and 350 s CPU with 5%, 709 in 3598 and 208 s with 25% (196 Newton failures against 97); the sphere of objects
    // to 2.6 s: 3570 matrices in 10827 steps, 45.5 s, against 894 in 12950 steps, 39.6 s.
    checkSundials(IDASetDeltaCjLSetup(idas, system.hasManyBodyElements() ? 0.25 : 0.05), "IDASetDeltaCjLSetup");
  }
  checkSundials(IDASetMaxOrd(idas, settings.maxOrder), "IDASetMaxOrd");
  if (settings.hMax > 0) checkSundials(IDASetMaxStep(idas, settings.hMax), "IDASetMaxStep");
  maxStep_ = settings.hMax;
  if (settings.hMin > 0) checkSundials(IDASetMinStep(idas, settings.hMin), "IDASetMinStep");
  minStep_ = settings.hMin;
  if (settings.h0Max > 0) {
    const double initialStep = settings.hMax > 0 ? std::min(settings.h0Max, settings.hMax) : settings.h0Max;
    checkSundials(IDASetInitStep(idas, initialStep), "IDASetInitStep");
    initialStep_ = initialStep;
  }

  // Which variables are differential; joints' multipliers are algebraic, and left out of the error test (an
  // index-2 multiplier's error estimate says nothing about the accuracy of the motion).
  NVectorPtr differential(checkCreated(N_VNew_Serial(stateSize_, context), "N_VNew_Serial"));
  std::copy(layout.differentialMask().begin(), layout.differentialMask().end(), data(differential.get()));
  checkSundials(IDASetId(idas, differential.get()), "IDASetId");
  if (layout.multiplierCount() > 0) checkSundials(IDASetSuppressAlg(idas, SUNTRUE), "IDASetSuppressAlg");

  if (linearSolverKind_ == LinearSolverKind::Krylov) {
    // Matrix-free GMRES: products with the blocks of the analytic Jacobian, preconditioned by each body's own
    // block. Same Jacobian as the direct solvers, no factorisation of the coupled matrix.
    iterationBlocks_ = std::make_unique<BlockJacobian>(system.jacobianPattern(), &system.parallelLoop());
    LinearSolverPtr gmres(
        checkCreated(SUNLinSol_SPGMR(y_.get(), SUN_PREC_LEFT, kKrylovDimension, context), "SUNLinSol_SPGMR"));
    // Classical Gram-Schmidt: its dot products are fused into one pass over the Krylov vectors.
    checkSundials(SUNLinSol_SPGMRSetGSType(gmres.get(), SUN_CLASSICAL_GS), "SUNLinSol_SPGMRSetGSType");
    linearSolver_ = makeTimedLinearSolver(std::move(gmres), times_);
    checkSundials(IDASetLinearSolver(idas, linearSolver_.get(), nullptr), "IDASetLinearSolver");
    checkSundials(IDASetPreconditioner(idas, preconditionerSetupCallback, preconditionerSolveCallback),
                  "IDASetPreconditioner");
    checkSundials(IDASetJacTimes(idas, nullptr, jacobianTimesCallback), "IDASetJacTimes");
    checkSundials(IDASetEpsLin(idas, kKrylovToleranceFactor), "IDASetEpsLin");
  } else {
    // The analytic block Jacobian, in dense or sparse storage.
    assembler_ = makeJacobianAssembler(
        linearSolverKind_ == LinearSolverKind::Dense ? JacobianStorage::Dense : JacobianStorage::SparseColumns,
        system.jacobianPattern());
    matrix_.reset(assembler_->createMatrix(context));
    LinearSolverPtr direct(linearSolverKind_ == LinearSolverKind::Dense
                               ? checkCreated(SUNLinSol_Dense(y_.get(), matrix_.get(), context), "SUNLinSol_Dense")
                               : checkCreated(SUNLinSol_KLU(y_.get(), matrix_.get(), context), "SUNLinSol_KLU"));
    if (linearSolverKind_ == LinearSolverKind::SparseKlu) {
      kluSolver_ = direct.get();
      // AMD, not SUNDIALS' default COLAMD: the pattern is structurally symmetric in bodies (a contact couples
      // both ways), which is what AMD orders for. Measured on a pile of 50 spheres: see contact_pile_benchmark.
      checkSundials(SUNLinSol_KLUSetOrdering(kluSolver_, 0), "SUNLinSol_KLUSetOrdering");
    }
    linearSolver_ = makeTimedLinearSolver(std::move(direct), times_);
    checkSundials(IDASetLinearSolver(idas, linearSolver_.get(), matrix_.get()), "IDASetLinearSolver");
    checkSundials(IDASetJacFn(idas, jacobianCallback), "IDASetJacFn");
  }

  // Nonlinear solver: Newton, wrapped so each converged step renormalises the Euler parameters.
  NonlinearSolverPtr newton(checkCreated(SUNNonlinSol_Newton(y_.get(), context), "SUNNonlinSol_Newton"));
  if (options.projectEulerParameters) {
    std::vector<int> offsets;
    for (int body = 0; body < layout.bodyCount(); ++body) offsets.push_back(layout.eulerParameterOffset(body));
    newton = makeEulerParameterProjection(std::move(newton), std::move(offsets));
    projectsEulerParameters_ = true;
  }
  nonlinearSolver_ = std::move(newton);
  checkSundials(IDASetNonlinearSolver(idas, nonlinearSolver_.get()), "IDASetNonlinearSolver");

  // The sensors located by zero crossing: each root function has the direction in which its crossing zero is an
  // event (contact onsets and separations are located by returnAtFirstCrossing instead).
  if (const int roots = system.rootCount(); roots > 0) {
    checkSundials(IDARootInit(idas, roots, rootCallback), "IDARootInit");
    std::vector<int> directions(static_cast<size_t>(roots), -1);
    system.rootDirections(directions.data());
    checkSundials(IDASetRootDirection(idas, directions.data()), "IDASetRootDirection");
    checkSundials(IDASetNoInactiveRootWarn(idas), "IDASetNoInactiveRootWarn");
    rootsFound_.assign(static_cast<size_t>(roots), 0);
  }

  // The energy balance's integrals (energy.csv) as quadratures: IDAS integrates them along the solution it accepts,
  // with one evaluation of the powers per step once the step has converged. They stay out of its error test, so the
  // balance observes the motion without changing it: the steps, and bodies.csv, are the same with it as without. The
  // price is that their own error goes unchecked where the powers vary faster than the motion (an impact's dashpot
  // power; c·ẋ² at twice an oscillation's frequency), and is part of the leftover: at integr_tol 1e-8 a damped
  // oscillator's balance closes to 1.2e-6 of its energy and two snapping magnets' to 2.9e-6; at its own tolerance
  // models/cam_follower.xml ends with −0.2 %. In the error test (integr_tol relative to the largest energy so far) these
  // were 1.6e-6, 3.9e-7 and 0.007 %, for 16 %, 13 % and 6 % more steps (32 % on cylinder_ramp.xml, 60 % on a spring
  // written as a Force_Scalar_TwoBody), and for motions that moved within integr_tol from what they were.
  returnedFlows_.assign(energyFlows.begin(), energyFlows.end());
  integratesFlows_ = system.hasEnergyFlows() && !energyFlows.empty();
  if (integratesFlows_) {
    flows_.reset(checkCreated(N_VNew_Serial(static_cast<sunindextype>(energyFlows.size()), context), "N_VNew_Serial"));
    std::copy(energyFlows.begin(), energyFlows.end(), data(flows_.get()));
    checkSundials(IDAQuadInit(idas, energyRatesCallback, flows_.get()), "IDAQuadInit");
    checkSundials(IDASetQuadErrCon(idas, SUNFALSE), "IDASetQuadErrCon");
  }
}

Integrator::~Integrator() = default;

StepResult Integrator::computeConsistentStart(double nextOutputTime) {
  if (consistentStartGiven_) return {StepStatus::Stepped, 0, time()};
  ScopedTimer timer(times_.integrator);
  const int flag = IDACalcIC(idas_.get(), IDA_YA_YDP_INIT, nextOutputTime);
  // The consistent values become the returned state, so that what is evaluated at the start (sensors) sees them.
  if (flag >= 0) checkSundials(IDAGetConsistentIC(idas_.get(), y_.get(), yp_.get()), "IDAGetConsistentIC");
  return {flag < 0 ? StepStatus::Failed : StepStatus::Stepped, flag, time()};
}

void Integrator::setStopTime(double stopTime) {
  checkSundials(IDASetStopTime(idas_.get(), stopTime), "IDASetStopTime");
  stopTime_ = stopTime;
  limitedStop_ = false;
}

StepResult Integrator::step() {
  ScopedTimer timer(times_.integrator);
  const double from = time();
  crossings_.clear();
  StepResult result = takeStep();
  if (result.status != StepStatus::Failed && system_.locatesContactCrossings()) returnAtFirstCrossing(from, result);
  return result;
}

StepResult Integrator::takeStep() {
  if (pendingReturn_) {
    PendingReturn pending = std::move(*pendingReturn_);
    pendingReturn_.reset();
    std::copy(pending.y.begin(), pending.y.end(), data(y_.get()));
    std::copy(pending.yp.begin(), pending.yp.end(), data(yp_.get()));
    returnedFlows_ = std::move(pending.flows);
    rootsFound_ = std::move(pending.rootsFound);
    reachedTime_ = pending.result.time;
    return pending.result;
  }
  double reached = 0;
  // In one-step mode `tout` only gives IDAS the direction and the scale of its first step; the stop time
  // bounds every step.
  const int flag = IDASolve(idas_.get(), stopTime_, &reached, y_.get(), yp_.get(), IDA_ONE_STEP);
  if (flag < 0) return {StepStatus::Failed, flag, time()};
  restartPending_ = false;
  if (restartStep_ > 0) {  // that restart's first step is taken: later restarts start as the deck says
    restartStep_ = 0;
    checkSundials(IDASetInitStep(idas_.get(), initialStep_), "IDASetInitStep");
  }
  // Steps too small to move time come when the equations cannot be continued past an instant — a force that is NaN
  // from then on: IDAS retries smaller after each failed residual and only warns, forever. Such steps need not leave
  // t + h = t: a CNFSUB returning NaN from the touch on held a ball 1e-17 s short of it for 3 million steps, each
  // moving time by an ulp. A step that moves time by less than IDAS's own tolerance for a root's time
  // (100·ε·|t|) counts as stalled; twenty in a row, give up.
  const double stallProgress = 100 * std::numeric_limits<double>::epsilon() * std::fabs(reached);
  stalledSteps_ = reachedTime_ && reached - *reachedTime_ <= stallProgress ? stalledSteps_ + 1 : 0;
  if (stalledSteps_ >= kMaxStalledSteps) {
    double step = 0;
    IDAGetLastStep(idas_.get(), &step);
    lastErrorMessage_ = "the step size fell to " + scientific(step, 3) + ", too small to move time on from t = " +
                        scientific(reached, 9) + " in " + std::to_string(kMaxStalledSteps) + " steps";
    return {StepStatus::Failed, IDA_TOO_MUCH_WORK, reached};
  }
  reachedTime_ = reached;
  updateReturnedFlows();
  if (flag == IDA_ROOT_RETURN) {
    checkSundials(IDAGetRootInfo(idas_.get(), rootsFound_.data()), "IDAGetRootInfo");
    return {StepStatus::RootFound, flag, reached};
  }
  const bool reachedStop = flag == IDA_TSTOP_RETURN && !limitedStop_;
  return {reachedStop ? StepStatus::ReachedStopTime : StepStatus::Stepped, flag, reached};
}

// IDAS located contact onsets and separations as root functions once (two per element: the least gap and the least
// depth), and each of their evaluations detected every pair at the interpolated state: one per step and about eleven
// per located event. On the 100-sphere pile (peer_pile_benchmark, its restarts left out) that added 0.46 s to a run of
// 1.0 s; located here, 0.15 s. The returned state's detection, which the step's contact bookkeeping shares, shows
// which pairs crossed, and each is located from its own distance alone.
void Integrator::returnAtFirstCrossing(double from, StepResult& result) {
  system_.contactCrossings(data(y_.get()), unlocated_);
  if (unlocated_.empty()) return;
  expandInterpolant();
  // IDAS's own tolerance for a root's time.
  const double tolerance = 100 * std::numeric_limits<double>::epsilon() * (std::fabs(result.time) +
                                                                           std::fabs(lastStepSize()));
  double first = std::numeric_limits<double>::infinity();
  for (const ContactEvaluator::Crossing& crossing : unlocated_) {
    const std::optional<double> at = locateCrossing(crossing, from, result.time, tolerance);
    if (!at || *at > first) continue;
    if (*at < first) crossings_.clear();
    first = *at;
    crossings_.push_back(crossing);
  }
  if (crossings_.empty() || first >= result.time) return;
  // Returned at the first crossing, as IDAS returns at a root: the state there, IDAS's own return kept for later.
  pendingReturn_ = PendingReturn{result, rootsFound_, {data(y_.get()), data(y_.get()) + stateSize_},
                                 {data(yp_.get()), data(yp_.get()) + stateSize_}, returnedFlows_};
  checkSundials(IDAGetDky(idas_.get(), first, 0, y_.get()), "IDAGetDky");
  checkSundials(IDAGetDky(idas_.get(), first, 1, yp_.get()), "IDAGetDky");
  if (integratesFlows_) {
    const std::span<const double> flows = energyFlowsAt(first);  // interpolated: `first` is not yet reachedTime_
    returnedFlows_.assign(flows.begin(), flows.end());
  }
  std::fill(rootsFound_.begin(), rootsFound_.end(), 0);
  reachedTime_ = first;
  result = {StepStatus::RootFound, IDA_ROOT_RETURN, first};
}

std::optional<double> Integrator::locateCrossing(const ContactEvaluator::Crossing& crossing, double from, double to,
                                                 double tolerance) {
  // Crossed: an onset's distance has fallen below zero, a separation's has risen to zero or above (a pair at zero
  // distance is apart, as detection has it). The secant runs on the distance turned so that it falls.
  const auto crossed = [&](double distance) { return (distance < 0) == crossing.onset; };
  const auto falling = [&](double distance) { return crossing.onset ? distance : -distance; };
  const std::pair<int, int> bodies = system_.contactCrossingBodies(crossing);
  const auto distanceAt = [&](double t) {
    ++crossingEvaluations_;
    return system_.contactCrossingDistance(crossing, interpolateBodies(t, bodies));
  };
  const double atFrom = distanceAt(from);
  if (crossed(atFrom)) return std::nullopt;
  // Illinois (as IDAS's root finding), with a bisection after any secant step that did not halve the bracket.
  double lo = from, hi = to, valueLo = falling(atFrom), valueHi = falling(crossing.distance);
  int retained = 0;  // the end the last step kept: −1 lo, +1 hi (Illinois halves an end kept twice)
  bool bisect = false;
  for (int iteration = 0; hi - lo > tolerance && iteration < 200; ++iteration) {
    const double width = hi - lo;
    double t = bisect ? 0.5 * (lo + hi) : hi - valueHi * (hi - lo) / (valueHi - valueLo);
    t = std::clamp(t, lo + 0.5 * tolerance, hi - 0.5 * tolerance);
    const double distance = distanceAt(t);
    if (crossed(distance)) {
      hi = t;
      valueHi = falling(distance);
      if (retained == -1) valueLo *= 0.5;
      retained = -1;
    } else {
      lo = t;
      valueLo = falling(distance);
      if (retained == 1) valueHi *= 0.5;
      retained = 1;
    }
    bisect = !bisect && hi - lo > 0.5 * width;
  }
  return hi;
}

void Integrator::expandInterpolant() {
  int order = 0;
  checkSundials(IDAGetLastOrder(idas_.get(), &order), "IDAGetLastOrder");
  checkSundials(IDAGetCurrentTime(idas_.get(), &interpolantTime_), "IDAGetCurrentTime");
  interpolantTerms_.resize(static_cast<size_t>(order) + 1);
  double factorial = 1;
  for (int k = 0; k <= order; ++k) {
    if (k > 1) factorial *= k;
    checkSundials(IDAGetDky(idas_.get(), interpolantTime_, k, interpolated_.get()), "IDAGetDky");
    std::vector<double>& term = interpolantTerms_[static_cast<size_t>(k)];
    term.resize(static_cast<size_t>(stateSize_));
    for (size_t i = 0; i < term.size(); ++i) term[i] = data(interpolated_.get())[i] / factorial;
  }
  crossingState_.resize(static_cast<size_t>(stateSize_));
}

const double* Integrator::interpolateBodies(double t, std::pair<int, int> bodies) {
  const double dt = t - interpolantTime_;
  for (const int body : {bodies.first, bodies.second}) {
    if (body < 0) continue;
    const size_t first = static_cast<size_t>(system_.layout().bodyOffset(body));
    for (size_t i = first; i < first + body_state::kSize; ++i) {
      double value = 0;  // Horner's rule
      for (auto term = interpolantTerms_.rbegin(); term != interpolantTerms_.rend(); ++term) {
        value = value * dt + (*term)[i];
      }
      crossingState_[i] = value;
    }
  }
  return crossingState_.data();
}

std::span<const double> Integrator::returnedState() const {
  return {data(y_.get()), static_cast<size_t>(stateSize_)};
}

std::span<const double> Integrator::returnedDerivative() const {
  return {data(yp_.get()), static_cast<size_t>(stateSize_)};
}

void Integrator::setMaxStep(double hMax) {
  checkSundials(IDASetMaxStep(idas_.get(), hMax), "IDASetMaxStep");
  maxStep_ = hMax;
}

void Integrator::setNextStep(double step) {
  checkSundials(IDASetInitStep(idas_.get(), step), "IDASetInitStep");
  initialStep_ = step;
}

// Both measure from IDAS's own time, which after a root lies beyond the root returned: the next step() then returns
// there without stepping.
double Integrator::nextStepBound() const {
  double now = 0;
  checkSundials(IDAGetCurrentTime(idas_.get(), &now), "IDAGetCurrentTime");
  const double toStop = std::fabs(stopTime_ - now);
  double step = 0;
  if (!restartPending_) checkSundials(IDAGetCurrentStep(idas_.get(), &step), "IDAGetCurrentStep");
  // IDAS's first step: the one it was given (for this restart, else for every start), else 0.001 of the way to
  // `tout` (step() passes the stop time).
  if (step == 0) step = restartStep_ > 0 ? restartStep_ : initialStep_ > 0 ? initialStep_ : 0.001 * toStop;
  // IDAS raises a first step to h_min, and never takes a shorter one.
  step = std::max(std::fabs(step), minStep_);
  if (maxStep_ > 0) step = std::min(step, maxStep_);
  return std::min(step, toStop);
}

void Integrator::limitNextStep(double step) {
  double now = 0;
  checkSundials(IDAGetCurrentTime(idas_.get(), &now), "IDAGetCurrentTime");
  limitedStop_ = now + step < stopTime_;
  checkSundials(IDASetStopTime(idas_.get(), limitedStop_ ? now + step : stopTime_), "IDASetStopTime");
}

void Integrator::restartAtReturnedState(double time, double firstStep) {
  pendingReturn_.reset();  // IDAS goes on from here: what it had reached beyond is dropped
  beforeRestarts_ += currentStatistics();
  ++beforeRestarts_.restarts;
  normaliseEulerParameters(system_.layout(), data(y_.get()));
  checkSundials(IDAReInit(idas_.get(), time, y_.get(), yp_.get()), "IDAReInit");
  if (integratesFlows_) {
    std::copy(returnedFlows_.begin(), returnedFlows_.end(), data(flows_.get()));
    checkSundials(IDAQuadReInit(idas_.get(), flows_.get()), "IDAQuadReInit");
  }
  convergenceFailuresAtJacobian_ = 0;  // IDAReInit zeroes the counter
  stalledSteps_ = 0;
  checkSundials(IDASetStopTime(idas_.get(), stopTime_), "IDASetStopTime");
  limitedStop_ = false;
  restartPending_ = true;
  reachedTime_ = time;
  restartStep_ = firstStep;
  checkSundials(IDASetInitStep(idas_.get(), firstStep > 0 ? firstStep : initialStep_), "IDASetInitStep");
}

void Integrator::interpolate(double t, std::span<double> y) const {
  checkSundials(IDAGetDky(idas_.get(), t, 0, interpolated_.get()), "IDAGetDky");
  std::copy_n(data(interpolated_.get()), stateSize_, y.begin());
  normaliseEulerParameters(system_.layout(), y.data());
}

void Integrator::interpolateDerivative(double t, std::vector<double>& yp) const {
  checkSundials(IDAGetDky(idas_.get(), t, 1, interpolated_.get()), "IDAGetDky");
  yp.assign(data(interpolated_.get()), data(interpolated_.get()) + stateSize_);
}

std::span<const double> Integrator::energyFlowsAt(double t) const {
  if (!integratesFlows_ || !reachedTime_ || t == *reachedTime_) return returnedFlows_;
  checkSundials(IDAGetQuadDky(idas_.get(), t, 0, flows_.get()), "IDAGetQuadDky");
  interpolatedFlows_.assign(data(flows_.get()), data(flows_.get()) + returnedFlows_.size());
  return interpolatedFlows_;
}

void Integrator::updateReturnedFlows() {
  if (!integratesFlows_) return;
  double t = 0;
  checkSundials(IDAGetQuad(idas_.get(), &t, flows_.get()), "IDAGetQuad");
  std::copy_n(data(flows_.get()), returnedFlows_.size(), returnedFlows_.begin());
}

double Integrator::time() const {
  if (reachedTime_) return *reachedTime_;
  double t = 0;
  checkSundials(IDAGetCurrentTime(idas_.get(), &t), "IDAGetCurrentTime");
  return t;
}

std::span<const double> Integrator::currentState() const {
  N_Vector current = nullptr;
  checkSundials(IDAGetCurrentY(idas_.get(), &current), "IDAGetCurrentY");
  if (current == nullptr) current = y_.get();  // IDASolve has not run yet: the initial state
  return {data(current), static_cast<size_t>(stateSize_)};
}

void Integrator::attemptedState(std::vector<double>& y) const {
  const std::span<const double> current = currentState();
  y.assign(current.begin(), current.end());
  N_Vector derivative = nullptr;
  double step = 0;
  if (IDAGetCurrentYp(idas_.get(), &derivative) != IDA_SUCCESS || derivative == nullptr) return;
  if (IDAGetCurrentStep(idas_.get(), &step) != IDA_SUCCESS) return;
  const double* yp = data(derivative);
  for (int i = 0; i < stateSize_; ++i) y[static_cast<size_t>(i)] += step * yp[i];
}

int Integrator::lastOrder() const {
  int order = 0;
  checkSundials(IDAGetLastOrder(idas_.get(), &order), "IDAGetLastOrder");
  return order;
}

double Integrator::lastStepSize() const {
  double step = 0;
  checkSundials(IDAGetLastStep(idas_.get(), &step), "IDAGetLastStep");
  return step;
}

SolverStatistics Integrator::statistics() const {
  SolverStatistics total = beforeRestarts_;
  total += currentStatistics();
  total.rootEvaluations += crossingEvaluations_;
  // The system counts over its whole life, across restarts.
  total.magnetPairsDifferenced = system_.magnetPairsDifferenced();
  total.farMagnetPairsLeftOut = system_.farMagnetPairsLeftOut();
  total.softMagnetBlocksWritten = system_.manyBodyBlocksWritten();
  total.softMagnetBlocksLeftOut = system_.manyBodyBlocksLeftOut();
  total.couplingBlocksRetired = system_.couplingBlocksRetired();
  total.sparseAnalyses = sparseAnalyses_;
  return total;
}

SolverStatistics Integrator::currentStatistics() const {
  void* idas = idas_.get();
  SolverStatistics s;
  checkSundials(IDAGetNumSteps(idas, &s.steps), "IDAGetNumSteps");
  checkSundials(IDAGetNumResEvals(idas, &s.residualEvaluations), "IDAGetNumResEvals");
  if (linearSolverKind_ == LinearSolverKind::Krylov) {
    // The Jacobian is formed where the preconditioner is set up.
    checkSundials(IDAGetNumPrecEvals(idas, &s.jacobianEvaluations), "IDAGetNumPrecEvals");
    checkSundials(IDAGetNumLinIters(idas, &s.linearIterations), "IDAGetNumLinIters");
  } else {
    checkSundials(IDAGetNumJacEvals(idas, &s.jacobianEvaluations), "IDAGetNumJacEvals");
  }
  checkSundials(IDAGetNumLinSolvSetups(idas, &s.linearSolverSetups), "IDAGetNumLinSolvSetups");
  checkSundials(IDAGetNumNonlinSolvIters(idas, &s.nonlinearIterations), "IDAGetNumNonlinSolvIters");
  checkSundials(IDAGetNumErrTestFails(idas, &s.errorTestFailures), "IDAGetNumErrTestFails");
  checkSundials(IDAGetNumNonlinSolvConvFails(idas, &s.nonlinearConvergenceFailures), "IDAGetNumNonlinSolvConvFails");
  checkSundials(IDAGetNumGEvals(idas, &s.rootEvaluations), "IDAGetNumGEvals");
  return s;
}

std::optional<Integrator::NewtonFailure> Integrator::lastNewtonFailure() const {
  if (!projectsEulerParameters_) return std::nullopt;
  const ProjectionStatistics projection = projectionStatistics(nonlinearSolver_.get());
  if (projection.failedVariable == -1) return std::nullopt;
  return NewtonFailure{static_cast<int>(projection.failedVariable), projection.failedWeightedCorrection,
                       projection.failures};
}

FailureReport Integrator::diagnoseFailure(int flag) const {
  FailureReport report;
  report.flag = flag;
  report.flagName = idasFlagName(flag);
  report.solverMessage = lastErrorMessage_;
  if (!callbackException_.empty()) report.solverMessage += " (" + callbackException_ + ")";
  report.nonFiniteBody = system_.lastNonFiniteBody();
  void* idas = idas_.get();
  double t = 0;
  report.time = IDAGetCurrentTime(idas, &t) == IDA_SUCCESS ? t : time();

  NVectorPtr weights(N_VClone(y_.get()));
  NVectorPtr localErrors(N_VClone(y_.get()));
  long steps = 0;
  if (!weights || !localErrors || IDAGetNumSteps(idas, &steps) != IDA_SUCCESS) return report;
  if (IDAGetErrWeights(idas, weights.get()) != IDA_SUCCESS) return report;
  if (steps > 0) {
    if (IDAGetEstLocalErrors(idas, localErrors.get()) != IDA_SUCCESS) return report;
  } else {
    // No step was ever accepted, so there is no local error estimate: the residual at the start is what failed.
    // IDAS's current y and y' are the vectors handed to IDASolve, so before the first IDASolve (a failed
    // IDACalcIC) they do not exist; then its best initial values are in IDAGetConsistentIC.
    N_Vector y = nullptr;
    N_Vector yp = nullptr;
    IDAGetCurrentY(idas, &y);
    IDAGetCurrentYp(idas, &yp);
    if (y == nullptr || yp == nullptr) {
      IDAGetConsistentIC(idas, y_.get(), yp_.get());
      y = y_.get();
      yp = yp_.get();
    }
    system_.residual(report.time, data(y), data(yp), data(localErrors.get()));
    report.fromResidual = true;
  }
  const double* w = data(weights.get());
  const double* e = data(localErrors.get());
  for (int i = 0; i < stateSize_; ++i) {
    const double weighted = std::fabs(w[i] * e[i]);
    if (report.worstVariable < 0 || weighted > report.worstWeightedError || !std::isfinite(weighted)) {
      report.worstVariable = i;
      report.worstWeightedError = weighted;
      if (!std::isfinite(weighted)) break;
    }
  }
  return report;
}

int Integrator::residualCallback(double t, N_Vector y, N_Vector yp, N_Vector r, void* user) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the residual", [&] {
    // A non-finite residual is recoverable: IDAS retries with a smaller step.
    return self->system_.residual(t, data(y), data(yp), data(r)) ? 0 : 1;
  });
}

int Integrator::jacobianCallback(double t, double cj, N_Vector y, N_Vector yp, N_Vector, SUNMatrix matrix, void* user,
                                 N_Vector, N_Vector, N_Vector) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the Jacobian", [&] {
    self->system_.prepareJacobian(t, data(y), data(yp), cj);
    self->assembler_->begin(matrix);
    self->system_.writeJacobian(cj, *self->assembler_);
    const bool structureChanged = self->assembler_->takeStructureChange();
    if (self->kluSolver_) {
      // KLU refactors with the pivot order of its previous factorisation. Contact stiffness changes so much
      // between Jacobians that the old pivots can be bad: a 4×4×4 pile of spheres failed at t = 0.04 with
      // repeated corrector failures. So after a Newton failure — and when coupling blocks added or set aside
      // changed the structure — KLU analyses and factorises afresh, with new pivots.
      long failures = 0;
      checkSundials(IDAGetNumNonlinSolvConvFails(self->idas_.get(), &failures), "IDAGetNumNonlinSolvConvFails");
      const bool newtonFailed = failures != self->convergenceFailuresAtJacobian_;
      self->convergenceFailuresAtJacobian_ = failures;
      if (structureChanged || newtonFailed) {
        if (SUNLinSol_KLUReInit(self->kluSolver_, matrix, SUNSparseMatrix_NNZ(matrix), SUNKLU_REINIT_PARTIAL) != 0) {
          throw std::runtime_error("KLU could not take the Jacobian structure");
        }
        ++self->sparseAnalyses_;
      }
    }
    return 0;
  });
}

bool Integrator::setUpIterationBlocks(double t, const double* y, const double* yp, double cj) {
  system_.prepareJacobian(t, y, yp, cj);
  iterationBlocks_->begin();
  system_.writeJacobian(cj, *iterationBlocks_);
  setupCj_ = cj;
  return iterationBlocks_->factoriseDiagonalBlocks();
}

int Integrator::preconditionerSetupCallback(double t, N_Vector y, N_Vector yp, N_Vector, double cj, void* user) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the preconditioner set-up", [&] {
    // A singular body block is recoverable: IDAS retries with another step size (another cj).
    return self->setUpIterationBlocks(t, data(y), data(yp), cj) ? 0 : 1;
  });
}

int Integrator::preconditionerSolveCallback(double, N_Vector, N_Vector, N_Vector, N_Vector rhs, N_Vector z, double,
                                            double, void* user) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the preconditioner", [&] {
    self->iterationBlocks_->solveDiagonalBlocks(data(rhs), data(z));
    return 0;
  });
}

int Integrator::jacobianTimesCallback(double t, N_Vector y, N_Vector yp, N_Vector, N_Vector v, N_Vector jv, double cj,
                                      void* user, N_Vector, N_Vector) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the Jacobian product", [&] {
    if (!self->setupCj_ && !self->setUpIterationBlocks(t, data(y), data(yp), cj)) return 1;
    N_VConst(0.0, jv);
    self->iterationBlocks_->multiplyAdd(1.0, data(v), data(jv));
    if (cj != *self->setupCj_) self->system_.multiplyAddRateJacobian(cj - *self->setupCj_, data(v), data(jv));
    return 0;
  });
}

int Integrator::rootCallback(double t, N_Vector y, N_Vector yp, double* g, void* user) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("a root function", [&] {
    self->system_.rootFunctions(t, data(y), data(yp), g);
    return 0;
  });
}

int Integrator::energyRatesCallback(double t, N_Vector y, N_Vector yp, N_Vector rates, void* user) {
  auto* self = static_cast<Integrator*>(user);
  return self->guarded("the energy balance", [&] {
    self->system_.energyRates(t, data(y), data(yp), data(rates));
    return 0;
  });
}

void Integrator::errorCallback(int code, const char* /*module*/, const char* function, char* message, void* user) {
  auto* self = static_cast<Integrator*>(user);
  const std::string text = message ? message : "";
  std::string line;
  if (code == IDA_WARNING) {
    line = std::string("IDAS warning in ") + function + ": " + text;
  } else {
    self->lastErrorMessage_ = text;
    line = std::string("IDAS error in ") + function + " (" + idasFlagName(code) + "): " + text;
  }
  try {
    if (self->onMessage_) self->onMessage_(line);
  } catch (...) {
    // A log that cannot be written must not unwind through IDAS.
  }
}

}  // namespace lodestone

// A SUNLinearSolver that forwards every operation and times setup (factorisation) and solve.
#include "timed_linear_solver.h"

#include <memory>

#include "stopwatch.h"

namespace lodestone {

namespace {

struct TimedContent {
  SUNLinearSolver solver = nullptr;
  PhaseTimes* times = nullptr;
};

TimedContent& content(SUNLinearSolver solver) { return *static_cast<TimedContent*>(solver->content); }
SUNLinearSolver inner(SUNLinearSolver solver) { return content(solver).solver; }

SUNLinearSolver_Type getType(SUNLinearSolver solver) { return SUNLinSolGetType(inner(solver)); }
SUNLinearSolver_ID getId(SUNLinearSolver solver) { return SUNLinSolGetID(inner(solver)); }
int initialize(SUNLinearSolver solver) { return SUNLinSolInitialize(inner(solver)); }

int setup(SUNLinearSolver solver, SUNMatrix matrix) {
  // An iterative solver's set-up is the preconditioner's, which forms the Jacobian first; that part is already
  // counted as Jacobian time.
  PhaseTimes& times = *content(solver).times;
  const double jacobianBefore = times.jacobian;
  Stopwatch watch;
  const int flag = SUNLinSolSetup(inner(solver), matrix);
  times.linearSetup += watch.lap() - (times.jacobian - jacobianBefore);
  return flag;
}

int solve(SUNLinearSolver solver, SUNMatrix matrix, N_Vector x, N_Vector b, realtype tolerance) {
  ScopedTimer timer(content(solver).times->linearSolve);
  return SUNLinSolSolve(inner(solver), matrix, x, b, tolerance);
}

// The iterative solver's operations, forwarded where the wrapped solver has them.
int setATimes(SUNLinearSolver solver, void* data, SUNATimesFn times) {
  return SUNLinSolSetATimes(inner(solver), data, times);
}
int setPreconditioner(SUNLinearSolver solver, void* data, SUNPSetupFn setup, SUNPSolveFn solve) {
  return SUNLinSolSetPreconditioner(inner(solver), data, setup, solve);
}
int setScalingVectors(SUNLinearSolver solver, N_Vector s1, N_Vector s2) {
  return SUNLinSolSetScalingVectors(inner(solver), s1, s2);
}
int setZeroGuess(SUNLinearSolver solver, booleantype zero) { return SUNLinSolSetZeroGuess(inner(solver), zero); }
int numIterations(SUNLinearSolver solver) { return SUNLinSolNumIters(inner(solver)); }
realtype residualNorm(SUNLinearSolver solver) { return SUNLinSolResNorm(inner(solver)); }
N_Vector residual(SUNLinearSolver solver) { return SUNLinSolResid(inner(solver)); }

sunindextype lastFlag(SUNLinearSolver solver) { return SUNLinSolLastFlag(inner(solver)); }
int space(SUNLinearSolver solver, long* real, long* integer) { return SUNLinSolSpace(inner(solver), real, integer); }

int freeTimed(SUNLinearSolver solver) {
  if (solver == nullptr) return SUNLS_SUCCESS;
  if (solver->content != nullptr) {
    TimedContent* c = static_cast<TimedContent*>(solver->content);
    SUNLinSolFree(c->solver);
    delete c;
    solver->content = nullptr;
  }
  SUNLinSolFreeEmpty(solver);
  return SUNLS_SUCCESS;
}

}  // namespace

LinearSolverPtr makeTimedLinearSolver(LinearSolverPtr solver, PhaseTimes& times) {
  auto timedContent = std::make_unique<TimedContent>();
  timedContent->times = &times;
  LinearSolverPtr timed(checkCreated(SUNLinSolNewEmpty(solver->sunctx), "SUNLinSolNewEmpty"));
  timed->ops->gettype = getType;
  timed->ops->getid = getId;
  timed->ops->initialize = initialize;
  timed->ops->setup = setup;
  timed->ops->solve = solve;
  timed->ops->lastflag = lastFlag;
  timed->ops->space = space;
  timed->ops->free = freeTimed;
  const SUNLinearSolver_Ops wrapped = solver->ops;
  if (wrapped->setatimes) timed->ops->setatimes = setATimes;
  if (wrapped->setpreconditioner) timed->ops->setpreconditioner = setPreconditioner;
  if (wrapped->setscalingvectors) timed->ops->setscalingvectors = setScalingVectors;
  if (wrapped->setzeroguess) timed->ops->setzeroguess = setZeroGuess;
  if (wrapped->numiters) timed->ops->numiters = numIterations;
  if (wrapped->resnorm) timed->ops->resnorm = residualNorm;
  if (wrapped->resid) timed->ops->resid = residual;
  timedContent->solver = solver.release();
  timed->content = timedContent.release();
  return timed;
}

}  // namespace lodestone

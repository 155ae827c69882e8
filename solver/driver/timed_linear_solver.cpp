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
  ScopedTimer timer(content(solver).times->linearSetup);
  return SUNLinSolSetup(inner(solver), matrix);
}

int solve(SUNLinearSolver solver, SUNMatrix matrix, N_Vector x, N_Vector b, realtype tolerance) {
  ScopedTimer timer(content(solver).times->linearSolve);
  return SUNLinSolSolve(inner(solver), matrix, x, b, tolerance);
}

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
  timedContent->solver = solver.release();
  timed->content = timedContent.release();
  return timed;
}

}  // namespace lodestone

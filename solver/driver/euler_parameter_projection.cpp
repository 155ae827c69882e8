// A SUNNonlinearSolver that forwards to Newton and then renormalises Euler parameters in the correction.
#include "euler_parameter_projection.h"

#include <algorithm>
#include <cmath>
#include <memory>

#include <nvector/nvector_serial.h>
#include <sunnonlinsol/sunnonlinsol_newton.h>

namespace lodestone {

namespace {

struct ProjectionContent {
  SUNNonlinearSolver newton = nullptr;
  std::vector<int> offsets;
  ProjectionStatistics statistics;
};

ProjectionContent& content(SUNNonlinearSolver solver) { return *static_cast<ProjectionContent*>(solver->content); }
SUNNonlinearSolver inner(SUNNonlinearSolver solver) { return content(solver).newton; }

SUNNonlinearSolver_Type getType(SUNNonlinearSolver solver) { return SUNNonlinSolGetType(inner(solver)); }
int initialize(SUNNonlinearSolver solver) { return SUNNonlinSolInitialize(inner(solver)); }
int setup(SUNNonlinearSolver solver, N_Vector y, void* memory) { return SUNNonlinSolSetup(inner(solver), y, memory); }

int solve(SUNNonlinearSolver solver, N_Vector predicted, N_Vector correction, N_Vector weights, realtype tolerance,
          booleantype callLinearSetup, void* memory) {
  // Newton's update vector, cleared first: a solve that fails before its first update (the iteration matrix could not
  // be factorised) leaves it zero instead of the last solve's.
  const N_Vector update = static_cast<SUNNonlinearSolverContent_Newton>(inner(solver)->content)->delta;
  N_VConst(0.0, update);
  const int flag =
      SUNNonlinSolSolve(inner(solver), predicted, correction, weights, tolerance, callLinearSetup, memory);
  ProjectionContent& c = content(solver);
  if (flag != SUN_NLS_SUCCESS) {
    // Newton's last update, not the correction: IDAS's Newton sets the correction back to zero when it gives up.
    const double* delta = N_VGetArrayPointer(update);
    const double* weight = N_VGetArrayPointer(weights);
    const long size = N_VGetLength(update);
    long worst = 0;
    for (long i = 1; i < size; ++i) {
      if (std::abs(delta[i] * weight[i]) > std::abs(delta[worst] * weight[worst])) worst = i;
    }
    ++c.statistics.failures;
    const bool updated = size > 0 && delta[worst] != 0;
    c.statistics.failedVariable = updated ? worst : kNoNewtonUpdate;
    c.statistics.failedWeightedCorrection = updated ? delta[worst] * weight[worst] : 0.0;
    return flag;
  }

  const double* y0 = N_VGetArrayPointer(predicted);
  double* ycor = N_VGetArrayPointer(correction);
  for (int offset : c.offsets) {
    double e[4];
    double squaredNorm = 0;
    for (int k = 0; k < 4; ++k) {
      e[k] = y0[offset + k] + ycor[offset + k];
      squaredNorm += e[k] * e[k];
    }
    const double norm = std::sqrt(squaredNorm);
    // A vanishing or non-finite e cannot be a rotation: ask IDAS to retry with a smaller step.
    if (!(norm > 1e-3) || !std::isfinite(norm)) return SUN_NLS_CONV_RECVR;
    double change = 0;
    for (int k = 0; k < 4; ++k) {
      const double delta = e[k] / norm - e[k];
      ycor[offset + k] += delta;
      change += delta * delta;
    }
    c.statistics.largestCorrection = std::max(c.statistics.largestCorrection, std::sqrt(change));
  }
  ++c.statistics.projections;
  return flag;
}

int freeProjection(SUNNonlinearSolver solver) {
  if (solver == nullptr) return SUN_NLS_SUCCESS;
  if (solver->content != nullptr) {
    ProjectionContent* c = static_cast<ProjectionContent*>(solver->content);
    SUNNonlinSolFree(c->newton);
    delete c;
    solver->content = nullptr;
  }
  SUNNonlinSolFreeEmpty(solver);
  return SUN_NLS_SUCCESS;
}

int setSystemFunction(SUNNonlinearSolver solver, SUNNonlinSolSysFn function) {
  return SUNNonlinSolSetSysFn(inner(solver), function);
}
int setLinearSetup(SUNNonlinearSolver solver, SUNNonlinSolLSetupFn function) {
  return SUNNonlinSolSetLSetupFn(inner(solver), function);
}
int setLinearSolve(SUNNonlinearSolver solver, SUNNonlinSolLSolveFn function) {
  return SUNNonlinSolSetLSolveFn(inner(solver), function);
}
int setConvergenceTest(SUNNonlinearSolver solver, SUNNonlinSolConvTestFn function, void* data) {
  return SUNNonlinSolSetConvTestFn(inner(solver), function, data);
}
int setMaxIterations(SUNNonlinearSolver solver, int iterations) {
  return SUNNonlinSolSetMaxIters(inner(solver), iterations);
}
int getIterations(SUNNonlinearSolver solver, long* iterations) {
  return SUNNonlinSolGetNumIters(inner(solver), iterations);
}
int getCurrentIteration(SUNNonlinearSolver solver, int* iteration) {
  return SUNNonlinSolGetCurIter(inner(solver), iteration);
}
int getConvergenceFailures(SUNNonlinearSolver solver, long* failures) {
  return SUNNonlinSolGetNumConvFails(inner(solver), failures);
}

}  // namespace

NonlinearSolverPtr makeEulerParameterProjection(NonlinearSolverPtr newton, std::vector<int> eulerParameterOffsets) {
  auto projectionContent = std::make_unique<ProjectionContent>();
  projectionContent->offsets = std::move(eulerParameterOffsets);
  NonlinearSolverPtr solver(checkCreated(SUNNonlinSolNewEmpty(newton->sunctx), "SUNNonlinSolNewEmpty"));
  solver->ops->gettype = getType;
  solver->ops->initialize = initialize;
  solver->ops->setup = setup;
  solver->ops->solve = solve;
  solver->ops->free = freeProjection;
  solver->ops->setsysfn = setSystemFunction;
  solver->ops->setlsetupfn = setLinearSetup;
  solver->ops->setlsolvefn = setLinearSolve;
  solver->ops->setctestfn = setConvergenceTest;
  solver->ops->setmaxiters = setMaxIterations;
  solver->ops->getnumiters = getIterations;
  solver->ops->getcuriter = getCurrentIteration;
  solver->ops->getnumconvfails = getConvergenceFailures;
  projectionContent->newton = newton.release();
  solver->content = projectionContent.release();
  return solver;
}

ProjectionStatistics projectionStatistics(SUNNonlinearSolver projection) { return content(projection).statistics; }

}  // namespace lodestone

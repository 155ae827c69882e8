// Keeps every body's Euler parameters at unit length in the integrator's own state, not just in the output.
//
// IDAS has no projection hook, but every step ends in a nonlinear solve whose result is y = ypredict + ycor
// (the SUNNonlinearSolver contract: Solve receives the predictor y0 and returns the correction ycor, and IDAS
// then sets y = y0 + ycor, y' = y'predict + cj·ycor). This wrapper runs SUNDIALS' Newton solver and, once it has
// converged, adds to ycor the change that renormalises each body's Euler parameters. Because the change goes
// into the correction, IDAS treats it as part of the step: y' stays the exact BDF derivative of the projected
// y, the error test sees it, and the history IDAS predicts from is the projected state. That is the same
// projection CVODE offers through CVodeSetProjFn, done at the one place IDAS lets us in.
//
// The continuous equations keep |e| = 1 exactly (eᵀ·Q(e) = 0), so the change is of the order of the local
// error; it only stops the drift from accumulating over long runs.
#pragma once

#include <vector>

#include <sundials/sundials_nonlinearsolver.h>

#include "sundials_check.h"

namespace lodestone {

// Wraps `newton` (ownership passes to the wrapper); `eulerParameterOffsets` are the state indices of each
// body's e0 (e1…e3 follow).
NonlinearSolverPtr makeEulerParameterProjection(NonlinearSolverPtr newton, std::vector<int> eulerParameterOffsets);

// failedVariable of a solve that failed before Newton's first update: its iteration matrix could not be factorised, or
// the residual was not finite.
constexpr long kNoNewtonUpdate = -2;

// How many projections have been applied, and the largest change |Δe| any one made.
struct ProjectionStatistics {
  long projections = 0;
  double largestCorrection = 0;
  // Newton's latest failure to converge: the entry of its last correction largest against the error weights (-1:
  // none yet; kNoNewtonUpdate: it failed before an update) and that weighted size (1 is the tolerance's): the variable
  // Newton could not settle.
  long failedVariable = -1;
  double failedWeightedCorrection = 0;
  // Solves that failed as a whole, each recorded as above. (IDAS's count of convergence failures is larger: it also
  // counts a stale matrix's failure that Newton recovered from at once with a fresh one.)
  long failures = 0;
};
ProjectionStatistics projectionStatistics(SUNNonlinearSolver projection);

}  // namespace lodestone

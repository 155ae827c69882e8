// Wraps a SUNLinearSolver (direct or iterative) so the run log can say how long factorisation and substitution took, which
// SUNDIALS does not measure itself.
#pragma once

#include "solver/output/run_statistics.h"
#include "sundials_check.h"

namespace lodestone {

// Ownership of `solver` passes to the wrapper; `times` must outlive it.
LinearSolverPtr makeTimedLinearSolver(LinearSolverPtr solver, PhaseTimes& times);

}  // namespace lodestone

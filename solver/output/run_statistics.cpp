// Arithmetic on run statistics, so per-segment and cumulative figures come from the same counters.
#include "run_statistics.h"

#include <algorithm>

namespace lodestone {

SolverStatistics& SolverStatistics::operator+=(const SolverStatistics& other) {
  steps += other.steps;
  residualEvaluations += other.residualEvaluations;
  jacobianEvaluations += other.jacobianEvaluations;
  linearSolverSetups += other.linearSolverSetups;
  linearIterations += other.linearIterations;
  nonlinearIterations += other.nonlinearIterations;
  errorTestFailures += other.errorTestFailures;
  nonlinearConvergenceFailures += other.nonlinearConvergenceFailures;
  rootEvaluations += other.rootEvaluations;
  restarts += other.restarts;
  magnetPairsDifferenced += other.magnetPairsDifferenced;
  farMagnetPairsLeftOut += other.farMagnetPairsLeftOut;
  softMagnetBlocksWritten += other.softMagnetBlocksWritten;
  softMagnetBlocksLeftOut += other.softMagnetBlocksLeftOut;
  couplingBlocksRetired += other.couplingBlocksRetired;
  sparseAnalyses += other.sparseAnalyses;
  return *this;
}

SolverStatistics operator-(SolverStatistics later, const SolverStatistics& earlier) {
  later.steps -= earlier.steps;
  later.residualEvaluations -= earlier.residualEvaluations;
  later.jacobianEvaluations -= earlier.jacobianEvaluations;
  later.linearSolverSetups -= earlier.linearSolverSetups;
  later.linearIterations -= earlier.linearIterations;
  later.nonlinearIterations -= earlier.nonlinearIterations;
  later.errorTestFailures -= earlier.errorTestFailures;
  later.nonlinearConvergenceFailures -= earlier.nonlinearConvergenceFailures;
  later.rootEvaluations -= earlier.rootEvaluations;
  later.restarts -= earlier.restarts;
  later.magnetPairsDifferenced -= earlier.magnetPairsDifferenced;
  later.farMagnetPairsLeftOut -= earlier.farMagnetPairsLeftOut;
  later.softMagnetBlocksWritten -= earlier.softMagnetBlocksWritten;
  later.softMagnetBlocksLeftOut -= earlier.softMagnetBlocksLeftOut;
  later.couplingBlocksRetired -= earlier.couplingBlocksRetired;
  later.sparseAnalyses -= earlier.sparseAnalyses;
  return later;
}

double PhaseTimes::integratorOther() const {
  return std::max(0.0, integrator - residual() - jacobian - linearSetup - linearSolve - sensors - energy);
}

}  // namespace lodestone

// Integrates a model with a given linear solver, for tests that compare the solvers on the same motion.
#pragma once

#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/simulation.h"

namespace lodestone::testing {

struct SolverRun {
  std::vector<double> state;     // at the end time
  SolverStatistics statistics;
};

// From 0 to `endTime`, output every `printInterval`, on `threads` threads; the run must complete with the solver
// asked for.
inline SolverRun integrateWith(Model model, LinearSolverKind solver, double endTime, double printInterval,
                               int threads = 1) {
  SimulationOptions options;
  options.integrator.linearSolver = solver;
  options.threads = threads;
  Simulation simulation(std::move(model), options);
  EXPECT_EQ(simulation.linearSolver(), solver);
  EXPECT_EQ(simulation.threads(), threads);
  const SegmentOutcome outcome = simulation.run({{}, 0.0, endTime, printInterval});
  EXPECT_TRUE(outcome.completed) << describeLinearSolver(solver) << ": " << outcome.reason;
  return {{simulation.state().begin(), simulation.state().end()}, simulation.statistics()};
}

}  // namespace lodestone::testing

// A pile of spheres couples every body to its neighbours through contact, which the linear solvers must take:
// KLU once failed a 4×4×4 pile at its first impacts (refactoring with stale pivots), and GMRES, used for large
// piles, must integrate the same motion as KLU.
#include <gtest/gtest.h>

#include "benchmark/pile_deck.h"
#include "elements/model_builder.h"
#include "solver/xml/deck_reader.h"
#include "support/solver_runs.h"

namespace lodestone {
namespace {

Model pile(int count) {
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeckText(benchmark::pileDeck(count, false), "pile.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) throw std::runtime_error(diagnostics.formatAll());
  return std::move(*model);
}

std::vector<double> runPile(LinearSolverKind solver, double endTime) {
  return testing::integrateWith(pile(64), solver, endTime, 0.01).state;
}

TEST(ContactPile, TwoThreadsIntegrateTheSameMotionBitForBitAsOne) {
  // The contact Jacobian's pairs are differenced on both threads and summed in pair order afterwards, and GMRES's
  // products and inversions share the 64 bodies' blocks out with each element summed by one thread in pattern order,
  // so the run does not depend on how the work was shared out: the same steps and the same state to the last bit.
  for (const LinearSolverKind solver : {LinearSolverKind::SparseKlu, LinearSolverKind::Krylov}) {
    const testing::SolverRun one = testing::integrateWith(pile(64), solver, 0.06, 0.01, 1);
    const testing::SolverRun two = testing::integrateWith(pile(64), solver, 0.06, 0.01, 2);
    EXPECT_EQ(one.statistics.steps, two.statistics.steps) << describeLinearSolver(solver);
    EXPECT_EQ(one.statistics.jacobianEvaluations, two.statistics.jacobianEvaluations);
    EXPECT_GT(one.statistics.jacobianEvaluations, 10);
    EXPECT_EQ(one.state, two.state) << describeLinearSolver(solver);
  }
}

TEST(ContactPile, KluAndGmresCarryA64SpherePileThroughItsFirstImpacts) {
  // The bottom layer lands at about 0.032 s; by 0.08 s every layer has hit the one below.
  const std::vector<double> klu = runPile(LinearSolverKind::SparseKlu, 0.08);
  const std::vector<double> gmres = runPile(LinearSolverKind::Krylov, 0.08);
  ASSERT_EQ(klu.size(), gmres.size());
  // Same equations, different linear solves and so different steps: positions agree to what integr_tol 1e-3
  // allows in a pile whose impacts amplify differences (measured: 3.5e-5 m at most; bound 0.2 mm, 2% of a
  // sphere's radius).
  for (int body = 0; body < 64; ++body) {
    for (int k = 0; k < 3; ++k) {
      EXPECT_NEAR(klu[static_cast<size_t>(13 * body + k)], gmres[static_cast<size_t>(13 * body + k)], 2e-4)
          << "body " << body << " coordinate " << k;
    }
  }
}

}  // namespace
}  // namespace lodestone

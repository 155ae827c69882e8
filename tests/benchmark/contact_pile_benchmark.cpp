// A pile of N spheres dropped into a box, all in ONE Force_Contact (every sphere listed as I and as J, the box
// walls as J): 1 s of simulated time. Prints wall time, steps, residual and Jacobian evaluations, contact events
// and peak memory, with zero crossing on (contact events located and IDAS restarted at each) and off.
//
//   contact_pile_benchmark [N ...]     (default: N = 100 1000; PILE_ZERO_CROSSING=TRUE|FALSE runs one case,
//                                       PILE_END_TIME=t simulates t seconds instead of 1 for profiling,
//                                       PILE_LINEAR_SOLVER=DENSE|KLU|KRYLOV overrides the choice by size)
//
// Measured on the 2-core development VM (RelWithDebInfo, IMPACT + COULOMB_ON, integr_tol 1e-3, 1 s simulated):
//   N=50,   zero_crossing FALSE, KLU:     1.5 s,  3632 steps,  7132 residuals,   704 Jacobians, 23 MB
//   N=50,   zero_crossing FALSE, GMRES:   1.9 s,  3636 steps,  7118 residuals,   719 Jacobians, 15801 Krylov its
//   N=100,  zero_crossing FALSE, KLU:     7.3 s,  4574 steps,  9351 residuals,  1072 Jacobians, 29 MB
//   N=100,  zero_crossing FALSE, GMRES:   5.6 s,  4601 steps,  9442 residuals,  1112 Jacobians, 22 MB
//   N=100,  zero_crossing TRUE,  KLU:    40.3 s, 12605 steps, 19418 residuals,  6545 Jacobians, 29 MB
//                                        (2004 events located; each restarts IDAS and costs a fresh Jacobian)
//   N=1000, zero_crossing FALSE, GMRES:  169 s,   9748 steps, 21852 residuals,  3928 Jacobians, 50 MB
//   N=1000, zero_crossing TRUE,  GMRES: 1429 s,  64641 steps, 82413 residuals, 33687 Jacobians, 47 MB
//                                        (22114 events located; contact detection 599 s, Jacobians 526 s)
//   N=1000 with KLU: did not finish 0.3 s in 15 minutes (70% of the time in KLU factorisation).
// Sensors and DebugOutput added a test or two per step when they are off: N=1000, zero_crossing FALSE, 0.3 s,
// GMRES: 184.8 s before them, 167.8 s after (ratio 0.91, run-to-run noise; the same 7817 steps, 17662 residuals
// and 3454 Jacobians).
// The step bound against tunnelling (ContactStepLimit: one swept look at the close pairs before every step), measured
// before and after on the same loaded VM (Release, zero_crossing FALSE): N=100, 1 s: 18.1 s, 4677 steps, contact
// detection 1.5 s before; 15.6 s, 4321 steps, 1.9 s after. N=1000, 0.1 s: 42.3 s, 2429 steps, 12.4 s before;
// 35.8 s, 2433 steps, 12.3 s after. N=100 zero_crossing TRUE: 12605 steps before, 12374 after.
// The energy balance (its powers, once per step: a detection that the step's contact bookkeeping then reuses, and the
// contacts' forces; and its held energies at each output), on the same VM under a shared load: N=100, zero_crossing
// FALSE, KLU: 0.94-1.03 s of 23-24 s wall, user CPU 10.15 -> 10.21 s; N=1000 for 0.1 s, GMRES: 2.7 s of 29 s while
// contact detection fell by 1.9 s, user CPU 18.9 -> 19.3 s; N=50, zero_crossing TRUE: 0.48 s of 10.6 s, user CPU
// 6.16 -> 6.41 s. The same steps, residuals and Jacobians as without it.
// The impact recorder (impacts.csv and contacts.csv's interval extrema: one look at the touching pairs' forces per
// accepted step), its own time in the line above, Release on the 2-core VM: N=100, zero_crossing FALSE, KLU: 0.143 s
// of 4.95 s (2.9 %, 817 episodes); TRUE: 0.538 s of 24.3 s (2.2 %); N=1000 for 0.1 s, GMRES: 0.527 s of 18.6 s
// (2.8 %). The same steps, residuals and Jacobians as without it (4321, 9008, 1040 at N=100).
// Detection once per step rather than per residual (the broad phase's pairs kept while no graphic has left its box
// grown by a tenth, VerletList; the step limit takes its pairs from the same list), Release on the same VM under a
// shared load, before -> after: N=100, zero_crossing FALSE: contact detection 0.34 -> 0.23 s, user CPU 3.22 -> 2.97 s;
// TRUE: detection 2.82 -> 1.09 s, step limit 1.49 -> 0.73 s, user CPU 12.1 -> 9.4 s; N=1000 for 0.1 s: detection
// 5.70 -> 1.36 s, step limit 2.56 -> 0.90 s, energy balance 2.57 -> 0.76 s, wall 29.8 -> 21.4 s, user CPU 18.8 ->
// 14.2 s. The same steps, residuals, Jacobians and contact events (4350/8874/1063, 12359/18931/6426 and
// 2433/5525/1031).
// Per step the cost grows linearly (1.6 ms at N=100 with KLU, 17 ms at N=1000 with GMRES); the number of
// steps grows because a bigger pile has more impacts for one global step size to resolve.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "deck_model.h"
#include "pile_deck.h"
#include "solver/core/text.h"
#include "solver/driver/simulation.h"

using namespace lodestone;
using lodestone::benchmark::pileDeck;

namespace {

long peakMemoryKilobytes() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return usage.ru_maxrss;
}

double endTime() {
  const char* text = std::getenv("PILE_END_TIME");
  return text ? std::atof(text) : 1.0;
}

void runPile(int count, bool zeroCrossing) {
  Model model = benchmark::modelOfDeck(pileDeck(count, zeroCrossing), "pile.xml");
  SimulationOptions options;
  options.integrator.linearSolver = benchmark::linearSolverFromEnvironment("PILE_LINEAR_SOLVER");
  Simulation simulation(std::move(model), options);
  long onsets = 0, separations = 0, located = 0;
  simulation.setContactEventHandler([&](const ContactEvent& event) {
    (event.onset ? onsets : separations) += 1;
    located += event.located ? 1 : 0;
  });
  long episodes = 0;
  simulation.setImpactHandler([&](const ImpactEpisode&) { ++episodes; });
  const auto [outcome, seconds] = benchmark::runTimed(simulation, endTime());
  const SolverStatistics s = simulation.statistics();
  const PhaseTimes& t = simulation.times();
  std::printf("N=%5d t_end=%g zero_crossing=%-5s %s  %s  wall %8.3f s  steps %6ld  residuals %7ld  jacobians %5ld  linear iterations %7ld  error-test/Newton failures %ld/%ld  "
              "events %6ld onsets / %6ld separations (%ld located)  contact detection %.3f s  step limit %.3f s  forces %.3f s  "
              "jacobian %.3f s  factorisation %.3f s  solves %.3f s  energy balance %.3f s  impact recording %.3f s "
              "(%ld episodes)  integrator other %.3f s  output %.3f s  peak memory %ld MB\n",
              count, endTime(), zeroCrossing ? "TRUE" : "FALSE", outcome.completed ? "completed" : "FAILED   ",
              describeLinearSolver(simulation.linearSolver()), seconds, s.steps,
              s.residualEvaluations, s.jacobianEvaluations, s.linearIterations, s.errorTestFailures, s.nonlinearConvergenceFailures, onsets, separations, located, t.contactDetection, t.contactStepLimit,
              t.forces, t.jacobian, t.linearSetup, t.linearSolve, t.energy, t.impacts, episodes,
              t.integratorOther(), t.output,
              peakMemoryKilobytes() / 1024);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> counts = benchmark::pileCounts(argc, argv);
  const char* only = std::getenv("PILE_ZERO_CROSSING");  // "TRUE" or "FALSE" runs only that case
  for (int count : counts) {
    if (!only || std::string(only) == "TRUE") runPile(count, true);
    if (!only || std::string(only) == "FALSE") runPile(count, false);
  }
  return 0;
}

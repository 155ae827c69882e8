// What a run measured about itself — integrator counters and time by phase — as plain data: the driver fills
// it, the run log prints it.
#pragma once

namespace lodestone {

struct SolverStatistics {
  long steps = 0;
  long residualEvaluations = 0;
  long jacobianEvaluations = 0;
  long linearSolverSetups = 0;
  long linearIterations = 0;  // Krylov iterations (GMRES); 0 with a direct solver
  long nonlinearIterations = 0;
  long errorTestFailures = 0;
  long nonlinearConvergenceFailures = 0;
  long rootEvaluations = 0;  // of the sensors' root functions, and the pair distances that locate contact crossings
  long restarts = 0;         // of IDAS after its start: at located contact events, at sensors that ask for one
  // Magnet pairs over the Jacobians: differenced, and far ones left to the residual (farMagnetPairCoupling).
  long magnetPairsDifferenced = 0;
  long farMagnetPairsLeftOut = 0;
  // Blocks between two bodies of the induced magnets over the Jacobians, new to the pattern: written, and weak ones
  // left to the residual (MultibodySystem::writeManyBodyBlocks).
  long softMagnetBlocksWritten = 0;
  long softMagnetBlocksLeftOut = 0;
  // Coupling blocks set aside from the iteration matrix's pattern once idle (MultibodySystem::retireIdleCouplings),
  // and the sparse LU's fresh analyses (of a changed structure, or after a Newton failure).
  long couplingBlocksRetired = 0;
  long sparseAnalyses = 0;

  SolverStatistics& operator+=(const SolverStatistics& other);
  friend SolverStatistics operator-(SolverStatistics later, const SolverStatistics& earlier);
};

// Seconds spent in each phase, read from a steady wall clock: the solver is single-threaded, so on an idle
// machine this is its CPU time, and the clock is cheap enough to read around every residual stage. On a busy
// machine preemption lands in whichever phase was running; `processCpu` is then the figure to trust.
struct PhaseTimes {
  double parse = 0;
  double build = 0;
  // The residual, stage by stage, as it reads: kinematics, contact detection, forces (contact forces
  // included), then assembly of body equations.
  double kinematics = 0;
  double contactDetection = 0;
  double forces = 0;
  double assembly = 0;
  long residualCalls = 0;
  double jacobian = 0;
  long jacobianCalls = 0;
  double linearSetup = 0;  // factorisation
  double linearSolve = 0;  // forward and back substitution
  double sensors = 0;      // Sensor_Event expressions in root functions
  double energy = 0;       // the energy balance's rates, once per step (energy.csv's held terms count as output)
  double contactStepLimit = 0;  // the guard against tunnelling, once before each step (outside IDAS's calls)
  double impacts = 0;      // the impact recorder's look at the pairs in contact, once per step (impacts.csv)
  double integrator = 0;   // everything spent inside IDAS calls, including the phases above
  double output = 0;
  double total = 0;
  double processCpu = 0;   // CPU time the process used over the same span (std::clock)

  double residual() const { return kinematics + contactDetection + forces + assembly; }
  // IDAS's own work: prediction, error test, step-size and order selection, vector operations.
  double integratorOther() const;
};

}  // namespace lodestone

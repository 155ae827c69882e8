// A chain of N links on REVOLUTE joints (the first to ground), released straight out along x and falling under
// gravity: how the cost of a step grows with the number of joints. Each link is 0.1 m long, 0.1 kg, a slender rod
// about its CG; the joint axes are ground z and gravity is −y, so the chain swings in the x-y plane (no loops: no
// redundant equations). 5 equations per joint, so the DAE holds 13 body states and 10 multipliers per link.
// Prints wall and CPU time, steps, residual and Jacobian evaluations, error-test and Newton failures, CPU time per
// step per body and per simulated second, and where the time went; asserts nothing.
//
//   joint_chain_benchmark [--tol 1e-3] [--end 1] [N ...]     (default: N = 10 100 1000; for N ≥ 1000 the end time is
//                                                             capped at --end-large, default 0.1 s)
#include <algorithm>
#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "deck_model.h"
#include "solver/core/text.h"
#include "solver/driver/simulation.h"

using namespace lodestone;

namespace {

constexpr double kLinkLength = 0.1, kLinkMass = 0.1;

std::string chainDeck(int count, double tolerance) {
  std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Force_Gravity grav_x=\"0\" grav_y=\"-9.81\" grav_z=\"0\"/>\n"
      "<Param_Transient integr_tol=\"" + formatReal(tolerance) + "\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n";
  const double rod = kLinkMass * kLinkLength * kLinkLength / 12;
  for (int i = 0; i < count; ++i) {
    const long body = i + 2;
    const long cg = 1000 * body, head = cg + 1, tail = cg + 2;  // CG, joint to the previous link, joint to the next
    const double start = i * kLinkLength;
    deck += "<Reference_Marker id=\"" + std::to_string(cg) + "\" body_id=\"" + std::to_string(body) + "\" pos_x=\"" +
            formatReal(start + kLinkLength / 2) + "\"/>\n";
    deck += "<Reference_Marker id=\"" + std::to_string(head) + "\" body_id=\"" + std::to_string(body) +
            "\" pos_x=\"" + formatReal(start) + "\"/>\n";
    deck += "<Reference_Marker id=\"" + std::to_string(tail) + "\" body_id=\"" + std::to_string(body) +
            "\" pos_x=\"" + formatReal(start + kLinkLength) + "\"/>\n";
    deck += "<Body_Rigid id=\"" + std::to_string(body) + "\" cg_id=\"" + std::to_string(cg) + "\" mass=\"" +
            formatReal(kLinkMass) + "\" inertia_xx=\"" + formatReal(rod / 100) + "\" inertia_yy=\"" + formatReal(rod) +
            "\" inertia_zz=\"" + formatReal(rod) + "\"/>\n";
    const long previous = i == 0 ? 10 : 1000 * (body - 1) + 2;
    deck += "<Constraint_Joint id=\"" + std::to_string(body) + "\" type=\"REVOLUTE\" i_marker_id=\"" +
            std::to_string(head) + "\" j_marker_id=\"" + std::to_string(previous) + "\"/>\n";
  }
  return deck + "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>"
                "</Command></MultiBodySystem>\n";
}

struct Figures {
  bool completed = false;
  double wallSeconds = 0;
  double cpuSeconds = 0;  // the process's CPU time over the run: what to trust on a busy machine
  double endTime = 0;
  SolverStatistics statistics;
  PhaseTimes times;
  std::string solver;
};

Figures runChain(int count, double tolerance, double endTime) {
  Model model = benchmark::modelOfDeck(chainDeck(count, tolerance), "chain.xml");
  Simulation simulation(std::move(model), SimulationOptions{});
  SimulationSegment segment;
  segment.startTime = 0;
  segment.endTime = endTime;
  segment.printInterval = 0.01;
  const auto start = std::chrono::steady_clock::now();
  const std::clock_t cpuStart = std::clock();
  const SegmentOutcome outcome = simulation.run(segment);
  Figures f;
  f.wallSeconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  f.cpuSeconds = static_cast<double>(std::clock() - cpuStart) / CLOCKS_PER_SEC;
  f.completed = outcome.completed;
  if (!outcome.completed) std::fprintf(stderr, "N=%d failed: %s\n", count, outcome.reason.c_str());
  f.endTime = endTime;
  f.statistics = simulation.statistics();
  f.times = simulation.times();
  f.solver = describeLinearSolver(simulation.linearSolver());
  return f;
}

}  // namespace

int main(int argc, char** argv) {
  double tolerance = 1e-3, endTime = 1.0, endTimeLarge = 0.1;
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--tol" && i + 1 < argc) {
      tolerance = std::atof(argv[++i]);
    } else if (argument == "--end" && i + 1 < argc) {
      endTime = std::atof(argv[++i]);
    } else if (argument == "--end-large" && i + 1 < argc) {
      endTimeLarge = std::atof(argv[++i]);
    } else {
      counts.push_back(std::atoi(argument.c_str()));
    }
  }
  if (counts.empty()) counts = {10, 100, 1000};

  std::printf("revolute chain falling from horizontal, integr_tol %.0e, output every 0.01 s\n", tolerance);
  std::printf("%6s %-14s %6s %9s %8s %10s %6s %7s %6s %5s %5s %12s %9s   %8s %8s %8s %8s\n", "links", "solver",
              "t_end", "wall [s]", "cpu [s]", "cpu/sim s", "steps", "res", "jac", "etf", "ncf", "us/step/body",
              "ms/step", "res [s]", "jac [s]", "fact [s]", "solve [s]");
  double previousPerStep = 0;
  int previousCount = 0;
  for (int count : counts) {
    const double end = count >= 1000 ? std::min(endTime, endTimeLarge) : endTime;
    const Figures f = runChain(count, tolerance, end);
    // Per step and per simulated second from the CPU time (the wall time includes other processes' turns).
    const double perStep = f.cpuSeconds / static_cast<double>(std::max(1L, f.statistics.steps));
    std::printf("%6d %-14s %6.3f %9.3f %8.3f %10.3f %6ld %7ld %6ld %5ld %5ld %12.3f %9.3f   %8.3f %8.3f %8.3f %8.3f%s\n",
                count, f.solver.c_str(), f.endTime, f.wallSeconds, f.cpuSeconds, f.cpuSeconds / f.endTime,
                f.statistics.steps,
                f.statistics.residualEvaluations, f.statistics.jacobianEvaluations, f.statistics.errorTestFailures,
                f.statistics.nonlinearConvergenceFailures, 1e6 * perStep / count, 1e3 * perStep, f.times.residual(),
                f.times.jacobian, f.times.linearSetup, f.times.linearSolve, f.completed ? "" : "  FAILED");
    if (previousCount > 0) {
      std::printf("        cost per step grew %.1fx for %.0fx the links\n", perStep / previousPerStep,
                  static_cast<double>(count) / previousCount);
    }
    previousPerStep = perStep;
    previousCount = count;
    std::fflush(stdout);
  }
  return 0;
}

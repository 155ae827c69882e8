// A pile of N spheres dropped into a box, all in ONE Force_Contact (every sphere listed as I and as J, the box
// walls as J): 1 s of simulated time. Prints wall time, steps, residual and Jacobian evaluations, contact events
// and peak memory, with zero crossing on (contact events located and IDAS restarted at each) and off.
//
//   contact_pile_benchmark [N ...]     (default: N = 100 1000; PILE_ZERO_CROSSING=TRUE|FALSE runs one case,
//                                       PILE_END_TIME=t simulates t seconds instead of 1 for profiling,
//                                       PILE_LINEAR_SOLVER=KLU|KRYLOV overrides the choice by size)
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
// Per step the cost grows linearly (1.6 ms at N=100 with KLU, 17 ms at N=1000 with GMRES); the number of
// steps grows because a bigger pile has more impacts for one global step size to resolve.
#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "elements/model_builder.h"
#include "solver/core/text.h"
#include "solver/driver/simulation.h"
#include "solver/xml/deck_reader.h"

using namespace lodestone;

namespace {

constexpr double kRadius = 0.01;  // m

// Spheres on a jittered lattice above the floor of a box just wide enough for a layer of `perSide`² spheres.
std::string pileDeck(int count, bool zeroCrossing) {
  int perSide = 1;
  while (perSide * perSide * perSide < count) ++perSide;
  const double spacing = 2.4 * kRadius;
  const double width = perSide * spacing;
  std::mt19937 random(7u + static_cast<unsigned>(count));
  std::uniform_real_distribution<double> jitter(-0.1 * kRadius, 0.1 * kRadius);
  const double mass = 1000 * 4.0 / 3.0 * 3.14159265358979 * kRadius * kRadius * kRadius;  // water-dense
  const double inertia = 0.4 * mass * kRadius * kRadius;

  std::string deck = "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n";
  deck += "<Force_Gravity grav_z=\"-9.81\"/>\n<Param_Transient integr_tol=\"1e-3\"/>\n";
  deck += "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";
  // Floor and four walls, 0.1 m thick, on ground markers at their centres.
  const double thick = 0.1, height = 2 * width + 0.2;
  struct Wall { double x, y, z, lx, ly, lz; };
  const Wall walls[] = {{0, 0, -thick / 2, width + 2 * thick, width + 2 * thick, thick},
                        {-(width + thick) / 2, 0, height / 2, thick, width, height},
                        {(width + thick) / 2, 0, height / 2, thick, width, height},
                        {0, -(width + thick) / 2, height / 2, width, thick, height},
                        {0, (width + thick) / 2, height / 2, width, thick, height}};
  std::string wallIds;
  for (int w = 0; w < 5; ++w) {
    const Wall& wall = walls[w];
    const std::string marker = std::to_string(10 + w), graphic = std::to_string(100 + w);
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"1\" pos_x=\"" + formatReal(wall.x) + "\" pos_y=\"" +
            formatReal(wall.y) + "\" pos_z=\"" + formatReal(wall.z) + "\"/>\n";
    deck += "<Post_Graphic id=\"" + graphic + "\" type=\"BoxDefinedFromCenter\" center_marker_id=\"" + marker +
            "\" length_x=\"" + formatReal(wall.lx) + "\" length_y=\"" + formatReal(wall.ly) + "\" length_z=\"" +
            formatReal(wall.lz) + "\"/>\n";
    wallIds += " " + graphic;
  }
  std::string sphereIds;
  for (int i = 0; i < count; ++i) {
    const int ix = i % perSide, iy = (i / perSide) % perSide, iz = i / (perSide * perSide);
    const double x = -width / 2 + (ix + 0.5) * spacing + jitter(random);
    const double y = -width / 2 + (iy + 0.5) * spacing + jitter(random);
    const double z = kRadius + 0.005 + iz * spacing + std::abs(jitter(random));
    const std::string body = std::to_string(1000 + i), marker = std::to_string(100000 + i),
                      graphic = std::to_string(200000 + i);
    deck += "<Body_Rigid id=\"" + body + "\" mass=\"" + formatReal(mass) + "\" cg_id=\"" + marker +
            "\" inertia_xx=\"" + formatReal(inertia) + "\" inertia_yy=\"" + formatReal(inertia) +
            "\" inertia_zz=\"" + formatReal(inertia) + "\"/>\n";
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + body + "\" pos_x=\"" + formatReal(x) +
            "\" pos_y=\"" + formatReal(y) + "\" pos_z=\"" + formatReal(z) + "\"/>\n";
    deck += "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"" +
            formatReal(kRadius) + "\"/>\n";
    sphereIds += " " + graphic;
  }
  deck += "<Force_Contact id=\"1\" i_graphics_id=\"" + sphereIds + "\" j_graphics_id=\"" + sphereIds + wallIds +
          "\" cnf_type=\"IMPACT\" stiffness=\"1e5\" exponent=\"1.5\" damping=\"2\" dmax=\"1e-4\""
          " cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.25\" stiction_trans_vel=\"0.01\""
          " friction_trans_vel=\"0.02\" zero_crossing=\"" + (zeroCrossing ? "TRUE" : "FALSE") + "\"/>\n";
  deck += "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>"
          "</Command></MultiBodySystem>\n";
  return deck;
}

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
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeckText(pileDeck(count, zeroCrossing), "pile.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) {
    std::fprintf(stderr, "%s", diagnostics.formatAll().c_str());
    std::exit(1);
  }
  SimulationOptions options;
  if (const char* solver = std::getenv("PILE_LINEAR_SOLVER")) {
    options.integrator.linearSolver =
        std::string(solver) == "KRYLOV" ? LinearSolverKind::Krylov : LinearSolverKind::SparseKlu;
  }
  Simulation simulation(std::move(*model), options);
  long onsets = 0, separations = 0, located = 0;
  simulation.setContactEventHandler([&](const ContactEvent& event) {
    (event.onset ? onsets : separations) += 1;
    located += event.located ? 1 : 0;
  });
  SimulationSegment segment;
  segment.startTime = 0;
  segment.endTime = endTime();
  segment.printInterval = 0.01;
  const auto start = std::chrono::steady_clock::now();
  const SegmentOutcome outcome = simulation.run(segment);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const SolverStatistics s = simulation.statistics();
  const PhaseTimes& t = simulation.times();
  std::printf("N=%5d t_end=%g zero_crossing=%-5s %s  %s  wall %8.3f s  steps %6ld  residuals %7ld  jacobians %5ld  linear iterations %7ld  error-test/Newton failures %ld/%ld  "
              "events %6ld onsets / %6ld separations (%ld located)  contact detection %.3f s  forces %.3f s  "
              "jacobian %.3f s  factorisation %.3f s  solves %.3f s  integrator other %.3f s  peak memory %ld MB\n",
              count, segment.endTime, zeroCrossing ? "TRUE" : "FALSE", outcome.completed ? "completed" : "FAILED   ",
              describeLinearSolver(simulation.linearSolver()), seconds, s.steps,
              s.residualEvaluations, s.jacobianEvaluations, s.linearIterations, s.errorTestFailures, s.nonlinearConvergenceFailures, onsets, separations, located, t.contactDetection,
              t.forces, t.jacobian, t.linearSetup, t.linearSolve, t.integratorOther(), peakMemoryKilobytes() / 1024);
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) counts.push_back(std::atoi(argv[i]));
  if (counts.empty()) counts = {100, 1000};
  const char* only = std::getenv("PILE_ZERO_CROSSING");  // "TRUE" or "FALSE" runs only that case
  for (int count : counts) {
    if (!only || std::string(only) == "TRUE") runPile(count, true);
    if (!only || std::string(only) == "FALSE") runPile(count, false);
  }
  return 0;
}

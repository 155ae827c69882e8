// A pile of N spheres above the floor of a box (floor and four walls), all in ONE Force_Contact that lists every
// sphere as I and as J and the walls as J: the contact-heavy deck the benchmarks share.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "solver/core/text.h"
#include "solver/driver/integrator.h"
#include "solver/driver/simulation.h"

namespace lodestone::benchmark {

// The pile sizes named on a benchmark's command line; {100, 1000} when none is.
inline std::vector<int> pileCounts(int argc, char** argv) {
  std::vector<int> counts;
  for (int i = 1; i < argc; ++i) counts.push_back(std::atoi(argv[i]));
  if (counts.empty()) counts = {100, 1000};
  return counts;
}

// The linear solver an environment variable asks for (DENSE, KLU or KRYLOV); none when it is not set.
inline std::optional<LinearSolverKind> linearSolverFromEnvironment(const char* variable) {
  const char* text = std::getenv(variable);
  if (!text) return std::nullopt;
  const std::string name = text;
  return name == "KRYLOV" ? LinearSolverKind::Krylov
         : name == "DENSE" ? LinearSolverKind::Dense
                           : LinearSolverKind::SparseKlu;
}

// A pile's run from 0 to `endTime` with outputs every 0.01 s, and its wall time.
struct TimedRun {
  SegmentOutcome outcome;
  double seconds = 0;
};
inline TimedRun runTimed(Simulation& simulation, double endTime) {
  SimulationSegment segment;
  segment.endTime = endTime;
  segment.printInterval = 0.01;
  const auto start = std::chrono::steady_clock::now();
  TimedRun run{simulation.run(segment)};
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return run;
}

// The law part of the Force_Contact: IMPACT and COULOMB_ON with the pile's numbers.
inline const std::string kPileBuiltInLaws =
    "cnf_type=\"IMPACT\" stiffness=\"1e5\" exponent=\"1.5\" damping=\"2\" dmax=\"1e-4\""
    " cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.25\" stiction_trans_vel=\"0.01\""
    " friction_trans_vel=\"0.02\"";

constexpr double kPileSphereRadius = 0.01;  // m

// Spheres on a jittered lattice above the floor of a box just wide enough for a layer of `perSide`² spheres.
inline std::string pileDeck(int count, bool zeroCrossing, const std::string& laws = kPileBuiltInLaws,
                            double endTime = 1.0) {
  int perSide = 1;
  while (perSide * perSide * perSide < count) ++perSide;
  const double spacing = 2.4 * kPileSphereRadius;
  const double width = perSide * spacing;
  std::mt19937 random(7u + static_cast<unsigned>(count));
  std::uniform_real_distribution<double> jitter(-0.1 * kPileSphereRadius, 0.1 * kPileSphereRadius);
  const double radius = kPileSphereRadius;
  const double mass = 1000 * 4.0 / 3.0 * 3.14159265358979 * radius * radius * radius;  // water-dense
  const double inertia = 0.4 * mass * radius * radius;

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
    const double z = kPileSphereRadius + 0.005 + iz * spacing + std::abs(jitter(random));
    const std::string body = std::to_string(1000 + i), marker = std::to_string(100000 + i),
                      graphic = std::to_string(200000 + i);
    deck += "<Body_Rigid id=\"" + body + "\" mass=\"" + formatReal(mass) + "\" cg_id=\"" + marker +
            "\" inertia_xx=\"" + formatReal(inertia) + "\" inertia_yy=\"" + formatReal(inertia) +
            "\" inertia_zz=\"" + formatReal(inertia) + "\"/>\n";
    deck += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + body + "\" pos_x=\"" + formatReal(x) +
            "\" pos_y=\"" + formatReal(y) + "\" pos_z=\"" + formatReal(z) + "\"/>\n";
    deck += "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"" +
            formatReal(kPileSphereRadius) + "\"/>\n";
    sphereIds += " " + graphic;
  }
  deck += "<Force_Contact id=\"1\" i_graphics_id=\"" + sphereIds + "\" j_graphics_id=\"" + sphereIds + wallIds +
          "\" " + laws + " zero_crossing=\"" + (zeroCrossing ? "TRUE" : "FALSE") + "\"/>\n";
  deck += "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
          "\" print_interval=\"0.01\"/>"
          "</Command></MultiBodySystem>\n";
  return deck;
}

}  // namespace lodestone::benchmark

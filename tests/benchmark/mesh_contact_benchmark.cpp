// Mesh contact speed. Prints figures; asserts nothing. Each mesh is measured with its edges sharp (crease_angle="0":
// the facets as they are) and as the smooth surface it stands for (the default crease angle), side by side.
//
// 1. Cost of one contact evaluation (collide()) against the number of triangles: a tessellated cylinder (R 50 mm,
//    100 mm long) lying on a box 0.98 mm deep, turned to 64 angles about its axis in turn, at refinement levels
//    0–4; against the box's tessellation (mesh–mesh), faceted and smooth, and smooth as a Mesh against the exact box
//    (the semi pair). Then a tessellated sphere the same way.
// 2. models/cylinder_on_box.xml against models/cylinder_on_box_mesh.xml: wall time of 1 s of simulation in this
//    process (reading, building and results files left out), the mesh form's cylinder at levels 0–2, faceted and
//    smooth, at the decks' integr_tol 1e-6, and at 1e-4 and 1e-3.
//
//   mesh_contact_benchmark [SOURCE_DIR [evaluations|decks]]   (default: the source tree it was built from; both)
//
// Measured on the 2-core development VM (Release; timings vary by about 30 % from run to run, more while other builds
// run), faceted -> smooth in one run:
//   cylinder on the box's mesh, µs per evaluation: 2.8 -> 4.7 (level 0, 192 triangles), 4.7 -> 12.4 (704),
//     15.5 -> 38.6 (2688), 70 -> 149 (10752), 297 -> 587 (41984); the facets' 3.6 to 2615 samples in contact
//     against the smooth patch's 8 points at every level.
//   the decks, mesh / analytical wall time: at integr_tol 1e-6 17.3 -> 2.3 (level 0), 31.8 -> 5.2 (level 1, the
//     deck's), 101 -> 15.2 (level 2); at 1e-4 4.3 -> 2.4, 9.2 -> 5.4, 14.7 -> 15.9; at 1e-3 2.2 -> 2.4, 3.6 -> 5.3,
//     12.0 -> 15.8. Faceted, the integrator follows the 320 Hz facet ripple at 1e-6 (10325 steps at level 1);
//     smooth, every level takes the analytical run's 1015 steps, 1022 residuals and 17 Jacobians, and what remains is
//     the cost of each evaluation, five to seven per step.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <Eigen/Geometry>

#include "deck_model.h"
#include "collision/mesh_geometry.h"
#include "collision/narrow_phase.h"
#include "collision/smooth_surface.h"
#include "collision/tessellation.h"
#include "solver/driver/simulation.h"
#include "support/text_files.h"

using namespace lodestone;

namespace {

constexpr double kRadius = 0.05, kHalfLength = 0.05, kDepth = 0.98e-3;

// `creaseAngle` 0: every edge sharp, the facets as they are; kCrease: the smooth surface the mesh stands for.
const double kCrease = kDefaultCreaseAngleDegrees * M_PI / 180;
Shape tessellated(const Shape& primitive, int level, double creaseAngle) {
  Shape shape = primitive;
  shape.surface = std::make_shared<MeshGeometry>(tessellate(primitive, level), creaseAngle);
  return shape;
}

struct Cost {
  double microseconds = 0;
  double points = 0;  // per call
};

// `rolled`: the sampled shape's pose for the k-th of 64 angles.
template <class PoseOfAngle>
Cost costPerCall(const Shape& a, PoseOfAngle rolled, const Shape& b, const ContactOptions& options) {
  std::vector<ContactPoint> points;
  const Pose poseB{Vector3(0, 0, -0.05), Matrix3::Identity()};
  const int angles = 64, rounds = 40;
  long pointCount = 0;
  double sink = 0;
  const auto start = std::chrono::steady_clock::now();
  for (int round = 0; round < rounds; ++round) {
    for (int k = 0; k < angles; ++k) {
      points.clear();
      sink += collide(a, rolled(k, angles), b, poseB, 0.01, points, options);
      pointCount += static_cast<long>(points.size());
    }
  }
  const auto stop = std::chrono::steady_clock::now();
  if (sink == 12345.678) std::puts("");  // keeps the loop
  const double calls = angles * rounds;
  return {std::chrono::duration<double, std::micro>(stop - start).count() / calls, pointCount / calls};
}

void costAgainstTriangles() {
  const Shape box = Shape::box(Vector3(0.5, 0.5, 0.05));
  const Shape boxMesh = tessellated(box, 1, kCrease);
  ContactOptions meshOptions;
  meshOptions.analytical = false;  // enable_analytical="FALSE": the box is used as its mesh
  const ContactOptions semiOptions;  // the exact box is the master (AUTO)
  // The cylinder's axis along y, its centre kRadius − kDepth above the box's top face (z = 0), turned by an angle
  // about its axis that is not a multiple of the facets' (so every call finds a different facet below).
  const auto cylinderPose = [](int k, int angles) {
    const double angle = 2.0 * M_PI * (k + 0.37) / angles / 7.0;
    const Matrix3 axisAlongY = Eigen::AngleAxisd(-M_PI / 2, Vector3::UnitX()).toRotationMatrix();
    return Pose{Vector3(0, 0, kRadius - kDepth),
                Eigen::AngleAxisd(angle, Vector3::UnitY()).toRotationMatrix() * axisAlongY};
  };
  const auto spherePose = [](int k, int angles) {
    const double angle = 2.0 * M_PI * (k + 0.37) / angles;
    return Pose{Vector3(0, 0, kRadius - kDepth),
                Eigen::AngleAxisd(angle, Vector3(1, 2, 3).normalized()).toRotationMatrix()};
  };
  std::printf("Cost of one contact evaluation (collide), 0.98 mm deep, mean over 64 angles:\n");
  std::printf("%-9s %5s %10s | %-20s | %-20s | %-20s\n", "shape", "level", "triangles", "faceted, box's mesh",
              "smooth, box's mesh", "smooth, exact box");
  std::printf("%-9s %5s %10s | %9s %10s | %9s %10s | %9s %10s\n", "", "", "", "us/call", "points", "us/call", "points",
              "us/call", "points");
  const auto row = [&](const char* name, const Shape& primitive, int level, const auto& pose) {
    const Shape faceted = tessellated(primitive, level, 0), smooth = tessellated(primitive, level, kCrease);
    const Cost before = costPerCall(faceted, pose, boxMesh, meshOptions);
    const Cost mesh = costPerCall(smooth, pose, boxMesh, meshOptions);
    const Cost semi = costPerCall(Shape::mesh(smooth.surface), pose, box, semiOptions);
    std::printf("%-9s %5d %10d | %9.2f %10.1f | %9.2f %10.1f | %9.2f %10.1f\n", name, level,
                smooth.surface->triangleCount(), before.microseconds, before.points, mesh.microseconds, mesh.points,
                semi.microseconds, semi.points);
    std::fflush(stdout);
  };
  for (int level = 0; level <= 4; ++level) row("cylinder", Shape::cylinder(kRadius, kHalfLength), level, cylinderPose);
  for (int level = 0; level <= 4; ++level) row("sphere", Shape::sphere(kRadius), level, spherePose);
}

// A deck's text; a missing deck ends the benchmark.
std::string deckText(const std::string& path) {
  std::string text = testing::fileText(path);
  if (text.empty()) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(1);
  }
  return text;
}

void replaceOnce(std::string& text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  if (at == std::string::npos) {
    std::fprintf(stderr, "the deck has changed: '%s' not found\n", from.c_str());
    std::exit(1);
  }
  text.replace(at, from.size(), to);
}

struct RunFigures {
  double seconds = 0;
  SolverStatistics statistics;
};

RunFigures runDeck(const std::string& text, const std::string& name) {
  Model model = benchmark::modelOfDeck(text, name);
  Simulation simulation(std::move(model), SimulationOptions{});
  SimulationSegment segment;
  segment.startTime = 0;
  segment.endTime = 1.0;
  segment.printInterval = 1e-3;
  const auto start = std::chrono::steady_clock::now();
  const SegmentOutcome outcome = simulation.run(segment);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (!outcome.completed) {
    std::fprintf(stderr, "%s did not complete\n", name.c_str());
    std::exit(2);
  }
  return {seconds, simulation.statistics()};
}

void cylinderDecks(const std::string& sourceDir) {
  const std::string analytical = deckText(sourceDir + "/models/cylinder_on_box.xml");
  const std::string mesh = deckText(sourceDir + "/models/cylinder_on_box_mesh.xml");
  std::printf("\nmodels/cylinder_on_box*.xml, 1 s simulated (10 rev/s); the mesh form's cylinder faceted "
              "(crease_angle=\"0\") and smooth (the default):\n");
  std::printf("%-10s %-30s %10s %8s %10s %10s %12s\n", "integr_tol", "contact", "wall s", "steps", "residuals",
              "jacobians", "wall / exact");
  for (const std::string tolerance : {"1e-6", "1e-4", "1e-3"}) {
    std::string exactDeck = analytical;
    replaceOnce(exactDeck, "integr_tol=\"1e-6\"", "integr_tol=\"" + tolerance + "\"");
    const RunFigures exact = runDeck(exactDeck, "cylinder_on_box.xml");
    std::printf("%-10s %-30s %10.3f %8ld %10ld %10ld %12s\n", tolerance.c_str(), "analytical", exact.seconds,
                exact.statistics.steps, exact.statistics.residualEvaluations,
                exact.statistics.jacobianEvaluations, "1");
    for (int level = 0; level <= 2; ++level) {
      for (const bool smooth : {false, true}) {
        std::string meshDeck = mesh;
        replaceOnce(meshDeck, "integr_tol=\"1e-6\"", "integr_tol=\"" + tolerance + "\"");
        const std::string cylinderLevel = "radius=\"0.05\" length=\"0.1\"\n                  refinement_level=";
        replaceOnce(meshDeck, cylinderLevel + "\"1\"",
                    cylinderLevel + "\"" + std::to_string(level) + "\"" + (smooth ? "" : " crease_angle=\"0\""));
        const RunFigures figures = runDeck(meshDeck, "cylinder_on_box_mesh.xml");
        const std::string label =
            std::string("mesh, level ") + std::to_string(level) + (smooth ? ", smooth" : ", faceted");
        std::printf("%-10s %-30s %10.3f %8ld %10ld %10ld %12.1f\n", tolerance.c_str(), label.c_str(), figures.seconds,
                    figures.statistics.steps, figures.statistics.residualEvaluations,
                    figures.statistics.jacobianEvaluations, figures.seconds / exact.seconds);
        std::fflush(stdout);
      }
    }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::string sourceDir = argc > 1 ? argv[1] : LODESTONE_SOURCE_DIR;
  const std::string part = argc > 2 ? argv[2] : "";
  if (part != "decks") costAgainstTriangles();
  if (part != "evaluations") cylinderDecks(sourceDir);
  return 0;
}

// Translation under gravity against the analytic parabola, and the mass multiplication factor: the same body in
// a millimetre deck (mass factor 1e-3, g = -9810 mm/s²) must fall exactly 1000 times as many units as in metres.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/simulation.h"
#include "solver/core/text.h"

namespace lodestone {
namespace {

struct FreeFlightTrajectory {
  std::vector<double> times;
  std::vector<Vector3> positions, velocities;
};

FreeFlightTrajectory fly(Model model, double endTime, double printInterval) {
  Simulation simulation(std::move(model));
  FreeFlightTrajectory trajectory;
  simulation.setOutputHandler([&trajectory](const OutputFrame& frame) {
    trajectory.times.push_back(frame.time);
    trajectory.positions.push_back(frame.bodies[0].position);
    trajectory.velocities.push_back(frame.bodies[0].velocity);
  });
  const SegmentOutcome outcome = simulation.run({{}, 0.0, endTime, printInterval});
  EXPECT_TRUE(outcome.completed) << outcome.reason;
  return trajectory;
}

Model projectile(double lengthScale, double massFactor, double tolerance) {
  Model model;
  model.units.massFactor = massFactor;
  model.gravity = {0, 0, -9.81 * lengthScale};
  model.integrator.integrTol = tolerance;
  RigidBody body;
  body.id = 2;
  body.mass = 1.5;                                                            // kg in both decks
  body.inertia = (lengthScale * lengthScale) * Vector3(0.01, 0.02, 0.03).asDiagonal().toDenseMatrix();
  body.position = lengthScale * Vector3(0.5, -1.0, 2.0);
  body.velocity = lengthScale * Vector3(3.0, 1.0, 12.0);
  body.angularVelocity = {0.3, -0.2, 1.0};
  model.bodies.push_back(body);
  return model;
}

Vector3 parabola(double t) {
  return Vector3(0.5, -1.0, 2.0) + t * Vector3(3.0, 1.0, 12.0) + 0.5 * t * t * Vector3(0, 0, -9.81);
}

TEST(FreeFlightTest, ProjectileFollowsTheAnalyticParabola) {
  const FreeFlightTrajectory trajectory = fly(projectile(1.0, 1.0, 1e-8), 2.5, 0.01);
  ASSERT_EQ(trajectory.times.size(), 251u);
  double worst = 0;
  for (size_t k = 0; k < trajectory.times.size(); ++k) {
    const double t = trajectory.times[k];
    worst = std::max(worst, (trajectory.positions[k] - parabola(t)).cwiseAbs().maxCoeff());
    EXPECT_LT((trajectory.velocities[k] - Vector3(3.0, 1.0, 12.0 - 9.81 * t)).cwiseAbs().maxCoeff(), 1e-6);
  }
  // Stated tolerance: 1e-6 m at every output (integr_tol 1e-8).
  EXPECT_LT(worst, 1e-6);
  RecordProperty("worst_position_error_m", formatReal(worst));
}

TEST(FreeFlightTest, MillimetreDeckFallsAThousandTimesTheMetreDeck) {
  const FreeFlightTrajectory metres = fly(projectile(1.0, 1.0, 1e-9), 2.0, 0.1);
  const FreeFlightTrajectory millimetres = fly(projectile(1000.0, 1e-3, 1e-9), 2.0, 0.1);
  ASSERT_EQ(metres.times.size(), millimetres.times.size());
  for (size_t k = 0; k < metres.times.size(); ++k) {
    const double t = metres.times[k];
    // Each against the analytic answer in its own units (1e-6 m, i.e. 1e-3 mm)...
    EXPECT_LT((metres.positions[k] - parabola(t)).cwiseAbs().maxCoeff(), 1e-6);
    EXPECT_LT((millimetres.positions[k] - 1000.0 * parabola(t)).cwiseAbs().maxCoeff(), 1e-3);
    // ...and the drop itself, 1000 times larger, to 1e-8 relative.
    const double dropMetres = metres.positions[k].z() - 2.0;
    const double dropMillimetres = millimetres.positions[k].z() - 2000.0;
    if (t > 0) {
      EXPECT_NEAR(dropMillimetres / dropMetres, 1000.0, 1e-5) << "t=" << t;
    }
  }
}

}  // namespace
}  // namespace lodestone

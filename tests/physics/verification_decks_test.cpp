// The verification decks in models/, run end to end, against their analytic solutions.
#include <cmath>
#include <filesystem>

#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "solver/driver/run.h"
#include "support/model_runs.h"
#include "support/results_csv.h"

namespace lodestone::testing {
namespace {

// x = 3t, z = 1 + 4t − g t²/2 from (0, 0, 1) at (3, 0, 4) m/s.
Vector3 projectilePosition(double t) { return {3 * t, 0, 1 + 4 * t - 0.5 * 9.81 * t * t}; }
Vector3 projectileVelocity(double t) { return {3, 0, 4 - 9.81 * t}; }

TEST(VerificationDecks, ProjectileFollowsTheParabola) {
  const ResultsTable results(runModel("projectile") + "/bodies.csv");
  const std::vector<size_t> rows = results.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 81u) << "outputs at 0, 0.01, …, 0.8 s";
  double worstPosition = 0, worstVelocity = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const double t = results.at(rows[i], "time");
    EXPECT_NEAR(t, 0.01 * static_cast<double>(i), 1e-12);
    worstPosition = std::max(worstPosition, (results.vector3(rows[i], "x", "y", "z") - projectilePosition(t)).norm());
    worstVelocity = std::max(worstVelocity, (results.vector3(rows[i], "vx", "vy", "vz") - projectileVelocity(t)).norm());
  }
  EXPECT_LT(worstPosition, 1e-6) << "metres";
  EXPECT_LT(worstVelocity, 1e-6) << "metres per second";
}

TEST(VerificationDecks, MillimetreDeckGivesTheSameMotionTimes1000) {
  const ResultsTable metres(runModel("projectile") + "/bodies.csv");
  const ResultsTable millimetres(runModel("projectile_mm") + "/bodies.csv");
  ASSERT_EQ(metres.rowCount(), millimetres.rowCount());
  double worst = 0;
  for (size_t row = 0; row < metres.rowCount(); ++row) {
    ASSERT_DOUBLE_EQ(metres.at(row, "time"), millimetres.at(row, "time"));
    for (const char* column : {"x", "y", "z", "vx", "vy", "vz"}) {
      worst = std::max(worst, std::fabs(millimetres.at(row, column) / 1000.0 - metres.at(row, column)));
    }
    const double t = millimetres.at(row, "time");
    EXPECT_LT((millimetres.vector3(row, "x", "y", "z") / 1000.0 - projectilePosition(t)).norm(), 1e-6);
  }
  EXPECT_LT(worst, 1e-6) << "metres, after dividing the millimetre results by 1000";
}

TEST(VerificationDecks, IntermediateAxisSpinConservesEnergyAndMomentum) {
  const ResultsTable results(runModel("intermediate_axis") + "/bodies.csv");
  const std::vector<size_t> rows = results.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 1001u) << "20 s every 0.02 s";
  const Matrix3 inertia = Vector3(0.2, 0.35, 0.45).asDiagonal();
  auto energyAndMomentum = [&](size_t row) {
    const Matrix3 rotation = rotationFromEulerParameters(results.eulerParameters(row));
    const Vector3 omega = results.vector3(row, "wx", "wy", "wz");  // ground axes
    const Matrix3 inertiaInGround = rotation * inertia * rotation.transpose();
    return std::pair(0.5 * omega.dot(inertiaInGround * omega), Vector3(inertiaInGround * omega));
  };
  const auto [energy0, momentum0] = energyAndMomentum(rows.front());
  EXPECT_NEAR(energy0, 0.5 * (0.2 * 0.02 * 0.02 + 0.35 * 16 + 0.45 * 0.02 * 0.02), 1e-12) << "initial state as given";
  double worstEnergy = 0, worstMomentum = 0, worstNorm = 0;
  int flips = 0;
  double previousSpin = 4.0;
  for (size_t row : rows) {
    const auto [energy, momentum] = energyAndMomentum(row);
    worstEnergy = std::max(worstEnergy, std::fabs(energy - energy0) / energy0);
    worstMomentum = std::max(worstMomentum, (momentum - momentum0).norm() / momentum0.norm());
    worstNorm = std::max(worstNorm, std::fabs(results.eulerParameters(row).norm() - 1.0));
    // Spin about the body's intermediate axis, to see that the body really tumbles.
    const Matrix3 rotation = rotationFromEulerParameters(results.eulerParameters(row));
    const double spin = (rotation.transpose() * results.vector3(row, "wx", "wy", "wz")).y();
    if (spin * previousSpin < 0) ++flips;
    previousSpin = spin;
  }
  EXPECT_LT(worstEnergy, 1e-6);
  EXPECT_LT(worstMomentum, 1e-6);
  EXPECT_LT(worstNorm, 1e-10);
  EXPECT_GE(flips, 2) << "the spin about the intermediate axis reverses: the body flips";
  // The body does not drift: no force acts, so the CG stays where it started.
  EXPECT_LT((results.vector3(rows.back(), "x", "y", "z") - Vector3(0.5, -0.25, 2)).norm(), 1e-9);
}

}  // namespace
}  // namespace lodestone::testing

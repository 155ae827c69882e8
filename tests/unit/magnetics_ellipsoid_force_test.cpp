// The force and torque on a uniformly magnetised ellipsoid by quadrature over its varying surface charge
// (magnetics/ellipsoid_force.h), against a reference that does not share its formulas: the source's field integrated
// over the ellipsoid's volume.
#include <gtest/gtest.h>

#include <cmath>
#include <numbers>
#include <vector>

#include "magnetics/cuboid_field.h"
#include "magnetics/ellipsoid_force.h"
#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// A 20 mm cube (≈ 1 T along z, a little along x) and an ellipsoid of semi-axes 6, 4 and 3 mm magnetised obliquely.
const Cuboid kCubeUnder{Vector3::Constant(0.01), Vector3(2e5, 0, 8e5)};
const Ellipsoid kTargetEllipsoid{Vector3(0.006, 0.004, 0.003), Vector3(2e5, -3e5, 7e5)};

// The ellipsoid's volume rule: the unit ball stretched, r = R·diag(a, b, c)·ρ·(sin θ cos φ, sin θ sin φ, cos θ),
// dV = abc·ρ²·sin θ·dρ·dθ·dφ; Gauss–Legendre in ρ and θ, the trapezoid rule in φ (periodic). The source's field is
// analytic over the ellipsoid away from its edges, so the rule converges geometrically; `points` is the count along
// θ, with half as many along ρ and twice as many along φ.
std::vector<VolumePoint> ellipsoidVolumeRule(const Ellipsoid& ellipsoid, const Matrix3& rotation, int points) {
  // u → ρ = (u + 1)/2, v → θ = π(v + 1)/2: dρ·dθ = (1/2)·(π/2)·du·dv.
  return azimuthalVolumeRule(points / 2, points, 2 * points, rotation, [&](double u, double v, double phi) {
    const double rho = 0.5 * (u + 1), theta = 0.5 * std::numbers::pi * (v + 1);
    const Vector3 unit(std::sin(theta) * std::cos(phi), std::sin(theta) * std::sin(phi), std::cos(theta));
    const double jacobian = 0.25 * std::numbers::pi * ellipsoid.semiAxes.prod() * rho * rho * std::sin(theta);
    return std::pair{Vector3(ellipsoid.semiAxes.cwiseProduct(rho * unit)), jacobian};
  });
}

// The loads over the ellipsoid's volume in the cube's field, (M·∇)H by central differences of 1e-5 of the distance
// `reach` from the ellipsoid to the cube's edges (truncation ~1e-10, round-off ~1e-11).
std::pair<Vector3, Vector3> volumeIntegral(const Cuboid& source, const Ellipsoid& target, const MagnetPose& pose,
                                           double reach, int points) {
  return cuboidVolumeLoads(source, target.magnetisation, pose, ellipsoidVolumeRule(target, pose.rotation, points),
                           reach);
}

// The ellipsoid, turned, above the cube's top face and off its centre, `gap` between the face and its lowest point.
MagnetPose ellipsoidAboveTheCube(double gap) {
  const Matrix3 rotation =
      (Eigen::AngleAxisd(0.5, Vector3::UnitZ()) * Eigen::AngleAxisd(0.3, Vector3(1, 1, 0).normalized()))
          .toRotationMatrix();
  // The lowest point's height below the centre: the support function √(Σ (a_i·R_zi)²) along −z.
  const double depth = kTargetEllipsoid.semiAxes.cwiseProduct(rotation.row(2).transpose()).norm();
  return {rotation, Vector3(0.002, -0.001, kCubeUnder.halfExtents.z() + gap + depth)};
}

// 0.1 mm to 100 mm above the cube (forces of 7.3 N down to 4.3 mN), asking 1e-8: the surface charges' force and
// torque agree with the volume integral within 1e-8 (measured ≤ 8.2e-10 in force, ≤ 9.0e-10 in torque, for 2000 to
// 4700 field evaluations; the issue asked 0.5 %). The volume rule's own convergence, 24 against 32 points along θ:
// ≤ 8.4e-11. A wrong sign of an octant's normal, or an octant left out, is off by O(1).
TEST(MagnetEllipsoidForce, IsTheSourceFieldIntegratedOverItsVolume) {
  const SourceField field = [](const Vector3& point) { return cuboidField(kCubeUnder, point); };
  for (const double gap : {1e-4, 1e-3, 1e-2, 0.1}) {
    SCOPED_TRACE(::testing::Message() << "gap " << gap << " m");
    const MagnetPose pose = ellipsoidAboveTheCube(gap);
    const MagnetInteraction interaction = ellipsoidInteraction(field, kTargetEllipsoid, pose, 1e-8);
    // 3 mm and more from the cube's top edges, plus the gap.
    const auto [force, torque] = volumeIntegral(kCubeUnder, kTargetEllipsoid, pose, 0.003 + gap, 32);
    const auto [coarserForce, coarserTorque] = volumeIntegral(kCubeUnder, kTargetEllipsoid, pose, 0.003 + gap, 24);
    EXPECT_LT(relativeError(coarserForce, force), 1e-9);
    EXPECT_LT(relativeError(interaction.force, force), 1e-8);
    EXPECT_LT(relativeError(interaction.torque, torque), 1e-8);
    EXPECT_TRUE(interaction.converged);
  }
}

// A uniform field pulls on no magnet and turns it by μ0·V·M × H: the octants' charges add up to none, and their
// moments to the dipole's.
TEST(MagnetEllipsoidForce, AUniformFieldOnlyTurnsIt) {
  const Vector3 uniform(1e4, -2e4, 3e4);
  const SourceField field = [&uniform](const Vector3&) { return uniform; };
  const MagnetPose pose{Eigen::AngleAxisd(0.7, kSkewDirection).toRotationMatrix(), Vector3(0.1, 0.2, -0.3)};
  const MagnetInteraction interaction = ellipsoidInteraction(field, kTargetEllipsoid, pose, 1e-12);
  const Vector3 moment =
      4 * std::numbers::pi / 3 * kTargetEllipsoid.semiAxes.prod() * (pose.rotation * kTargetEllipsoid.magnetisation);
  const Vector3 torque = kVacuumPermeability * moment.cross(uniform);
  EXPECT_LT(interaction.force.norm(), 1e-13 * torque.norm() / kTargetEllipsoid.semiAxes.maxCoeff());
  EXPECT_LT(relativeError(interaction.torque, torque), 1e-13);
}

}  // namespace
}  // namespace lodestone

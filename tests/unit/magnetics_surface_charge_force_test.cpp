// The quadrature over a target's charged faces (magnetics/surface_charge_force.h), against the exact force and torque
// on a uniformly magnetised body in a field linear in position.
#include <gtest/gtest.h>

#include <numbers>

#include "magnetics/surface_charge_force.h"
#include "solver/core/rotation.h"
#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// H(x) = H0 + G·x with G symmetric (curl-free) and traceless (divergence-free): a possible field outside its sources.
// On a body of moment m = M·V centred at c it exerts exactly F = μ0·G·m (F = μ0 ∫ (M·∇)H dV) and, about c,
// T = μ0·m × H(c) (the lever arms' part, μ0 ∫ (r − c) × (G·M) dV, vanishes as ∫ (r − c) dV = 0). The rectangles' force
// and torque integrands are polynomials the 7×7 rule integrates exactly; the discs' are not, in polar coordinates (cos
// θ and sin θ over [0, 2π]), so they check the adaptive splitting, the disc's mapping and its area element r·dr·dθ.
const Vector3 kUniformPart(3e4, -1e4, 2e4);
Matrix3 gradient() {
  Matrix3 g;
  g << 2e5, 5e4, -3e4, 5e4, -5e4, 7e4, -3e4, 7e4, -1.5e5;
  return g;
}
Vector3 linearField(const Vector3& point) { return kUniformPart + gradient() * point; }

// Asked for 1e-12, force and torque must match within 1e-10 of their size (measured ≤ 4.4e-15; the discs take 2842
// field evaluations, the rectangles one rule per face and its halves, 490); a wrong area element or angle range is off
// by O(1).
void expectLinearFieldForceAndTorque(const std::vector<ChargedFace>& faces, const Vector3& centre,
                                     const Vector3& moment, double size) {
  const MagnetInteraction result = chargedSurfaceInteraction(linearField, centre, faces, size, 1e-12);
  EXPECT_TRUE(result.converged);
  EXPECT_LT(relativeError(result.force, kVacuumPermeability * gradient() * moment), 1e-10);
  EXPECT_LT(relativeError(result.torque, kVacuumPermeability * moment.cross(linearField(centre))), 1e-10);
}

TEST(MagnetSurfaceChargeForce, IsExactInALinearFieldOverTheEndDiscsOfATiltedCylinder) {
  const Matrix3 axes = rotationFromEuler313(0.3, 0.9, -1.2);
  const double radius = 0.012, halfLength = 0.02, magnetisation = 8e5;
  const Vector3 centre(0.05, -0.02, 0.03);
  std::vector<ChargedFace> faces;
  for (const double side : {1.0, -1.0}) {
    faces.push_back({ChargedFace::Shape::kDisc, side * halfLength * axes.col(2), radius * axes.col(0),
                     radius * axes.col(1), side * magnetisation});
  }
  const Vector3 moment = magnetisation * std::numbers::pi * radius * radius * 2 * halfLength * axes.col(2);
  expectLinearFieldForceAndTorque(faces, centre, moment, std::hypot(radius, halfLength));
}

TEST(MagnetSurfaceChargeForce, IsExactInALinearFieldOverTheChargedFacesOfATiltedBox) {
  const Matrix3 axes = rotationFromEuler313(-0.7, 0.4, 2.1);
  const Vector3 halfExtents(0.01, 0.02, 0.015);
  const double magnetisation = 6e5;  // along the box's first axis: charged faces ±x
  const Vector3 centre(-0.03, 0.01, 0.04);
  std::vector<ChargedFace> faces;
  for (const double side : {1.0, -1.0}) {
    faces.push_back({ChargedFace::Shape::kRectangle, side * halfExtents.x() * axes.col(0),
                     halfExtents.y() * axes.col(1), halfExtents.z() * axes.col(2), side * magnetisation});
  }
  const Vector3 moment = magnetisation * 8 * halfExtents.prod() * axes.col(0);
  expectLinearFieldForceAndTorque(faces, centre, moment, halfExtents.norm());
}

}  // namespace
}  // namespace lodestone

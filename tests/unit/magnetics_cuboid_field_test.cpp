// The closed-form field of a uniformly magnetised cuboid (magnetics/cuboid_field.h), against references that do not
// share its formulas: symmetry, point dipoles, Maxwell's equations.
#include "magnetics/cuboid_field.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// A cube and a 1:2:3 box, magnetised obliquely to their edges (≈ 1.2 T and 0.5 T of polarisation).
const Cuboid kCuboid{{0.05, 0.05, 0.05}, {2e5, -1e5, 9e5}};
const Cuboid kBox{{0.01, 0.02, 0.03}, {1e5, 2e5, -3e5}};

// At the centre of a cube the demagnetising tensor is I/3 (its trace is 1 inside any body, and the cube's symmetry
// makes it isotropic there), so H = −M/3 exactly: this fixes the field's sign and its 1/(4π).
TEST(MagnetCuboidField, AtTheCentreOfACubeIsMinusAThirdOfItsMagnetisation) {
  EXPECT_LT(relativeError(cuboidField(kCuboid, Vector3::Zero()), -kCuboid.magnetisation / 3), 1e-14);
}

// Far away a cuboid is a dipole of moment M·V. The charge distribution is centrosymmetric, so the first correction
// is of relative order (ℓ/d)², and for a cube, whose second moments are isotropic, of order (ℓ/d)⁴. So the error
// falls by 4 (a box) or 16 (a cube) each time the distance doubles — measured 4.00–4.01 and 16.0–16.2 — and a cube at
// 50 sizes away is a dipole within 1e-5 (measured 1.9e-8). A 1:2:3 box at 50 sizes is not: 9.6e-5, its shape's
// quadrupole. Bounds on the ratios: ±5 %, wide of the measured spread, yet an error of any other order fails.
TEST(MagnetCuboidField, FarAwayIsTheFieldOfItsDipoleWithTheExpectedNextOrder) {
  const auto errorAt = [](const Cuboid& cuboid, double sizes) {
    const Vector3 point = sizes * 2 * cuboid.halfExtents.maxCoeff() * kSkewDirection;
    return relativeError(cuboidField(cuboid, point), dipoleField(volume(cuboid) * cuboid.magnetisation, point));
  };
  EXPECT_LT(errorAt(kCuboid, 50), 1e-5);
  // Far enough for round-off to dominate (the (ℓ/d)⁴ part is 1.2e-13): the closed form's terms cancel down to the
  // dipole field, and it keeps 2.0e-10 (measured; 6e-8 with the arctangents taken one by one).
  EXPECT_LT(errorAt(kCuboid, 1000), 1e-9);
  for (const double sizes : {5.0, 10.0}) EXPECT_NEAR(errorAt(kCuboid, sizes) / errorAt(kCuboid, 2 * sizes), 16, 0.8);
  for (const double sizes : {10.0, 20.0, 40.0}) EXPECT_NEAR(errorAt(kBox, sizes) / errorAt(kBox, 2 * sizes), 4, 0.2);
}

// Outside the magnet H is curl-free and divergence-free. Central differences with a step of 1e-5 of the box's size
// have a truncation error ~1e-10 and a round-off ~1e-11 of |∇H|; a term with a wrong sign or a swapped axis gives a
// curl or divergence of order |∇H|. Points: near faces, edges and corners, in the face planes and far away.
TEST(MagnetCuboidField, IsCurlFreeAndDivergenceFreeOutside) {
  const double size = 2 * kBox.halfExtents.maxCoeff();
  const double step = 1e-5 * size;
  const Vector3 h = kBox.halfExtents;
  const Vector3 points[] = {Vector3(0, 0, h.z() + 0.001),  Vector3(h.x() + 0.002, 0.3 * h.y(), -0.2 * h.z()),
                            Vector3(h.x() + 0.001, h.y() + 0.001, 0), h + Vector3(0.001, 0.002, 0.003),
                            Vector3(h.x(), 2 * h.y(), 0.5 * h.z()),  Vector3(-1.5 * h.x(), -h.y(), -1.2 * h.z()),
                            3 * size * kSkewDirection};
  for (const Vector3& point : points) {
    const auto [curl, divergence] =
        curlAndDivergence(fieldGradient([](const Vector3& x) { return cuboidField(kBox, x); }, point, step));
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    EXPECT_LT(curl, 1e-7);
    EXPECT_LT(divergence, 1e-7);
  }
}

// On the line of an edge (beyond the magnet, on either side) and in the plane of a face (beside it), the terms of the
// closed form are singular one by one (ln 0, atan(x/0)), but the field is smooth there. The value on such a point
// must be finite and match points 1e-9 of the size to either side; the field changes by ~1e-9 relative over that, a
// lost or doubled singular term by O(1).
TEST(MagnetCuboidField, IsFiniteAndContinuousOnTheLinesOfEdgesAndThePlanesOfFaces) {
  const Vector3 h = kBox.halfExtents;
  const double nudge = 1e-9 * 2 * h.maxCoeff();
  const Vector3 points[] = {Vector3(h.x(), h.y(), 2 * h.z()),    Vector3(-h.x(), 3 * h.y(), -h.z()),
                            Vector3(5 * h.x(), -h.y(), h.z()),   Vector3(h.x(), 2 * h.y(), 0.3 * h.z()),
                            Vector3(0.1 * h.x(), -h.y(), -2 * h.z()), Vector3(-3 * h.x(), 0.5 * h.y(), h.z()),
                            Vector3(h.x(), -h.y(), -2 * h.z()),  Vector3(-3 * h.x(), h.y(), -h.z())};
  for (const Vector3& point : points) {
    expectContinuousAt([](const Vector3& x) { return cuboidField(kBox, x); }, point, nudge);
  }
}

}  // namespace
}  // namespace lodestone

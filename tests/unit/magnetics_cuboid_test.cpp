// The closed-form field of a uniformly magnetised cuboid (magnetics/cuboid_field.h) and the force and torque between
// two cuboids by quadrature over the target's charged faces (magnetics/cuboid_force.h), each against a reference
// that does not share its formulas: symmetry, point dipoles, Maxwell's equations, Akoun & Yonnet's closed form.
#include "magnetics/cuboid_force.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "plugins/builtin/dipole.h"

namespace lodestone {
namespace {

double relativeError(const Vector3& value, const Vector3& reference) {
  return (value - reference).norm() / reference.norm();
}

double volume(const Cuboid& cuboid) { return 8 * cuboid.halfExtents.prod(); }

// H of a point dipole m at the origin.
Vector3 dipoleField(const Vector3& moment, const Vector3& point) {
  const double distance = point.norm();
  const Vector3 n = point / distance;
  return (3 * n * n.dot(moment) - moment) / (4 * std::numbers::pi * distance * distance * distance);
}

// A direction with no symmetry of the cuboid's, so no field component vanishes by accident.
const Vector3 kSkewDirection = Vector3(0.3, -0.5, 0.8).normalized();

// A cube and a 1:2:3 box, magnetised obliquely to their edges (≈ 1.2 T and 0.5 T of polarisation).
const Cuboid kCube{{0.05, 0.05, 0.05}, {2e5, -1e5, 9e5}};
const Cuboid kBox{{0.01, 0.02, 0.03}, {1e5, 2e5, -3e5}};

// At the centre of a cube the demagnetising tensor is I/3 (its trace is 1 inside any body, and the cube's symmetry
// makes it isotropic there), so H = −M/3 exactly: this fixes the field's sign and its 1/(4π).
TEST(MagnetCuboidField, AtTheCentreOfACubeIsMinusAThirdOfItsMagnetisation) {
  EXPECT_LT(relativeError(cuboidField(kCube, Vector3::Zero()), -kCube.magnetisation / 3), 1e-14);
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
  EXPECT_LT(errorAt(kCube, 50), 1e-5);
  // Far enough for round-off to dominate (the (ℓ/d)⁴ part is 1.2e-13): the closed form's terms cancel down to the
  // dipole field, and it keeps 2.0e-10 (measured; 6e-8 with the arctangents taken one by one).
  EXPECT_LT(errorAt(kCube, 1000), 1e-9);
  for (const double sizes : {5.0, 10.0}) EXPECT_NEAR(errorAt(kCube, sizes) / errorAt(kCube, 2 * sizes), 16, 0.8);
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
    Matrix3 gradient;  // gradient(i, j) = ∂Hᵢ/∂xⱼ
    for (int j = 0; j < 3; ++j) {
      const Vector3 offset = step * Vector3::Unit(j);
      gradient.col(j) = (cuboidField(kBox, point + offset) - cuboidField(kBox, point - offset)) / (2 * step);
    }
    const Vector3 curl(gradient(2, 1) - gradient(1, 2), gradient(0, 2) - gradient(2, 0),
                       gradient(1, 0) - gradient(0, 1));
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    EXPECT_LT(curl.norm(), 1e-7 * gradient.norm());
    EXPECT_LT(std::fabs(gradient.trace()), 1e-7 * gradient.norm());
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
    SCOPED_TRACE(::testing::Message() << "at " << point.transpose());
    const Vector3 field = cuboidField(kBox, point);
    ASSERT_TRUE(field.allFinite());
    for (const Vector3& direction : {Vector3(1, 1, 1), Vector3(-1, 1, -1), Vector3(1, -1, -1)}) {
      EXPECT_LT(relativeError(cuboidField(kBox, point + nudge * direction), field), 1e-6);
    }
  }
}

// Akoun & Yonnet (IEEE Trans. Magn. 20(5), 1984): the force on cuboid 2 (half-extents A, B, C, centre offset
// (α, β, γ)) from cuboid 1 (a, b, c), both magnetised along z, edges parallel: μ0·M1·M2/(4π) times a sum over the
// 64 corner pairs of φ(U, V, W), U = α + (±A) − (±a) and so on. An independent reference: it integrates the charge
// model in closed form, where cuboidInteraction integrates the closed-form field numerically.
Vector3 akounYonnetForce(const Vector3& halfExtents1, double magnetisation1, const Vector3& halfExtents2,
                         double magnetisation2, const Vector3& offset) {
  // ln(r − u) without the cancellation of r − u for u > 0, r² = u² + others².
  const auto logRMinus = [](double r, double u, double othersSquared) {
    return std::log(u > 0 ? othersSquared / (r + u) : r - u);
  };
  Vector3 sum = Vector3::Zero();
  for (int corners = 0; corners < 64; ++corners) {  // six signs ±1, one per bit: i, j, k, l, p, q
    const auto sign = [corners](int bit) { return (corners >> bit & 1) != 0 ? -1.0 : 1.0; };
    const double u = offset.x() + sign(1) * halfExtents2.x() - sign(0) * halfExtents1.x();
    const double v = offset.y() + sign(3) * halfExtents2.y() - sign(2) * halfExtents1.y();
    const double w = offset.z() + sign(5) * halfExtents2.z() - sign(4) * halfExtents1.z();
    const double r = std::sqrt(u * u + v * v + w * w);
    const double logRu = logRMinus(r, u, v * v + w * w), logRv = logRMinus(r, v, u * u + w * w);
    const double arctangent = w == 0 ? 0 : std::atan(u * v / (r * w));
    const Vector3 phi(0.5 * (v * v - w * w) * logRu + u * v * logRv + v * w * arctangent + 0.5 * r * u,
                      0.5 * (u * u - w * w) * logRv + u * v * logRu + u * w * arctangent + 0.5 * r * v,
                      -u * w * logRu - v * w * logRv + u * v * arctangent - r * w);
    sum += sign(0) * sign(1) * sign(2) * sign(3) * sign(4) * sign(5) * phi;
  }
  return kVacuumPermeability * magnetisation1 * magnetisation2 / (4 * std::numbers::pi) * sum;
}

// The case: two 0.1 m cubes magnetised along z (≈ 1.26 T), one above the other, coaxial and offset sideways,
// gaps 0.1 mm to 150 mm. Asked for 1e-8, the quadrature delivers ≤ 1.1e-9 (measured); the tolerance 1e-7 leaves the
// error estimate, which is not a bound, a factor 10, and is 5·10⁴ times tighter than the 0.5 %.
TEST(MagnetCuboidForce, MatchesAkounYonnetBetweenCubesMagnetisedAlongTheirCommonAxis) {
  const Cuboid cube{{0.05, 0.05, 0.05}, {0, 0, 1e6}};
  for (const double gap : {1e-4, 1e-3, 1e-2, 0.15}) {
    for (const Vector3& sideways : {Vector3(0, 0, 0), Vector3(0.03, 0.015, 0)}) {
      const CuboidPose pose{Matrix3::Identity(), sideways + Vector3(0, 0, 0.1 + gap)};
      const Vector3 reference = akounYonnetForce(cube.halfExtents, 1e6, cube.halfExtents, 1e6, pose.position);
      const CuboidInteraction result = cuboidInteraction(cube, cube, pose, 1e-8);
      SCOPED_TRACE(::testing::Message() << "gap " << gap << " m, offset " << sideways.transpose());
      EXPECT_TRUE(result.converged);
      EXPECT_LT(reference.z(), 0);  // like poles facing away from each other: they attract
      EXPECT_LT(relativeError(result.force, reference), 1e-7);
      // Coaxial, the pair has a square's symmetry about the common axis, so nothing turns the target.
      if (sideways.isZero()) {
        EXPECT_LT(result.torque.norm(), 1e-7 * 0.05 * result.force.norm());
      }
    }
  }
}

// Both directions of a rotated pair: the force on A from B is minus the force on B from A, and the torques about
// any common point (here A's centre) cancel. Each result is asked for 1e-10 and must agree within 1e-8.
TEST(MagnetCuboidForce, ObeysNewtonsThirdLawAndBalancesTorquesForARotatedPair) {
  const Cuboid a{{0.05, 0.03, 0.02}, {3e5, -2e5, 8e5}};
  const Cuboid b{{0.02, 0.04, 0.025}, {-1e5, 6e5, 2e5}};
  const Matrix3 rotation = rotationFromEuler313(0.4, 1.1, -0.7);
  // Centres 0.13 m apart, more than the sum of the half-diagonals (0.0616 + 0.0512): apart in every orientation.
  for (const Vector3& position : {Vector3(0.02, 0.03, 0.126), Vector3(0.12, -0.03, 0.04)}) {
    SCOPED_TRACE(::testing::Message() << "B at " << position.transpose());
    const CuboidInteraction onB = cuboidInteraction(a, b, {rotation, position}, 1e-10);
    // A seen from B: A's axes are Rᵀ in B's axes, its centre −Rᵀp; the results come back in B's axes.
    const CuboidInteraction onA =
        cuboidInteraction(b, a, {rotation.transpose(), -rotation.transpose() * position}, 1e-10);
    const Vector3 forceOnA = rotation * onA.force, torqueOnA = rotation * onA.torque;
    EXPECT_LT((onB.force + forceOnA).norm(), 1e-8 * onB.force.norm());
    const Vector3 torqueOnBAboutA = onB.torque + position.cross(onB.force);
    EXPECT_LT((torqueOnBAboutA + torqueOnA).norm(), 1e-8 * torqueOnA.norm());
  }
}

// A 1 mm cube 0.1 mm above a 200 mm plate, off its centre: integrated over the cube, the plate's field is smooth;
// integrated over the plate, the cube's field is a spike the panels must find, starting from one 7×7 rule per face.
// Both asked for 1e-9 and must agree within 1e-9 (measured 4.8e-11 in force, 5.2e-12 in torque): the cube's field
// must keep its digits 200 sizes away (cuboid_field.cpp, arctangentAcrossU; with the arctangents taken one by one,
// the plate's quadrature stalls above 1e-9). Akoun & Yonnet's sum is no reference here: its 64 terms of order
// (plate size)² cancel to the cube's force, leaving it 5e-8 off both.
TEST(MagnetCuboidForce, FindsASmallMagnetNearALargeOne) {
  const Cuboid cube{{0.0005, 0.0005, 0.0005}, {0, 2e5, 1e6}};
  const Cuboid plate{{0.1, 0.1, 0.005}, {1e5, 0, 1e6}};
  const Vector3 position(-0.0123, 0.0037, 0.0005 + 0.005 + 1e-4);  // the plate's centre from the cube's
  const CuboidInteraction onPlate = cuboidInteraction(cube, plate, {Matrix3::Identity(), position}, 1e-9);
  const CuboidInteraction onCube = cuboidInteraction(plate, cube, {Matrix3::Identity(), -position}, 1e-9);
  EXPECT_TRUE(onPlate.converged);
  EXPECT_TRUE(onCube.converged);
  EXPECT_LT((onPlate.force + onCube.force).norm(), 1e-9 * onCube.force.norm());
  const Vector3 torqueOnPlateAboutCube = onPlate.torque + position.cross(onPlate.force);
  EXPECT_LT((torqueOnPlateAboutCube + onCube.torque).norm(), 1e-9 * onCube.torque.norm());
}

// Far apart, two cubes are two dipoles of moments M·V: the force and torque are the DIPOLE law's
// (plugins/builtin/dipole.h, tested on its own). As for the field, the first correction is of order (ℓ/d)⁴ for
// cubes: measured 5.3e-8 (force) and 6.0e-8 (torque) at 50 sizes apart, and the error falls 16-fold (±5 %) as the
// distance doubles from 10 to 20 sizes.
TEST(MagnetCuboidForce, FarApartIsTheForceAndTorqueBetweenTwoDipoles) {
  const Cuboid a{{0.05, 0.05, 0.05}, {2e5, -1e5, 8e5}};
  const Cuboid b{{0.05, 0.05, 0.05}, {-3e5, 6e5, 1e5}};
  const Matrix3 rotation = rotationFromEuler313(0.4, 1.1, -0.7);
  const auto errors = [&](double sizes) {
    const CuboidPose pose{rotation, sizes * 0.1 * kSkewDirection};
    const CuboidInteraction result = cuboidInteraction(a, b, pose, 1e-10);
    const DipoleInteraction dipoles = magneticDipoleInteraction(volume(a) * a.magnetisation, Vector3::Zero(),
                                                                volume(b) * rotation * b.magnetisation,
                                                                pose.position, 0.0, kVacuumPermeability);
    return std::pair{relativeError(result.force, dipoles.forceOn2),
                     relativeError(result.torque, dipoles.momentOn2)};
  };
  const auto [forceError, torqueError] = errors(50);
  EXPECT_LT(forceError, 1e-6);
  EXPECT_LT(torqueError, 1e-6);
  const auto [forceAt10, torqueAt10] = errors(10);
  const auto [forceAt20, torqueAt20] = errors(20);
  EXPECT_NEAR(forceAt10 / forceAt20, 16, 0.8);
  EXPECT_NEAR(torqueAt10 / torqueAt20, 16, 0.8);
}

}  // namespace
}  // namespace lodestone

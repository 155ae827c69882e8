// The force and torque between two uniformly magnetised cuboids by quadrature over the target's charged faces
// (magnetics/cuboid_force.h), against references that do not share its formulas: Akoun & Yonnet's closed form,
// Newton's third law, point dipoles.
#include "magnetics/cuboid_force.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;


// The case: two 0.1 m cubes magnetised along z (≈ 1.26 T), one above the other, coaxial and offset sideways,
// gaps 0.1 mm to 150 mm. Asked for 1e-8, the quadrature delivers ≤ 1.1e-9 (measured); the tolerance 1e-7 leaves the
// error estimate, which is not a bound, a factor 10, and is 5·10⁴ times tighter than the 0.5 %.
TEST(MagnetCuboidForce, MatchesAkounYonnetBetweenCubesMagnetisedAlongTheirCommonAxis) {
  const Cuboid cube{{0.05, 0.05, 0.05}, {0, 0, 1e6}};
  for (const double gap : {1e-4, 1e-3, 1e-2, 0.15}) {
    for (const Vector3& sideways : {Vector3(0, 0, 0), Vector3(0.03, 0.015, 0)}) {
      const MagnetPose pose{Matrix3::Identity(), sideways + Vector3(0, 0, 0.1 + gap)};
      const Vector3 reference = akounYonnetForce(cube.halfExtents, 1e6, cube.halfExtents, 1e6, pose.position);
      const MagnetInteraction result = cuboidInteraction(cube, cube, pose, 1e-8);
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
    const MagnetInteraction onB = cuboidInteraction(a, b, {rotation, position}, 1e-10);
    // A seen from B: A's axes are Rᵀ in B's axes, its centre −Rᵀp; the results come back in B's axes.
    const MagnetInteraction onA =
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
  const MagnetInteraction onPlate = cuboidInteraction(cube, plate, {Matrix3::Identity(), position}, 1e-9);
  const MagnetInteraction onCube = cuboidInteraction(plate, cube, {Matrix3::Identity(), -position}, 1e-9);
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
    const MagnetPose pose{rotation, sizes * 0.1 * kSkewDirection};
    return errorsAgainstDipoles(cuboidInteraction(a, b, pose, 1e-10), volume(a) * a.magnetisation,
                                volume(b) * rotation * b.magnetisation, pose.position);
  };
  expectTheDipoleLimit(errors, 1e-6, 1e-6, 10, 16);
}

}  // namespace
}  // namespace lodestone

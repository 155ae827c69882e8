// The force and torque on a uniformly magnetised triangle mesh by quadrature over its charged triangles
// (magnetics/polyhedron_force.h), against references that do not share its formulas: the exact force in a linear
// field, the cuboid's interaction, Newton's third law, point dipoles.
#include "magnetics/polyhedron_force.h"

#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "magnetics/cuboid_force.h"
#include "solver/core/rotation.h"
#include "support/magnet_testing.h"

namespace lodestone {
namespace {

using namespace magnet_testing;

// An irregular octahedron (centred on its reference point, ≈ 1 T oblique to every face) and its volume.
const Vector3 kAxes[] = {{0.012, 0.002, -0.001}, {-0.003, 0.009, 0.002}, {0.001, -0.002, 0.02}};
Polyhedron forceIrregularOctahedron() { return octahedron(kAxes[0], kAxes[1], kAxes[2], {-2e5, 5e5, 6e5}); }
double forceOctahedronVolume() {
  Matrix3 axes;
  axes << kAxes[0], kAxes[1], kAxes[2];
  return 4 * axes.determinant() / 3;
}

// H(x) = H0 + G·x, G symmetric and traceless: on a body of moment m = M·V centred at c it exerts exactly F = μ0·G·m
// and, about c, T = μ0·m × H(c) (magnetics_surface_charge_force_test.cpp says why). On a triangle's collapsed square
// the force integrand is a polynomial of degree 2 in a and 1 in b, the torque's of degree 3 and 2, which the 7×7 rule
// integrates exactly: asked for 1e-12, both must match within 1e-10 (measured 4.4e-15 and 4.6e-17). A wrong area
// element (the factor a, |halfU × halfV|, the 1/4 of da·db) or a triangle mapped onto the wrong corners is off by O(1).
TEST(MagnetPolyhedronForce, IsExactInALinearFieldOverATiltedOctahedron) {
  Matrix3 gradient;
  gradient << 2e5, 5e4, -3e4, 5e4, -5e4, 7e4, -3e4, 7e4, -1.5e5;
  const Vector3 uniformPart(3e4, -1e4, 2e4);
  const auto linearField = [&](const Vector3& point) -> Vector3 { return uniformPart + gradient * point; };
  const MagnetPose pose{rotationFromEuler313(0.3, 0.9, -1.2), Vector3(0.05, -0.02, 0.03)};
  const Polyhedron target = forceIrregularOctahedron();
  const MagnetInteraction result = polyhedronInteraction(linearField, target, pose, 1e-12);
  const Vector3 moment = forceOctahedronVolume() * pose.rotation * target.magnetisation;
  EXPECT_TRUE(result.converged);
  EXPECT_LT(relativeError(result.force, kVacuumPermeability * gradient * moment), 1e-10);
  EXPECT_LT(relativeError(result.torque, kVacuumPermeability * moment.cross(linearField(pose.position))), 1e-10);
}

// The case with a mesh target: a 0.1 m cube as 12 triangles, magnetised obliquely (all its faces charged),
// above a 0.1 m cube source magnetised along z, coaxial and offset sideways, gaps 0.1 mm to 150 mm, against the exact
// cube target (cuboidInteraction, itself within 2.6e-11 of Akoun & Yonnet's closed form when asked 1e-10) asked for
// 1e-11. Asked for 1e-9, measured |δF|/|F| ≤ 3.9e-11 and |δT|/(ℓ·|F|) ≤ 3.5e-11. The tolerance 1e-8 leaves the error
// estimate, which is not a bound, a factor 10.
TEST(MagnetPolyhedronForce, OfACubeAsTrianglesIsTheCuboidsInteraction) {
  const Cuboid source{{0.05, 0.05, 0.05}, {0, 0, 1e6}};
  const Cuboid cube{{0.05, 0.05, 0.05}, {2e5, -3e5, 8e5}};
  const Polyhedron mesh = cuboidMesh(cube, 1);
  const double torqueLength = cube.halfExtents.norm();
  for (const double gap : {1e-4, 1e-3, 1e-2, 0.15}) {
    for (const Vector3& sideways : {Vector3(0, 0, 0), Vector3(0.03, 0.015, 0)}) {
      const MagnetPose pose{Matrix3::Identity(), sideways + Vector3(0, 0, 0.1 + gap)};
      SCOPED_TRACE(::testing::Message() << "gap " << gap << " m, offset " << sideways.transpose());
      const MagnetInteraction reference = cuboidInteraction(source, cube, pose, 1e-11);
      const MagnetInteraction result = polyhedronInteraction(source, mesh, pose, 1e-9);
      EXPECT_TRUE(result.converged);
      EXPECT_LT(relativeError(result.force, reference.force), 1e-8);
      EXPECT_LT((result.torque - reference.torque).norm(), 1e-8 * torqueLength * reference.force.norm());
    }
  }
}

// The other way round: the mesh as the source. A 0.1 m cube as 2 × 2 × 2 triangles per face, magnetised obliquely,
// its PolyhedronField the source of cuboidInteraction on a cube above it, against the exact cube source (asked 1e-11).
// The target's quadrature points come within 1e-3 of the size of the source's faces, where the mesh field keeps
// ~1e-13 (polyhedron_field.h). Asked for 1e-9, measured ≤ 8.7e-11 in force, 6.3e-11 in torque/ℓ; tolerance 1e-8.
TEST(MagnetPolyhedronForce, AsASourceACubesTrianglesExertTheCuboidsForce) {
  const Cuboid source{{0.05, 0.05, 0.05}, {2e5, -3e5, 8e5}};
  const Cuboid target{{0.05, 0.05, 0.05}, {0, 0, 1e6}};
  const PolyhedronField meshField(cuboidMesh(source, 2));
  const SourceField field = [&meshField](const Vector3& point) { return meshField(point); };
  for (const double gap : {1e-4, 1e-2}) {
    for (const Vector3& sideways : {Vector3(0, 0, 0), Vector3(0.03, 0.015, 0)}) {
      const MagnetPose pose{Matrix3::Identity(), sideways + Vector3(0, 0, 0.1 + gap)};
      SCOPED_TRACE(::testing::Message() << "gap " << gap << " m, offset " << sideways.transpose());
      const MagnetInteraction reference = cuboidInteraction(source, target, pose, 1e-11);
      const MagnetInteraction result = cuboidInteraction(field, target, pose, 1e-9);
      EXPECT_TRUE(result.converged);
      EXPECT_LT(relativeError(result.force, reference.force), 1e-8);
      EXPECT_LT((result.torque - reference.torque).norm(), 1e-8 * target.halfExtents.norm() * reference.force.norm());
    }
  }
}

// The cube with each face cut into 4 × 4 squares, 192 triangles, in a rotated pose 1 mm from the source: the same
// body, so the same force and torque as its 12 triangles, though the panels differ. Both asked for 1e-10, they must
// agree within 1e-8 (measured 1.7e-12 in force, 7.2e-12 in torque).
TEST(MagnetPolyhedronForce, OfAFinerTessellationIsTheSame) {
  const Cuboid source{{0.05, 0.03, 0.02}, {1e5, 2e5, 9e5}};
  const Cuboid cube{{0.02, 0.02, 0.02}, {2e5, -3e5, 8e5}};
  const Matrix3 rotation = rotationFromEuler313(0.2, 0.1, -0.3);
  // The tilted cube's lowest corner is 0.02·(|R₂₀| + |R₂₁| + |R₂₂|) below its centre: 1 mm above the source.
  const double reach = 0.02 * rotation.row(2).cwiseAbs().sum();
  const MagnetPose pose{rotation, Vector3(0.01, -0.005, 0.02 + reach + 1e-3)};
  const MagnetInteraction coarse = polyhedronInteraction(source, cuboidMesh(cube, 1), pose, 1e-10);
  const MagnetInteraction fine = polyhedronInteraction(source, cuboidMesh(cube, 4), pose, 1e-10);
  EXPECT_TRUE(coarse.converged);
  EXPECT_TRUE(fine.converged);
  EXPECT_LT(relativeError(fine.force, coarse.force), 1e-8);
  EXPECT_LT(relativeError(fine.torque, coarse.torque), 1e-8);
}

// Both directions of a rotated pair, a mesh and a cuboid: the force on the cuboid in the octahedron's field
// (PolyhedronField as the source of cuboidInteraction) and on the octahedron in the cuboid's. F on A = −F on B, and
// the torques about a common point (the cuboid's centre) cancel. Asked for 1e-10, they must agree within 1e-8
// (measured ≤ 2.4e-12 in force, 2.3e-12 in torque).
TEST(MagnetPolyhedronForce, ObeysNewtonsThirdLawWithACuboid) {
  const Cuboid cuboid{{0.02, 0.015, 0.01}, {3e5, -2e5, 8e5}};
  const Polyhedron octa = forceIrregularOctahedron();
  const PolyhedronField octaField(octa);
  const Matrix3 rotation = rotationFromEuler313(0.4, 1.1, -0.7);
  // Centres 0.06 m apart, more than the cuboid's half-diagonal and the octahedron's largest half-axis (0.027 + 0.020).
  for (const Vector3& position : {Vector3(0.01, 0.02, 0.055), Vector3(0.055, -0.02, 0.012)}) {
    SCOPED_TRACE(::testing::Message() << "octahedron at " << position.transpose());
    const MagnetInteraction onMesh = polyhedronInteraction(cuboid, octa, {rotation, position}, 1e-10);
    // The cuboid seen from the octahedron: axes Rᵀ, centre −Rᵀp; its results come back in the octahedron's axes.
    const MagnetInteraction onCuboid =
        cuboidInteraction(octaField, cuboid, {rotation.transpose(), -rotation.transpose() * position}, 1e-10);
    EXPECT_TRUE(onMesh.converged);
    EXPECT_TRUE(onCuboid.converged);
    const Vector3 forceOnCuboid = rotation * onCuboid.force, torqueOnCuboid = rotation * onCuboid.torque;
    EXPECT_LT((onMesh.force + forceOnCuboid).norm(), 1e-8 * onMesh.force.norm());
    const Vector3 torqueOnMeshAboutCuboid = onMesh.torque + position.cross(onMesh.force);
    EXPECT_LT((torqueOnMeshAboutCuboid + torqueOnCuboid).norm(), 1e-8 * torqueOnCuboid.norm());
  }
}

// Two meshes: the octahedron and a tetrahedron whose reference point (its axes' origin) is off its centroid, so the
// torque's reference point matters. Asked for 1e-10, the two directions must agree within 1e-8 (measured 3.6e-11 in
// force, 1.3e-11 in torque).
TEST(MagnetPolyhedronForce, ObeysNewtonsThirdLawBetweenTwoMeshes) {
  const Polyhedron tetrahedron{{{0.01, -0.004, 0.002}, {-0.006, 0.012, -0.003}, {-0.005, -0.009, 0.001},
                                {0.002, 0.001, 0.015}},
                               {{0, 2, 1}, {0, 1, 3}, {1, 2, 3}, {2, 0, 3}},
                               {3e5, -1e5, 2.5e5}};
  const Polyhedron octa = forceIrregularOctahedron();
  const Matrix3 rotation = rotationFromEuler313(-0.5, 0.8, 1.9);
  const Vector3 position(0.012, -0.03, 0.03);  // 0.044 m: more than 0.020 + 0.015, the two bodies' reaches
  const MagnetInteraction onTetrahedron = polyhedronInteraction(octa, tetrahedron, {rotation, position}, 1e-10);
  const MagnetInteraction onOctahedron =
      polyhedronInteraction(tetrahedron, octa, {rotation.transpose(), -rotation.transpose() * position}, 1e-10);
  EXPECT_TRUE(onTetrahedron.converged);
  EXPECT_TRUE(onOctahedron.converged);
  const Vector3 forceOnOctahedron = rotation * onOctahedron.force, torqueOnOctahedron = rotation * onOctahedron.torque;
  EXPECT_LT((onTetrahedron.force + forceOnOctahedron).norm(), 1e-8 * onTetrahedron.force.norm());
  const Vector3 torqueOnTetrahedronAboutOctahedron = onTetrahedron.torque + position.cross(onTetrahedron.force);
  EXPECT_LT((torqueOnTetrahedronAboutOctahedron + torqueOnOctahedron).norm(), 1e-8 * torqueOnOctahedron.norm());
}

// Far apart, two octahedra are two dipoles of moments M·V at their centres (the DIPOLE law's force and torque,
// plugins/builtin/dipole.h). Their second moments are not isotropic, so the first correction is of relative order
// (ℓ/d)²: the errors fall 4-fold (±5 %; measured 4.000–4.006) as the distance doubles from 10 sizes, and at 50 sizes
// are below 1e-3 (measured 7.5e-5 in force, 1.2e-4 in torque).
TEST(MagnetPolyhedronForce, FarApartIsTheForceAndTorqueBetweenTwoDipoles) {
  const Polyhedron a = forceIrregularOctahedron();
  Polyhedron b = forceIrregularOctahedron();
  b.magnetisation = Vector3(-3e5, 6e5, 1e5);
  const Matrix3 rotation = rotationFromEuler313(0.4, 1.1, -0.7);
  const auto errors = [&](double sizes) {
    const MagnetPose pose{rotation, sizes * 0.04 * kSkewDirection};
    return errorsAgainstDipoles(polyhedronInteraction(a, b, pose, 1e-10), forceOctahedronVolume() * a.magnetisation,
                                forceOctahedronVolume() * rotation * b.magnetisation, pose.position);
  };
  expectTheDipoleLimit(errors, 1e-3, 1e-3, 10, 4);
}

}  // namespace
}  // namespace lodestone

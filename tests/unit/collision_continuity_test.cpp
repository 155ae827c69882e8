// The signed distance as a root function: along straight paths through touching it changes sign exactly at the
// analytic touching configuration and has no jumps. Translation at unit speed changes a signed distance by at
// most the distance travelled, so consecutive samples may differ by at most the step (plus rounding).
#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include <gtest/gtest.h>

#include "collision/mesh_geometry.h"
#include "collision/tessellation.h"
#include "collision_test_support.h"
#include "mesh_test_support.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {

using testing::poseOf;


// A moves from `start` along the unit `direction`; it touches B at path parameter `touching`.
void expectRootAtTouching(const Shape& a, const Matrix3& rotationA, const Vector3& start, const Vector3& direction,
                          const Shape& b, const Pose& poseB, double touching, double span) {
  auto signedDistanceAt = [&](double t) {
    std::vector<ContactPoint> points;
    const double value = collide(a, {start + t * direction, rotationA}, b, poseB, 10.0, points);
    EXPECT_EQ(points.empty(), value >= 0) << "points appear exactly while overlapping, t = " << t;
    return value;
  };
  // At the analytic touching configuration the value is zero to rounding (1e-12 relative to the path scale).
  const double scale = std::max(1.0, std::abs(touching));
  EXPECT_NEAR(signedDistanceAt(touching), 0.0, 1e-12 * scale);
  EXPECT_GT(signedDistanceAt(touching - 1e-9 * scale), 0.0);
  EXPECT_LT(signedDistanceAt(touching + 1e-9 * scale), 0.0);
  // No jumps across the whole path.
  const int samples = 2000;
  const double step = 2 * span / samples;
  double previous = signedDistanceAt(touching - span);
  for (int k = 1; k <= samples; ++k) {
    const double t = touching - span + k * step;
    const double value = signedDistanceAt(t);
    EXPECT_LE(std::abs(value - previous), step * (1 + 1e-9) + 1e-14) << "jump at t = " << t;
    if (std::abs(t - touching) > 1e-10 * scale) {
      EXPECT_EQ(value > 0, t < touching) << "sign at t = " << t;
    }
    previous = value;
  }
}

TEST(CollisionContinuity, SphereSphere) {
  const Vector3 direction = Vector3(-1, 0.2, 0.1).normalized();
  // A starts 3 away from B's centre and reaches distance 1.5 (the radii's sum) after 1.5.
  expectRootAtTouching(Shape::sphere(1.0), Matrix3::Identity(), -3 * direction, direction, Shape::sphere(0.5),
                       poseOf(Vector3::Zero()), 1.5, 0.4);
}

TEST(CollisionContinuity, SphereOntoBoxFaceAndEdge) {
  const Pose poseB = poseOf(Vector3(0.1, 0.2, 0.3), 0.4, Vector3(1, 1, 1));
  const Shape box = Shape::box(Vector3(1, 2, 3));
  // Straight down onto the +z face (B's frame), through touching and on into the box's middle.
  expectRootAtTouching(Shape::sphere(0.5), Matrix3::Identity(), poseB.position + poseB.rotation * Vector3(0.2, 0.3, 4.5),
                       poseB.rotation * -Vector3::UnitZ(), box, poseB, 1.0, 0.9);
  // Diagonally onto the (x, y) edge.
  const Vector3 diagonal = Vector3(1, 1, 0).normalized();
  expectRootAtTouching(Shape::sphere(0.5), Matrix3::Identity(),
                       poseB.position + poseB.rotation * (Vector3(1, 2, 0) + 2 * diagonal),
                       poseB.rotation * -diagonal, box, poseB, 1.5, 0.4);
}

TEST(CollisionContinuity, SphereOntoCylinderRimAndFrustumSide) {
  const Pose pose = poseOf(Vector3(0, 1, 0), 0.7, Vector3(0, 1, 1));
  const Vector3 rimDirection = Vector3(0.6, 0, 0.8);
  expectRootAtTouching(Shape::sphere(0.5), Matrix3::Identity(), pose.position + pose.rotation * (Vector3(1, 0, 2) + 2 * rimDirection),
                       pose.rotation * -rimDirection, Shape::cylinder(1.0, 2.0), pose, 1.5, 0.4);
  // Frustum (1, 0.5, 2): along the side's outward normal through the side's midpoint.
  const Vector3 normal = Vector3(2, 0, 0.5).normalized();
  expectRootAtTouching(Shape::sphere(0.5), Matrix3::Identity(), pose.position + pose.rotation * (Vector3(0.75, 0, 1) + 2 * normal),
                       pose.rotation * -normal, Shape::frustum(1.0, 0.5, 2.0), pose, 1.5, 0.4);
}

// A tessellated sphere and cylinder as the smooth surfaces they stand for (the default crease angle) touch where the
// exact shapes do: level 0, a mesh against the exact box, turned so that no node is lowest.
TEST(CollisionContinuity, SmoothMeshesTouchWhereTheExactShapesDo) {
  const double crease = kDefaultCreaseAngleDegrees * kPi / 180;
  const Shape sphere = Shape::mesh(std::make_shared<MeshGeometry>(tessellate(Shape::sphere(0.5), 0), crease));
  const Matrix3 turned = Eigen::AngleAxisd(0.3, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  const Shape base = Shape::box(Vector3(3, 3, 1));
  expectRootAtTouching(sphere, turned, Vector3(0.2, 0.1, 3), -Vector3::UnitZ(), base, poseOf(Vector3::Zero()), 1.5,
                       0.4);
  const Shape cylinder =
      Shape::mesh(std::make_shared<MeshGeometry>(tessellate(Shape::cylinder(0.5, 1.0), 0), crease));
  const Matrix3 lying = Eigen::AngleAxisd(kPi / 2, Vector3::UnitY()).toRotationMatrix() *
                        Eigen::AngleAxisd(0.1, Vector3::UnitZ()).toRotationMatrix();
  expectRootAtTouching(cylinder, lying, Vector3(0.2, 0, 3), -Vector3::UnitZ(), base, poseOf(Vector3::Zero()), 1.5,
                       0.4);
}

TEST(CollisionContinuity, BoxOntoBoxFaceAndCrossedEdges) {
  const Shape cube = Shape::box(Vector3(1, 1, 1));
  // A tilted cube descending onto a face: its lowest vertex reaches the top face at z = 1.
  const Matrix3 tilted = Eigen::AngleAxisd(0.3, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  const double reach = (tilted.cwiseAbs() * Vector3::Ones()).z();
  expectRootAtTouching(cube, tilted, Vector3(0.2, 0.1, 3 + reach), -Vector3::UnitZ(), Shape::box(Vector3(3, 3, 1)),
                       poseOf(Vector3::Zero()), 2.0, 0.5);
  // Crossed edges: touching when the centres are 2√2 apart vertically.
  const Matrix3 aboutX = Eigen::AngleAxisd(kPi / 4, Vector3::UnitX()).toRotationMatrix();
  expectRootAtTouching(cube, aboutX, Vector3(0.1, 0.2, 4), -Vector3::UnitZ(), cube,
                       poseOf(Vector3::Zero(), kPi / 4, Vector3::UnitY()), 4 - 2 * std::sqrt(2.0), 0.3);
}

TEST(CollisionContinuity, CylinderOntoBoxLyingAndOnItsRim) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const Matrix3 lying = Eigen::AngleAxisd(kPi / 2, Vector3::UnitY()).toRotationMatrix();
  expectRootAtTouching(cylinder, lying, Vector3(0.2, 0, 3), -Vector3::UnitZ(), base, poseOf(Vector3::Zero()), 1.5,
                       0.4);
  const Matrix3 tilted = Eigen::AngleAxisd(0.5, Vector3::UnitX()).toRotationMatrix();
  const double reach = std::cos(0.5) + 0.5 * std::sin(0.5);
  expectRootAtTouching(cylinder, tilted, Vector3(0, 0, 3), -Vector3::UnitZ(), base, poseOf(Vector3::Zero()),
                       2 - reach, 0.4);
}

// Right through: A moves along `direction` from `start` until it is out the far side of B. The signed distance must
// not jump anywhere on the way (at unit speed it changes by at most the step, and by `slack` more for routines that
// only approximate the depth), must be negative while the shapes overlap by the path's known overlap interval
// [enter, leave], and positive outside it (kUnknownOverlap: not asserted). A sampled surface (triangle centres)
// lies inside the true one by up to `sampling`: it overlaps for less than the whole interval, but never outside it.
constexpr double kUnknownOverlap = std::numeric_limits<double>::quiet_NaN();

void expectContinuousThrough(const Shape& a, const Matrix3& rotationA, const Vector3& start, const Vector3& direction,
                             const Shape& b, const Pose& poseB, double enter, double leave, double length,
                             const ContactOptions& options = {}, double slack = 0, double sampling = 0) {
  const int samples = 4000;
  const double step = length / samples;
  double previous = 0;
  double largestJump = 0, jumpAt = 0;
  for (int k = 0; k <= samples; ++k) {
    const double t = k * step;
    std::vector<ContactPoint> points;
    const double value = collide(a, {start + t * direction, rotationA}, b, poseB, 1e9, points, options);
    if (k > 0 && std::abs(value - previous) > largestJump) largestJump = std::abs(value - previous), jumpAt = t;
    const double margin = 2 * step;
    if (t > enter + sampling + margin && t < leave - sampling - margin) {
      EXPECT_LT(value, 0.0) << "apart while overlapping, t = " << t;
    }
    if (t < enter - margin || t > leave + margin) {
      EXPECT_GT(value, 0.0) << "overlapping while apart, t = " << t;
    }
    previous = value;
  }
  EXPECT_LE(largestJump, step * (1 + 1e-9) + slack + 1e-14) << "jump at t = " << jumpAt;
}

const Vector3 kDown = -Vector3::UnitZ();

TEST(CollisionContinuityThrough, SpheresBoxesCylindersFrustums) {
  // Each A starts 1 above B's top, with its lowest point at z = top + 1, and goes down 4 + its height.
  const Shape plate = Shape::box(Vector3(2, 2, 0.05));  // thinner than every A: the deeper side flips inside it
  const Pose at = poseOf(Vector3::Zero());
  const Shape sphere = Shape::sphere(0.3);
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(0.1, 0.2, 1.35), kDown, plate, at, 1.0, 1.7, 3);
  // Off the axis by √0.05: the centres are 0.5 apart at height ±√(0.25 − 0.05).
  const double touching = std::sqrt(0.25 - 0.05);
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(0.1, 0.2, 1.35), kDown, Shape::sphere(0.2), at,
                          1.35 - touching, 1.35 + touching, 3);
  const Shape cylinder = Shape::cylinder(0.3, 0.6);
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(0.1, 0, 1.9), kDown, cylinder, at, 1.0, 2.8, 4);
  // Sideways through the cylinder's side, and down a frustum's axis (apex up: a cone).
  const double sideways = std::sqrt(0.6 * 0.6 - 0.05 * 0.05);  // the centre 0.6 from the axis
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(-1.6, 0.05, 0.1), Vector3::UnitX(), cylinder, at,
                          1.6 - sideways, 1.6 + sideways, 3.2);
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(0, 0, 2.3), kDown, Shape::frustum(0.5, 0, 1.0), at,
                          1.0, 2.6, 3.5);
  // A tilted box and a tilted cylinder right through the plate.
  const Matrix3 tilted = Eigen::AngleAxisd(0.4, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  const Shape brick = Shape::box(Vector3(0.3, 0.2, 0.1));
  const double brickReach = (tilted.cwiseAbs() * brick.halfExtents).z();
  expectContinuousThrough(brick, tilted, Vector3(0.1, 0, 1.05 + brickReach), kDown, plate, at, 1.0,
                          1.1 + 2 * brickReach, 3);
  const double cylinderReach = 0.6 * std::abs(tilted(2, 2)) + 0.3 * std::sqrt(1 - tilted(2, 2) * tilted(2, 2));
  expectContinuousThrough(cylinder, tilted, Vector3(0.1, 0, 1.05 + cylinderReach), kDown, plate, at, 1.0,
                          1.1 + 2 * cylinderReach, 4);
}

TEST(CollisionContinuityThrough, PairsThroughFcl) {
  // GJK/EPA's depth is an iteration's answer: continuous to within a small part of the shapes' size.
  const Shape plate = Shape::box(Vector3(2, 2, 0.05));
  const Pose at = poseOf(Vector3::Zero());
  const Matrix3 tilted = Eigen::AngleAxisd(0.4, Vector3(1, 2, 0).normalized()).toRotationMatrix();
  const Shape ellipsoid = Shape::ellipsoid(Vector3(0.3, 0.2, 0.25));
  const double reach = (tilted * ellipsoid.semiAxes.asDiagonal()).row(2).norm();
  expectContinuousThrough(ellipsoid, tilted, Vector3(0.1, 0, 1.05 + reach), kDown, plate, at, 1.0, 1.1 + 2 * reach, 3,
                          {}, 1e-3);
  expectContinuousThrough(Shape::cylinder(0.3, 0.5), Matrix3::Identity(), Vector3(0.05, 0, 2.0), kDown,
                          Shape::cylinder(0.2, 0.1), at, 1.4, 2.6, 3.5, {}, 1e-3);
  expectContinuousThrough(Shape::frustum(0.3, 0.1, 0.5), Matrix3::Identity(), Vector3(0.05, 0, 1.05), kDown, plate, at,
                          1.0, 1.6, 3, {}, 1e-3);
}

TEST(CollisionContinuityThrough, MeshPairs) {
  // Sampled surfaces: a tessellated sphere (enable_analytical="FALSE") and a mesh cube through a thin plate, exact
  // or itself a mesh. Their samples are points, each with a continuous signed distance, so the smallest is
  // continuous too, including where the near range caps the gap and where the bounding spheres stop it.
  Shape sphere = Shape::sphere(0.3);
  sphere.surface = std::make_shared<MeshGeometry>(tessellate(sphere, 1));
  Shape plate = Shape::box(Vector3(2, 2, 0.05));
  plate.surface = std::make_shared<MeshGeometry>(tessellate(plate, 0));
  const Pose at = poseOf(Vector3::Zero());
  ContactOptions tessellated;
  tessellated.analytical = false;
  // Samples sit on the true sphere, so the overlap interval is the exact one to within the samples' spacing.
  const double spacing = 0.06;
  expectContinuousThrough(sphere, Matrix3::Identity(), Vector3(0.1, 0.2, 1.35), kDown, plate, at, 1.0, 1.7, 3,
                          tessellated, 0, spacing);
  // As the smooth sphere its facets stand for, the sphere overlaps the plate exactly while the exact sphere does.
  // Once its far side is through the plate, its triangles' estimate of its deepest point (the plate's far face is
  // then the nearer) gives way to their centres over a facet's sag: continuous, but there its value changes up to
  // three times as fast as the sphere moves.
  const double crease = kDefaultCreaseAngleDegrees * kPi / 180;
  Shape smoothSphere = Shape::sphere(0.3);
  smoothSphere.surface = std::make_shared<MeshGeometry>(tessellate(smoothSphere, 0), crease);
  expectContinuousThrough(smoothSphere, Matrix3::Identity(), Vector3(0.1, 0.2, 1.35), kDown, plate, at, 1.0, 1.7, 3,
                          tessellated, 2 * 3.0 / 4000);
  const Shape cube = Shape::mesh(std::make_shared<MeshGeometry>(testing::scaledAndMoved(testing::unitCube(), 0.4,
                                                                                      Vector3(-0.2, -0.2, -0.2))));
  // The cube's triangle centres against the plate, exact and as a mesh. Whether some centre is inside the plate
  // while the cube crosses it depends on where the centres are: only continuity is asserted.
  ContactOptions cubeSampled;
  cubeSampled.master = MasterSurface::J;
  expectContinuousThrough(cube, Matrix3::Identity(), Vector3(0.05, 0.05, 1.25), kDown, plate, at, kUnknownOverlap,
                          kUnknownOverlap, 3, cubeSampled);
  cubeSampled.analytical = false;
  expectContinuousThrough(cube, Matrix3::Identity(), Vector3(0.05, 0.05, 1.25), kDown, plate, at, kUnknownOverlap,
                          kUnknownOverlap, 3, cubeSampled);
}

}  // namespace
}  // namespace lodestone

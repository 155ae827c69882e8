// Box–box and cylinder–box: patches give several points (a box flat on a box gives its 4 corners, a cylinder
// lying on a face its 2 line ends), tilted contacts give edge and vertex points, each with its own depth.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "collision_test_support.h"

namespace lodestone {
namespace {

using testing::expectConventions;
using testing::expectSwappedMirrors;
using testing::poseOf;

constexpr double kPi = std::numbers::pi;
constexpr double kTolerance = 1e-12;

TEST(CollisionBoxBox, FlatOnLargerBoxGivesFourCornersWithEqualDepth) {
  const Shape top = Shape::box(Vector3(0.5, 0.5, 0.5)), base = Shape::box(Vector3(2, 2, 1));
  for (double yaw : {0.0, 0.5, 1.2}) {
    const Pose poseB = poseOf(Vector3(0, 0, 0));
    const Pose poseA = poseOf(Vector3(0.1, -0.2, 1.49), yaw);
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(top, poseA, base, poseB, 0, points), -0.01, kTolerance);
    ASSERT_EQ(points.size(), 4u);
    for (const ContactPoint& point : points) {
      EXPECT_NEAR(point.depth, 0.01, kTolerance);
      EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), kTolerance);
      EXPECT_NEAR(point.pointOnA.z(), 0.99, kTolerance);
      EXPECT_NEAR(point.pointOnB.z(), 1.0, kTolerance);
      // Each corner of the top box's bottom face: 0.5 from its centre along both of its axes.
      const Vector3 local = poseA.rotation.transpose() * (point.pointOnA - poseA.position);
      EXPECT_NEAR(std::abs(local.x()), 0.5, kTolerance);
      EXPECT_NEAR(std::abs(local.y()), 0.5, kTolerance);
      EXPECT_NEAR(point.area, 0.25, kTolerance);  // the 1 × 1 face shared by 4
    }
    expectConventions(points);
    expectSwappedMirrors(top, poseA, base, poseB);
  }
}

TEST(CollisionBoxBox, FlatOnSmallerBoxClipsToTheSmallerFace) {
  // The big box on top of a small one: the patch is the small box's top face, its 4 corners.
  const Shape top = Shape::box(Vector3(2, 2, 1)), base = Shape::box(Vector3(0.5, 0.5, 0.5));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(top, poseOf(Vector3(0.3, 0, 1.48)), base, poseOf(Vector3::Zero(), 0.3), 0, points), -0.02,
              kTolerance);
  ASSERT_EQ(points.size(), 4u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.02, kTolerance);
    EXPECT_NEAR(point.pointOnB.z(), 0.5, kTolerance);
    EXPECT_NEAR(point.area, 0.25, kTolerance);
  }
  expectConventions(points);
}

TEST(CollisionBoxBox, BoxOnItsEdgeGivesTwoPointsAndOnItsVertexOne) {
  const Shape cube = Shape::box(Vector3(0.5, 0.5, 0.5)), base = Shape::box(Vector3(3, 3, 1));
  // Tilted 10° about x: the lowest edge (along x) is 0.5(cos θ + sin θ) below the centre.
  const double angle = 10 * kPi / 180;
  const double reach = 0.5 * (std::cos(angle) + std::sin(angle));
  const Pose onEdge = poseOf(Vector3(0.2, 0.1, 1 + reach - 0.003), angle, Vector3::UnitX());
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cube, onEdge, base, poseOf(Vector3::Zero()), 0, points), -0.003, kTolerance);
  ASSERT_EQ(points.size(), 2u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.003, kTolerance);
    EXPECT_NEAR(std::abs(point.pointOnA.x() - 0.2), 0.5, kTolerance);  // the two ends of the edge
  }
  // Patch: the bottom face below the base's top, 0.003/sin θ up the slope, projected: a strip 1 × 0.003/tan θ.
  const double width = 0.003 / std::tan(angle);
  EXPECT_NEAR(points[0].area + points[1].area, width, 1e-12);
  expectConventions(points);
  expectSwappedMirrors(cube, onEdge, base, poseOf(Vector3::Zero()));

  // Tilted about two axes: one vertex lowest.
  const Matrix3 rotation = (Eigen::AngleAxisd(0.3, Vector3::UnitX()) * Eigen::AngleAxisd(0.2, Vector3::UnitY()))
                               .toRotationMatrix();
  const double lowest = (rotation.cwiseAbs() * Vector3(0.5, 0.5, 0.5)).z();
  const Pose onVertex{Vector3(0, 0, 1 + lowest - 0.004), rotation};
  points.clear();
  EXPECT_NEAR(collide(cube, onVertex, base, poseOf(Vector3::Zero()), 0, points), -0.004, kTolerance);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(points[0].depth, 0.004, kTolerance);
  EXPECT_NEAR(points[0].pointOnA.z(), 1 - 0.004, kTolerance);
  expectConventions(points);
}

TEST(CollisionBoxBox, CrossedEdgesGiveOnePointOnBothEdges) {
  // A cube turned 45° about x on one turned 45° about y: their edges cross at right angles, one above the other.
  const Shape cube = Shape::box(Vector3(1, 1, 1));
  const Pose poseB = poseOf(Vector3::Zero(), kPi / 4, Vector3::UnitY());
  const Pose poseA = poseOf(Vector3(0.1, 0.2, 2 * std::sqrt(2.0) - 0.01), kPi / 4, Vector3::UnitX());
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cube, poseA, cube, poseB, 0, points), -0.01, kTolerance);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal - Vector3::UnitZ()).norm(), kTolerance);
  // A's lowest edge runs along x at y = 0.2; B's highest along y at x = 0: they cross at (0, 0.2).
  EXPECT_LT((points[0].pointOnA - Vector3(0, 0.2, std::sqrt(2.0) - 0.01)).norm(), kTolerance);
  EXPECT_LT((points[0].pointOnB - Vector3(0, 0.2, std::sqrt(2.0))).norm(), kTolerance);
  expectConventions(points);
  expectSwappedMirrors(cube, poseA, cube, poseB);
  points.clear();
  EXPECT_NEAR(collide(cube, poseOf(poseA.position + Vector3(0, 0, 0.03), poseA.rotation), cube, poseB, 1, points),
              0.02, kTolerance);
  EXPECT_TRUE(points.empty());
}

TEST(CollisionCylinderBox, LyingOnAFaceGivesTwoLineEnds) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  for (double yaw : {0.0, 0.7, 2.0}) {
    // Axis horizontal at angle `yaw`: turn the z axis down onto x, then about z.
    const Matrix3 rotation = (Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(kPi / 2, Vector3::UnitY()))
                                 .toRotationMatrix();
    const Pose poseA{Vector3(0.3, -0.2, 1.5 - 0.02), rotation};
    const Pose poseB = poseOf(Vector3::Zero(), 0.1);
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(cylinder, poseA, base, poseB, 0, points), -0.02, kTolerance);
    ASSERT_EQ(points.size(), 2u);
    const Vector3 axis = rotation.col(2);
    for (const ContactPoint& point : points) {
      EXPECT_NEAR(point.depth, 0.02, kTolerance);
      EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), kTolerance);
      EXPECT_NEAR(std::abs((point.pointOnA - poseA.position).dot(axis)), 1.0, kTolerance);  // at the ends
      EXPECT_NEAR(point.pointOnA.z(), 0.98, kTolerance);
    }
    // Strip 2·√(2Rδ − δ²) wide along the full length 2, shared by the two ends.
    const double area = 2 * std::sqrt(2 * 0.5 * 0.02 - 0.02 * 0.02) * 2;
    EXPECT_NEAR(points[0].area + points[1].area, area, kTolerance);
    EXPECT_DOUBLE_EQ(points[0].area, points[1].area);
    expectConventions(points);
    expectSwappedMirrors(cylinder, poseA, base, poseB);
  }
}

TEST(CollisionCylinderBox, SlightlyTiltedLyingGivesTwoEndsWithTheirOwnDepths) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const double tilt = 0.004;  // one end 2·sin(tilt) higher
  const Matrix3 rotation = Eigen::AngleAxisd(kPi / 2 - tilt, Vector3::UnitY()).toRotationMatrix();
  const Pose poseA{Vector3(0, 0, 1.5 - 0.02), rotation};
  std::vector<ContactPoint> points;
  collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points);
  ASSERT_EQ(points.size(), 2u);
  const double along = std::sin(tilt), across = 0.5 * std::cos(tilt);
  const double lowDepth = 0.02 + along - (0.5 - across), highDepth = 0.02 - along - (0.5 - across);
  EXPECT_NEAR(std::max(points[0].depth, points[1].depth), lowDepth, kTolerance);
  EXPECT_NEAR(std::min(points[0].depth, points[1].depth), highDepth, kTolerance);
  expectConventions(points);
}

TEST(CollisionCylinderBox, StandingOnItsCapGivesFourRimPoints) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const Pose poseA = poseOf(Vector3(0.4, 0.1, 2 - 0.03), 0.3);
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points), -0.03, kTolerance);
  ASSERT_EQ(points.size(), 4u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.03, kTolerance);
    EXPECT_NEAR((point.pointOnA - Vector3(0.4, 0.1, 0.97)).norm(), 0.5, kTolerance);  // on the rim
    EXPECT_NEAR(point.area, kPi * 0.25 / 4, kTolerance);  // the whole end disk, shared by 4
  }
  expectConventions(points);
  expectSwappedMirrors(cylinder, poseA, base, poseOf(Vector3::Zero()));
}

TEST(CollisionCylinderBox, TiltedOnItsRimGivesTheDeepestRimPoint) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const double tilt = 0.5;
  const Matrix3 rotation = Eigen::AngleAxisd(tilt, Vector3::UnitX()).toRotationMatrix();
  const double reach = 1.0 * std::cos(tilt) + 0.5 * std::sin(tilt);  // lowest rim point below the centre
  const Pose poseA{Vector3(0, 0, 1 + reach - 0.01), rotation};
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points), -0.01, kTolerance);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(points[0].depth, 0.01, kTolerance);
  EXPECT_NEAR(points[0].pointOnA.z(), 0.99, kTolerance);
  expectConventions(points);
}

TEST(CollisionCylinderBox, BoxCornerIntoTheSide) {
  // A turned cube whose lowest-x vertex sits 0.02 inside the side at (0.98, 0, 0.1). The side curves away, so the
  // true depth is at most 0.02 and close to it; the normal pushes the cylinder towards −x.
  const Shape cylinder = Shape::cylinder(1.0, 1.0), cube = Shape::box(Vector3(0.5, 0.5, 0.5));
  const Matrix3 rotation = Eigen::AngleAxisd(0.6, Vector3(1, 2, 3).normalized()).toRotationMatrix();
  Vector3 lowestVertex = Vector3::Zero();
  double lowestX = INFINITY;
  for (int vertex = 0; vertex < 8; ++vertex) {
    const Vector3 corner(vertex & 1 ? 0.5 : -0.5, vertex & 2 ? 0.5 : -0.5, vertex & 4 ? 0.5 : -0.5);
    if ((rotation * corner).x() < lowestX) lowestX = (rotation * corner).x(), lowestVertex = corner;
  }
  const Pose poseB{Vector3(0.98, 0, 0.1) - rotation * lowestVertex, rotation};
  std::vector<ContactPoint> points;
  const double signedDistance = collide(cylinder, poseOf(Vector3::Zero()), cube, poseB, 0, points);
  EXPECT_LE(signedDistance, -0.015);
  EXPECT_GE(signedDistance, -0.02 - kTolerance);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT(points[0].normal.x(), -0.95);
  expectConventions(points);
  expectSwappedMirrors(cylinder, poseOf(Vector3::Zero()), cube, poseB);
}

}  // namespace
}  // namespace lodestone

// Exact sphere pairs (sphere, box, cylinder, frustum) against hand-computed geometry at several orientations.
// Tolerance 1e-12 throughout: the routines are closed-form, so only rounding separates them from the values.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "collision_test_support.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {

using testing::expectConventions;
using testing::expectSwappedMirrors;
using testing::poseOf;
using testing::someRotations;

constexpr double kRoundOff = 1e-12;

// Checks one contact: B at `poseB`, sphere A of `radius` centred at poseB·localCentre; expects one point with
// the given depth and local normal, the point on B at poseB·localSurface, and the area.
void expectSphereContact(const Shape& sphere, const Shape& b, const Pose& poseB, const Vector3& localCentre,
                         double depth, const Vector3& localNormal, const Vector3& localSurface, double area) {
  const Pose poseA{poseB.position + poseB.rotation * localCentre, Matrix3::Identity()};
  std::vector<ContactPoint> points;
  const double signedDistance = collide(sphere, poseA, b, poseB, 0.1, points);
  EXPECT_NEAR(signedDistance, -depth, kRoundOff);
  ASSERT_EQ(points.size(), 1u);
  const Vector3 normal = poseB.rotation * localNormal.normalized();
  EXPECT_NEAR(points[0].depth, depth, kRoundOff);
  EXPECT_LT((points[0].normal - normal).norm(), kRoundOff);
  EXPECT_LT((points[0].pointOnB - (poseB.position + poseB.rotation * localSurface)).norm(), kRoundOff);
  EXPECT_LT((points[0].pointOnA - (poseA.position - sphere.radius * normal)).norm(), kRoundOff);
  EXPECT_NEAR(points[0].area, area, kRoundOff);
  expectConventions(points);
  expectSwappedMirrors(sphere, poseA, b, poseB);
}

double capArea(double radius, double depth) { return kPi * (2 * radius * depth - depth * depth); }

TEST(CollisionSphereSphere, DepthNormalPointsAndLensArea) {
  const Shape big = Shape::sphere(1.0), small = Shape::sphere(0.5);
  for (const Vector3& direction : {Vector3(1, 0, 0), Vector3(0.3, -0.4, 0.5).normalized(), Vector3(0, 0, -1)}) {
    const Pose poseB{Vector3(0.2, -1, 3), Matrix3::Identity()};
    const Pose poseA{poseB.position + 1.3 * direction, Matrix3::Identity()};
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(big, poseA, small, poseB, 0, points), -0.2, kRoundOff);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_LT((points[0].normal - direction).norm(), kRoundOff);
    EXPECT_LT((points[0].pointOnA - (poseB.position + 0.3 * direction)).norm(), kRoundOff);
    EXPECT_LT((points[0].pointOnB - (poseB.position + 0.5 * direction)).norm(), kRoundOff);
    // The surfaces cross at x = (d² + rA² − rB²)/2d from A's centre; the lens circle has radius² = rA² − x².
    const double x = (1.69 + 1 - 0.25) / 2.6;
    EXPECT_NEAR(points[0].area, kPi * (1 - x * x), kRoundOff);
    expectConventions(points);
    expectSwappedMirrors(big, poseA, small, poseB);
  }
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(big, poseOf(Vector3(2, 0, 0)), small, poseOf(Vector3::Zero()), 1.0, points), 0.5, kRoundOff);
  EXPECT_TRUE(points.empty());
}

TEST(CollisionSphereBox, FaceEdgeAndCentreInside) {
  const Shape box = Shape::box(Vector3(1, 2, 3));
  for (const Matrix3& rotation : someRotations()) {
    const Pose poseB{Vector3(0.5, 0.1, -0.3), rotation};
    // Face: 0.2 deep through +x.
    expectSphereContact(Shape::sphere(0.5), box, poseB, Vector3(1.3, 0.4, -1), 0.2, Vector3::UnitX(),
                        Vector3(1, 0.4, -1), capArea(0.5, 0.2));
    // Edge (x, y): centre 0.5 from the edge along (0.6, 0.8), radius 0.6.
    expectSphereContact(Shape::sphere(0.6), box, poseB, Vector3(1.3, 2.4, 0.5), 0.1, Vector3(0.6, 0.8, 0),
                        Vector3(1, 2, 0.5), capArea(0.6, 0.1));
    // Centre inside, 0.1 from the +x face (nearest): out through +x, depth radius + 0.1.
    expectSphereContact(Shape::sphere(0.5), box, poseB, Vector3(0.9, 0, 0), 0.6, Vector3::UnitX(), Vector3(1, 0, 0),
                        kPi * 0.25);
    // Centre inside, nearest face −z.
    expectSphereContact(Shape::sphere(0.5), box, poseB, Vector3(0.1, 0.2, -2.7), 0.8, -Vector3::UnitZ(),
                        Vector3(0.1, 0.2, -3), kPi * 0.25);
  }
}

TEST(CollisionSphereCylinder, SideCapRimAndCentreInside) {
  const Shape cylinder = Shape::cylinder(1.0, 2.0);
  for (const Matrix3& rotation : someRotations()) {
    const Pose poseB{Vector3(-1, 2, 0.5), rotation};
    const Vector3 radial = Vector3(0.6, 0.8, 0);
    expectSphereContact(Shape::sphere(0.5), cylinder, poseB, 1.3 * radial + Vector3(0, 0, 0.5), 0.2, radial,
                        radial + Vector3(0, 0, 0.5), capArea(0.5, 0.2));
    expectSphereContact(Shape::sphere(0.5), cylinder, poseB, Vector3(0.3, 0, 2.4), 0.1, Vector3::UnitZ(),
                        Vector3(0.3, 0, 2), capArea(0.5, 0.1));
    expectSphereContact(Shape::sphere(0.5), cylinder, poseB, Vector3(0, 0.2, -2.3), 0.2, -Vector3::UnitZ(),
                        Vector3(0, 0.2, -2), capArea(0.5, 0.2));
    // Rim: centre 0.5 from the rim along (0.6, 0, 0.8), radius 0.6.
    expectSphereContact(Shape::sphere(0.6), cylinder, poseB, Vector3(1.3, 0, 2.4), 0.1, Vector3(0.6, 0, 0.8),
                        Vector3(1, 0, 2), capArea(0.6, 0.1));
    // Inside, 0.2 from the side (nearer than either end).
    expectSphereContact(Shape::sphere(0.5), cylinder, poseB, 0.8 * radial, 0.7, radial, radial, kPi * 0.25);
    // Inside, on the axis, 0.3 below the top: out through the top.
    expectSphereContact(Shape::sphere(0.5), cylinder, poseB, Vector3(0, 0, 1.7), 0.8, Vector3::UnitZ(),
                        Vector3(0, 0, 2), kPi * 0.25);
  }
}

TEST(CollisionSphereFrustum, FlatEndsSlantedSideRimsAndCones) {
  // Bottom radius 1 at z = 0, top radius 0.5 at z = 2: the side's outward meridian normal is (2, 0.5)/√4.25.
  const Shape frustum = Shape::frustum(1.0, 0.5, 2.0);
  const Eigen::Vector2d sideNormal = Eigen::Vector2d(2, 0.5).normalized();
  for (const Matrix3& rotation : someRotations()) {
    const Pose poseB{Vector3(0.3, 0.3, -2), rotation};
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, Vector3(0.2, 0, -0.4), 0.1, -Vector3::UnitZ(),
                        Vector3(0.2, 0, 0), capArea(0.5, 0.1));
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, Vector3(0, 0.1, 2.3), 0.2, Vector3::UnitZ(),
                        Vector3(0, 0.1, 2), capArea(0.5, 0.2));
    // Slanted side, in the meridian plane at 45°: centre 0.4 out from the side's midpoint (0.75, 1).
    const Vector3 radial = Vector3(1, 1, 0).normalized();
    const Vector3 normal = sideNormal.x() * radial + sideNormal.y() * Vector3::UnitZ();
    const Vector3 midpoint = 0.75 * radial + Vector3::UnitZ();
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, midpoint + 0.4 * normal, 0.1, normal, midpoint,
                        capArea(0.5, 0.1));
    // Top rim, from (1, 1)/√2 in the meridian plane (between the top's and the side's normals).
    const Vector3 rimDirection = Vector3(1, 0, 1).normalized();
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, Vector3(0.5, 0, 2) + 0.3 * rimDirection, 0.2,
                        rimDirection, Vector3(0.5, 0, 2), capArea(0.5, 0.2));
    // Bottom rim, from (1, −1)/√2.
    const Vector3 bottomRimDirection = Vector3(1, 0, -1).normalized();
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, Vector3(1, 0, 0) + 0.4 * bottomRimDirection, 0.1,
                        bottomRimDirection, Vector3(1, 0, 0), capArea(0.5, 0.1));
    // Inside near the slanted side: out along the side's normal, depth radius + clearance.
    expectSphereContact(Shape::sphere(0.5), frustum, poseB, midpoint - 0.1 * normal, 0.6, normal, midpoint,
                        kPi * 0.25);
  }
  // A cone (top radius 0): the apex is a point; above it the normal is the axis.
  const Shape cone = Shape::frustum(1.0, 0.0, 2.0);
  expectSphereContact(Shape::sphere(0.5), cone, poseOf(Vector3(1, 2, 3), 0.4, Vector3(1, 1, 0)), Vector3(0, 0, 2.3),
                      0.2, Vector3::UnitZ(), Vector3(0, 0, 2), capArea(0.5, 0.2));
  // An upside-down cone (bottom radius 0), touched on its flat top.
  const Shape invertedCone = Shape::frustum(0.0, 1.0, 2.0);
  expectSphereContact(Shape::sphere(0.5), invertedCone, poseOf(Vector3::Zero()), Vector3(0.2, 0, 2.4), 0.1,
                      Vector3::UnitZ(), Vector3(0.2, 0, 2), capArea(0.5, 0.1));
}

}  // namespace
}  // namespace lodestone

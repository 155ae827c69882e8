// The GJK/EPA fallback through FCL: its conventions checked against the exact routines, ellipsoids against
// analytic depths, the dispatch table's choices and the refusal of mesh pairs.
#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "collision/pair_routines.h"
#include "collision_test_support.h"

namespace lodestone {
namespace {

using testing::expectConventions;
using testing::poseOf;

// FCL's normal direction pinned: fclPair on two spheres must match the exact routine (FCL's analytic
// sphere–sphere, so 1e-12). Its contact position is NOT the midpoint there (FCL weights it by the radii), unlike
// EPA's; only EPA pairs are routed to FCL, and their points are pinned by the ellipsoid tests below.
TEST(CollisionFcl, SphereSphereThroughFclMatchesTheExactRoutine) {
  const Shape big = Shape::sphere(1.0), small = Shape::sphere(0.5);
  for (const Vector3& direction : {Vector3(1, 0, 0), Vector3(0.3, -0.4, 0.5).normalized()}) {
    const Pose poseB = poseOf(Vector3(0.2, -1, 3)), poseA = poseOf(poseB.position + 1.3 * direction);
    std::vector<ContactPoint> exact, approximate;
    const double exactDistance = detail::sphereSphere(big, poseA, small, poseB, 0, exact);
    const double fclDistance = detail::fclPair(big, poseA, small, poseB, 0, approximate);
    EXPECT_NEAR(fclDistance, exactDistance, 1e-12);
    ASSERT_EQ(approximate.size(), 1u);
    EXPECT_LT((approximate[0].normal - exact[0].normal).norm(), 1e-12);
    expectConventions(approximate);
  }
}

TEST(CollisionFcl, EllipsoidThatIsASphereMatchesSphereSphere) {
  const Shape sphere = Shape::sphere(0.5), disguised = Shape::ellipsoid(Vector3(1, 1, 1)), real = Shape::sphere(1.0);
  for (const Vector3& direction : {Vector3(0, 0, 1), Vector3(1, -2, 0.5).normalized()}) {
    const Pose poseB = poseOf(Vector3(1, 2, 3), 0.4, Vector3(1, 0, 1)), poseA = poseOf(poseB.position + 1.3 * direction);
    std::vector<ContactPoint> exact, approximate;
    const double exactDistance = collide(sphere, poseA, real, poseB, 0, exact);
    const double fclDistance = collide(sphere, poseA, disguised, poseB, 0, approximate);
    EXPECT_NEAR(fclDistance, exactDistance, 1e-6);
    ASSERT_EQ(approximate.size(), 1u);
    EXPECT_LT((approximate[0].normal - exact[0].normal).norm(), 1e-5);
    EXPECT_LT((approximate[0].pointOnA - exact[0].pointOnA).norm(), 1e-5);
    expectConventions(approximate);
  }
}

TEST(CollisionFcl, SphereAgainstEllipsoidAlongEachAxis) {
  const Shape sphere = Shape::sphere(0.5), ellipsoid = Shape::ellipsoid(Vector3(1, 2, 3));
  const Pose poseB = poseOf(Vector3(-1, 0, 2), 0.9, Vector3(1, 1, 0));
  for (int axis = 0; axis < 3; ++axis) {
    for (double side : {1.0, -1.0}) {
      // Centre 0.3 outside the tip of semi-axis `axis`: depth 0.2 along that axis.
      const Vector3 local = side * (ellipsoid.semiAxes[axis] + 0.3) * Vector3::Unit(axis);
      const Pose poseA = poseOf(poseB.position + poseB.rotation * local);
      std::vector<ContactPoint> points;
      EXPECT_NEAR(collide(sphere, poseA, ellipsoid, poseB, 0, points), -0.2, 1e-5);
      ASSERT_EQ(points.size(), 1u);
      EXPECT_LT((points[0].normal - side * poseB.rotation.col(axis)).norm(), 1e-4);
      expectConventions(points);
    }
  }
  // Apart within the margin: the gap from FCL's distance (exact here: along a semi-axis), apart beyond: ≥ margin.
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(sphere, poseOf(poseB.position + poseB.rotation * Vector3(0, 0, 3.7)), ellipsoid, poseB, 1.0, points),
              0.2, 1e-5);
  EXPECT_GE(collide(sphere, poseOf(Vector3(50, 0, 0)), ellipsoid, poseB, 1.0, points), 1.0);
  EXPECT_TRUE(points.empty());
}

TEST(CollisionFcl, FrustumAndCylinderPairsGoThroughGjk) {
  // A cone standing on a box: a frustum–box pair, tessellated; the apex-down cone's tip is a vertex, so exact.
  const Shape cone = Shape::frustum(0.0, 1.0, 2.0), base = Shape::box(Vector3(2, 2, 1));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cone, poseOf(Vector3(0.1, 0, 0.97)), base, poseOf(Vector3::Zero()), 0, points), -0.03, 1e-6);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal - Vector3::UnitZ()).norm(), 1e-6);
  // Two cylinders crossed at right angles, one on the other: depth 0.05 along z.
  const Shape cylinder = Shape::cylinder(0.5, 2.0);
  points.clear();
  EXPECT_NEAR(collide(cylinder, poseOf(Vector3(0, 0, 0.95), 1.5707963267948966, Vector3::UnitX()), cylinder,
                      poseOf(Vector3::Zero(), 1.5707963267948966, Vector3::UnitY()), 0, points),
              -0.05, 1e-5);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal - Vector3::UnitZ()).norm(), 1e-4);
  expectConventions(points);
}

TEST(CollisionFcl, TableChoosesExactRoutines) {
  using enum ShapeType;
  for (auto [a, b] : {std::pair{Sphere, Sphere}, {Sphere, Box}, {Box, Sphere}, {Box, Box}, {Sphere, Cylinder},
                      {Cylinder, Sphere}, {Cylinder, Box}, {Box, Cylinder}, {Sphere, Frustum}, {Frustum, Sphere}}) {
    EXPECT_TRUE(hasAnalyticalRoutine(a, b)) << shapeTypeName(a) << "–" << shapeTypeName(b);
  }
  for (auto [a, b] : {std::pair{Sphere, Ellipsoid}, {Cylinder, Cylinder}, {Frustum, Box}, {Frustum, Frustum},
                      {Ellipsoid, Ellipsoid}, {Sphere, Mesh}, {Mesh, Box}}) {
    EXPECT_FALSE(hasAnalyticalRoutine(a, b)) << shapeTypeName(a) << "–" << shapeTypeName(b);
  }
}

}  // namespace
}  // namespace lodestone

// Contact from inside a spherical cavity (a Sphere graphic with is_material_inside="FALSE"): a ball by its closed
// form, a mesh by its samples against the cavity's exact wall; against hand-computed geometry. Tolerance 1e-12 where
// the answer is closed-form.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "collision/mesh_geometry.h"
#include "collision/point_queries.h"
#include "collision/tessellation.h"
#include "collision_test_support.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {

using testing::expectConventions;
using testing::expectSwappedMirrors;
using testing::poseOf;
using testing::someRotations;

constexpr double kTightTolerance = 1e-12;

TEST(CollisionCavity, TheWallIsTheSphereWithTheMaterialOutside) {
  const Shape cavity = Shape::hollowSphere(2);
  SurfacePoint answer = nearestSurfacePoint(cavity, Vector3(0, 1.5, 0));  // in the cavity, 0.5 from the wall
  EXPECT_DOUBLE_EQ(answer.distance, 0.5);
  EXPECT_TRUE(answer.nearest.isApprox(Vector3(0, 2, 0)));
  EXPECT_TRUE(answer.normal.isApprox(Vector3(0, -1, 0))) << "out of the material: towards the centre";
  answer = nearestSurfacePoint(cavity, Vector3(0, 0, -2.25));  // in the material
  EXPECT_DOUBLE_EQ(answer.distance, -0.25);
  EXPECT_TRUE(answer.normal.isApprox(Vector3::UnitZ()));
  EXPECT_DOUBLE_EQ(cavity.boundingRadius(), 2);
  const Aabb bounds = boundsOf(cavity, poseOf(Vector3(1, 0, 0)));
  EXPECT_TRUE(bounds.min.isApprox(Vector3(-1, -2, -2)) && bounds.max.isApprox(Vector3(3, 2, 2)));
}

// A ball of radius 0.3 a distance 0.75 from the centre of a cavity of radius 1 reaches 0.05 into its wall: the
// normal points back to the centre, the ball's point is its farthest, the wall's point under it, and the area is the
// circle where the two spheres' surfaces cross, x = (d² + r² − R²)/2d from the ball's centre.
TEST(CollisionCavity, ABallAgainstTheWall) {
  const Shape ball = Shape::sphere(0.3), cavity = Shape::hollowSphere(1.0);
  for (const Matrix3& rotation : someRotations()) {
    for (const Vector3& direction : {Vector3(1, 0, 0), Vector3(0.3, -0.4, 0.5).normalized(), Vector3(0, 0, -1)}) {
      const Pose poseB = poseOf(Vector3(0.2, -1, 3), rotation);
      const Pose poseA = poseOf(poseB.position + 0.75 * direction);
      std::vector<ContactPoint> points;
      EXPECT_NEAR(collide(ball, poseA, cavity, poseB, 0.1, points), -0.05, kTightTolerance);
      ASSERT_EQ(points.size(), 1u);
      EXPECT_NEAR(points[0].depth, 0.05, kTightTolerance);
      EXPECT_LT((points[0].normal + direction).norm(), kTightTolerance);
      EXPECT_LT((points[0].pointOnA - (poseB.position + 1.05 * direction)).norm(), kTightTolerance);
      EXPECT_LT((points[0].pointOnB - (poseB.position + 1.0 * direction)).norm(), kTightTolerance);
      const double x = (0.75 * 0.75 + 0.09 - 1) / 1.5;
      EXPECT_NEAR(points[0].area, kPi * (0.09 - x * x), kTightTolerance);
      expectConventions(points);
      expectSwappedMirrors(ball, poseA, cavity, poseB);
    }
  }
  // 0.2 from the wall: the gap, and no point.
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(ball, poseOf(Vector3(0, 0.5, 0)), cavity, poseOf(Vector3::Zero()), 1.0, points), 0.2,
              kTightTolerance);
  EXPECT_TRUE(points.empty());
  // A ball bigger than the cavity, at its centre: all of the wall is pressed, by the difference of the radii.
  EXPECT_NEAR(collide(Shape::sphere(1.5), poseOf(Vector3::Zero()), cavity, poseOf(Vector3::Zero()), 0.1, points),
              -0.5, kTightTolerance);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(points[0].area, kPi, kTightTolerance);
}

// A 0.4 × 0.2 × 0.2 box (a mesh, sampled at its nodes) centred 0.79 from a unit cavity's centre along x: its +x face
// lies on the plane x = 0.99, its corners √(0.99² + 0.02) = 1.00005 from the centre, so 5.0e-5 into the wall; the
// middles of the face's edges (0.99504) and its centre are clear. The corners share no edge, so each is a patch of its
// own (as on any curved master), pushed back towards the cavity's centre with the whole force of its law.
TEST(CollisionCavity, AMeshAgainstTheWallIsMeasuredAtItsSamples) {
  const Shape cavity = Shape::hollowSphere(1.0);
  const double kCornerReach = std::sqrt(0.99 * 0.99 + 0.02);
  const Shape box = Shape::mesh(std::make_shared<MeshGeometry>(tessellate(Shape::box(Vector3(0.2, 0.1, 0.1)), 0)));
  ContactOptions nodes;
  nodes.nodeMode = true;
  for (const Matrix3& rotation : someRotations()) {
    const Pose poseB = poseOf(Vector3(0.5, 0.1, -2), rotation);
    const Pose poseA = poseOf(poseB.position + rotation * Vector3(0.79, 0, 0), rotation);
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(box, poseA, cavity, poseB, 0.1, points, nodes), -(kCornerReach - 1), kTightTolerance);
    ASSERT_EQ(points.size(), 4u) << "the face's corners, one patch each";
    for (const ContactPoint& point : points) {
      const Vector3 corner = point.pointOnA - poseB.position;  // on the box
      EXPECT_NEAR(corner.norm(), kCornerReach, kTightTolerance);
      EXPECT_LT((point.normal + corner.normalized()).norm(), kTightTolerance);
      EXPECT_NEAR(point.depth, kCornerReach - 1, kTightTolerance);
      EXPECT_NEAR(point.share, 1, kTightTolerance);
    }
    expectConventions(points);
    // Swapped, the cavity first: the same points mirrored.
    std::vector<ContactPoint> mirrored;
    EXPECT_NEAR(collide(cavity, poseB, box, poseA, 0.1, mirrored, nodes), -(kCornerReach - 1), kTightTolerance);
    ASSERT_EQ(mirrored.size(), points.size());
    for (size_t k = 0; k < points.size(); ++k) {
      EXPECT_LT((points[k].pointOnA - mirrored[k].pointOnB).norm(), kTightTolerance);
      EXPECT_LT((points[k].normal + mirrored[k].normal).norm(), kTightTolerance);
    }
  }
  // Triangle centres instead, with the face on x = 1: the triangles' centres lie between the face's centre and its
  // corners, so they press less deep than the corners (√1.02 − 1), but they press.
  std::vector<ContactPoint> points;
  const double signedDistance =
      collide(box, poseOf(Vector3(0.8, 0, 0)), cavity, poseOf(Vector3::Zero()), 0.1, points);
  EXPECT_LT(signedDistance, 0);
  EXPECT_GT(signedDistance, -(std::sqrt(1.02) - 1));
  EXPECT_FALSE(points.empty());
  // Well inside, the bounding spheres say the gap at once: 1 − 0.3 − |half extents|.
  points.clear();
  EXPECT_NEAR(collide(box, poseOf(Vector3(0.3, 0, 0)), cavity, poseOf(Vector3::Zero()), 0.1, points),
              0.7 - Vector3(0.2, 0.1, 0.1).norm(), kTightTolerance);
  EXPECT_TRUE(points.empty());
}

}  // namespace
}  // namespace lodestone

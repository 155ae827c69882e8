// Simscape's contact geometries — point, point cloud, infinite plane, disk — against closed forms: a solid under a
// plane (depth, normal, deepest point, patch area and centre of pressure), a point inside each solid, a disk on the
// plane, and the pairs that are refused.
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>

#include <gtest/gtest.h>

#include "collision/broad_phase.h"
#include "collision/mesh_geometry.h"
#include "collision/tessellation.h"
#include "collision_test_support.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {

using testing::centreOfPressure;
using testing::expectConventions;
using testing::expectSwappedMirrors;
using testing::poseOf;
using testing::someRotations;
using testing::sumOfShares;

constexpr double kExact = 1e-12;

// A plane through `origin` whose normal (its marker's z) is the unit `normal`.
Pose planePose(const Vector3& origin, const Vector3& normal) {
  return {origin, Eigen::Quaterniond::FromTwoVectors(Vector3::UnitZ(), normal).toRotationMatrix()};
}

// Normals that leave no axis special, and the ground's.
std::vector<Vector3> someNormals() {
  return {Vector3::UnitZ(), Vector3(0.3, -0.2, 1).normalized(), Vector3(-1, 0.5, 0.2).normalized()};
}

TEST(CollisionPlane, SphereUnderThePlaneTouchesAtItsDeepestPointWithTheCapArea) {
  const Shape ball = Shape::sphere(0.5), plane = Shape::plane();
  for (const Vector3& normal : someNormals()) {
    const Vector3 origin(0.2, -0.1, 0.3);
    const Vector3 centre = origin + 0.4 * normal + 0.7 * normal.unitOrthogonal();
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(ball, poseOf(centre), plane, planePose(origin, normal), 0, points), -0.1, kExact);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_NEAR(points[0].depth, 0.1, kExact);
    EXPECT_LT((points[0].normal - normal).norm(), kExact);
    EXPECT_LT((points[0].pointOnA - (centre - 0.5 * normal)).norm(), kExact);
    EXPECT_NEAR(points[0].area, kPi * (2 * 0.5 * 0.1 - 0.01), kExact);
    expectConventions(points);
    // Above it: the gap, nothing appended.
    points.clear();
    EXPECT_NEAR(collide(ball, poseOf(centre + 0.3 * normal), plane, planePose(origin, normal), 1, points), 0.2,
                kExact);
    EXPECT_TRUE(points.empty());
  }
}

TEST(CollisionPlane, BoxFlatOnThePlaneIsOnePatchOverItsFace) {
  const Shape box = Shape::box(Vector3(0.5, 0.3, 0.2)), plane = Shape::plane();
  for (const Vector3& normal : someNormals()) {
    const Pose planeAt = planePose(Vector3(1, 2, -0.5), normal);
    for (double yaw : {0.0, 0.7}) {
      // The box's z along the normal, turned by `yaw` about it, 0.19 above the plane: 0.01 deep.
      const Matrix3 rotation = planeAt.rotation * Eigen::AngleAxisd(yaw, Vector3::UnitZ()).toRotationMatrix();
      const Vector3 centre = planeAt.position + 0.19 * normal + 0.3 * normal.unitOrthogonal();
      std::vector<ContactPoint> points;
      EXPECT_NEAR(collide(box, poseOf(centre, rotation), plane, planeAt, 0, points), -0.01, kExact);
      ASSERT_GE(points.size(), 4u);
      for (const ContactPoint& point : points) {
        EXPECT_NEAR(point.depth, 0.01, kExact);
        EXPECT_LT((point.normal - normal).norm(), kExact);
        EXPECT_NEAR(point.area, 1.0 * 0.6, 1e-12);
      }
      EXPECT_NEAR(sumOfShares(points), 1.0, kExact);
      // Uniform pressure: the centre of pressure under the box's centre, halfway into the layer.
      EXPECT_LT((centreOfPressure(points) - (centre - 0.195 * normal)).norm(), 1e-12);
      expectConventions(points);
      expectSwappedMirrors(box, poseOf(centre, rotation), plane, planeAt);
    }
  }
}

TEST(CollisionPlane, TiltedBoxReachesTheDepthOfItsLowestCorner) {
  const Shape box = Shape::box(Vector3(0.5, 0.3, 0.2)), plane = Shape::plane();
  const Vector3 half(0.5, 0.3, 0.2);
  for (const Matrix3& rotation : someRotations()) {
    for (const Vector3& normal : someNormals()) {
      const Vector3 centre(0.1, 0.2, 0.3);
      const Pose planeAt = planePose(Vector3::Zero(), normal);
      // The lowest corner: h = Σ |n·axis_k|·half_k below the centre.
      const double reach = (rotation.transpose() * normal).cwiseAbs().dot(half);
      std::vector<ContactPoint> points;
      const double distance = collide(box, poseOf(centre, rotation), plane, planeAt, 0, points);
      EXPECT_NEAR(distance, normal.dot(centre) - reach, kExact);
      if (distance < 0) {
        ASSERT_FALSE(points.empty());
        EXPECT_NEAR(sumOfShares(points), 1.0, 1e-12);
        expectConventions(points);
      }
    }
  }
}

TEST(CollisionPlane, CylinderStandingHasItsCapAsAPatchAndLyingItsLine) {
  const Shape cylinder = Shape::cylinder(0.1, 0.25), plane = Shape::plane();
  const Pose planeAt = planePose(Vector3::Zero(), Vector3::UnitZ());
  // Standing on its end, 2 mm deep: the whole cap presses, centred.
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseOf(Vector3(0.3, 0.1, 0.248)), plane, planeAt, 0, points), -0.002, kExact);
  ASSERT_GE(points.size(), 3u);
  for (const ContactPoint& point : points) {
    // As on a box's face (CollisionCylinderBox): the side's line along one generator carries (δ/R)^1.5 of the weight,
    // 0.3 % here, and brings a trace of tilt into the fit.
    EXPECT_NEAR(point.depth, 0.002, 0.003 * 0.002);
    EXPECT_NEAR(point.area, kPi * 0.01, 1e-12);  // upright: the whole end disk
  }
  EXPECT_LT((centreOfPressure(points) - Vector3(0.3, 0.1, -0.001)).norm(), 1e-4);
  expectConventions(points);
  // Lying along x, 1 mm deep: a line along its length, the strip 2·√(2rδ − δ²) wide.
  points.clear();
  const Pose lying = poseOf(Vector3(0, 0, 0.099), kPi / 2, Vector3::UnitY());
  EXPECT_NEAR(collide(cylinder, lying, plane, planeAt, 0, points), -0.001, kExact);
  ASSERT_GE(points.size(), 2u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.001, 1e-12);
    EXPECT_NEAR(point.area, 2 * std::sqrt(2 * 0.1 * 0.001 - 1e-6) * 0.5, 1e-12);
    EXPECT_NEAR(point.pointOnA.y(), 0, 1e-12);
    EXPECT_LE(std::abs(point.pointOnA.x()), 0.25 + 1e-12);
  }
  EXPECT_LT(std::abs(centreOfPressure(points).x()), 1e-12);
  // Tilted by φ about x: the lowest rim point is h·cos φ + r·sin φ below the centre.
  for (double tilt : {0.2, 0.9, 1.4}) {
    points.clear();
    const double reach = 0.25 * std::cos(tilt) + 0.1 * std::sin(tilt);
    EXPECT_NEAR(collide(cylinder, poseOf(Vector3(0, 0, reach - 0.003), tilt, Vector3::UnitX()), plane, planeAt, 0,
                        points),
                -0.003, kExact);
    ASSERT_FALSE(points.empty());
    EXPECT_NEAR(sumOfShares(points), 1.0, 1e-12);
    expectConventions(points);
  }
}

TEST(CollisionPlane, FrustumStandsOnItsBottomAndItsTop) {
  const Shape frustum = Shape::frustum(0.2, 0.1, 0.3), plane = Shape::plane();
  const Pose planeAt = planePose(Vector3::Zero(), Vector3::UnitZ());
  std::vector<ContactPoint> points;
  // On its bottom (the frame origin), 1 mm deep.
  EXPECT_NEAR(collide(frustum, poseOf(Vector3(0, 0, -0.001)), plane, planeAt, 0, points), -0.001, kExact);
  ASSERT_FALSE(points.empty());
  EXPECT_NEAR(points[0].area, kPi * 0.04, 0.012 * kPi * 0.04);
  EXPECT_LT((centreOfPressure(points) - Vector3(0, 0, -0.0005)).norm(), 1e-4);  // the generator's trace, as above
  // Upside down on its top.
  points.clear();
  EXPECT_NEAR(collide(frustum, poseOf(Vector3(0, 0, 0.299), kPi, Vector3::UnitX()), plane, planeAt, 0, points), -0.001,
              kExact);
  ASSERT_FALSE(points.empty());
  EXPECT_NEAR(points[0].area, kPi * 0.01, 0.012 * kPi * 0.01);
  // Lying on its side: the lowest generator touches first; the slant makes the bottom rim the lowest point.
  for (const Matrix3& rotation : someRotations()) {
    points.clear();
    const Vector3 axis = rotation.col(2);
    const double sine = std::sqrt(1 - axis.z() * axis.z());
    const double bottomLow = -0.2 * sine, topLow = 0.3 * axis.z() - 0.1 * sine;
    const double lowest = std::min(bottomLow, topLow);
    EXPECT_NEAR(collide(frustum, poseOf(Vector3(0, 0, 0.004 - lowest), rotation), plane, planeAt, 0, points), 0.004,
                kExact);
  }
}

TEST(CollisionPlane, EllipsoidTouchesAtItsSupportPointWithTheSectionArea) {
  const Vector3 axes(0.3, 0.2, 0.1);
  const Shape ellipsoid = Shape::ellipsoid(axes), plane = Shape::plane();
  for (const Matrix3& rotation : someRotations()) {
    for (const Vector3& normal : someNormals()) {
      const double support = axes.cwiseProduct(rotation.transpose() * normal).norm();
      const Vector3 centre = Vector3(0.5, 0.5, 0) + (support - 0.01) * normal;
      std::vector<ContactPoint> points;
      EXPECT_NEAR(collide(ellipsoid, poseOf(centre, rotation), plane, planePose(Vector3(0.5, 0.5, 0), normal), 0,
                          points),
                  -0.01, kExact);
      ASSERT_EQ(points.size(), 1u);
      // The deepest point lies on the ellipsoid and 0.01 below the plane.
      const Vector3 onEllipsoid = rotation.transpose() * (points[0].pointOnA - centre);
      EXPECT_NEAR(onEllipsoid.cwiseQuotient(axes).norm(), 1.0, 1e-12);
      EXPECT_NEAR(normal.dot(points[0].pointOnA - Vector3(0.5, 0.5, 0)), -0.01, 1e-12);
      // π·abc·(2hδ − δ²)/h³.
      EXPECT_NEAR(points[0].area, kPi * 0.006 * (2 * support * 0.01 - 1e-4) / std::pow(support, 3), 1e-12);
      expectConventions(points);
    }
  }
  // A sphere as an ellipsoid: the cap's area.
  std::vector<ContactPoint> points;
  collide(Shape::ellipsoid(Vector3::Constant(0.5)), poseOf(Vector3(0, 0, 0.4)), plane, Pose{}, 0, points);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_NEAR(points[0].area, kPi * (2 * 0.5 * 0.1 - 0.01), 1e-12);
}

TEST(CollisionPlane, DiskTouchesAtItsLowestRimPointAndLiesFlatAsAPatch) {
  const Shape disk = Shape::disk(0.2), plane = Shape::plane();
  const Pose planeAt = planePose(Vector3::Zero(), Vector3::UnitZ());
  for (double tilt : {0.1, 0.6, 1.5707963267948966}) {
    std::vector<ContactPoint> points;
    const double centreHeight = 0.2 * std::sin(tilt) - 0.002;
    EXPECT_NEAR(collide(disk, poseOf(Vector3(1, 0, centreHeight), tilt, Vector3::UnitY()), plane, planeAt, 0, points),
                -0.002, kExact);
    ASSERT_FALSE(points.empty());
    EXPECT_NEAR(sumOfShares(points), 1.0, 1e-12);
    expectConventions(points);
    // Near the lowest rim point: within the segment the plane cuts.
    for (const ContactPoint& point : points) EXPECT_GT(point.pointOnA.x(), 1 + 0.2 * std::cos(tilt) - 0.2 * 0.4);
  }
  // Flat: the whole disk at once, its centre of pressure at its centre.
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(disk, poseOf(Vector3(0.1, 0.2, -0.001)), plane, planeAt, 0, points), -0.001, kExact);
  ASSERT_GE(points.size(), 3u);
  EXPECT_NEAR(points[0].area, kPi * 0.04, 0.012 * kPi * 0.04);
  EXPECT_LT((centreOfPressure(points) - Vector3(0.1, 0.2, -0.0005)).norm(), 1e-12);
}

TEST(CollisionPlane, MeshUnderThePlaneGivesItsSamplesBelowIt) {
  // A box's tessellation, flat and 5 mm deep: the face's samples, one patch at the box's depth.
  const auto surface = std::make_shared<MeshGeometry>(tessellate(Shape::box(Vector3(0.5, 0.5, 0.1)), 1));
  const Shape mesh = Shape::mesh(surface), plane = Shape::plane();
  std::vector<ContactPoint> points;
  const double distance = collide(mesh, poseOf(Vector3(0, 0, 0.095)), plane, Pose{}, 0.01, points);
  EXPECT_NEAR(distance, -0.005, 1e-12);
  ASSERT_FALSE(points.empty());
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.005, 1e-12);
    EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), 1e-12);
  }
  EXPECT_NEAR(sumOfShares(points), 1.0, 1e-9);
  EXPECT_LT(centreOfPressure(points).head<2>().norm(), 1e-9);
  // The plane on the other side: the same contact mirrored.
  expectSwappedMirrors(mesh, poseOf(Vector3(0, 0, 0.095)), plane, Pose{});
  // 3 mm above: the gap.
  points.clear();
  EXPECT_NEAR(collide(mesh, poseOf(Vector3(0, 0, 0.103)), plane, Pose{}, 0.01, points), 0.003, 1e-12);
  EXPECT_TRUE(points.empty());
}

// A point at `local` in a shape whose frame is posed by `pose`: one contact with the depth and outward normal of
// the nearest surface point (a box's: the nearest face).
TEST(CollisionPoint, PointInsideEachSolidIsPushedOutThroughTheNearestSurface) {
  struct Case {
    Shape shape;
    Vector3 local;      // in the shape frame
    double depth;       // closed form
    Vector3 outward;    // shape frame
  };
  const std::vector<Case> cases = {
      {Shape::sphere(0.5), Vector3(0.1, 0.2, 0.2), 0.5 - 0.3, Vector3(1, 2, 2) / 3},
      {Shape::box(Vector3(0.5, 0.3, 0.2)), Vector3(0.1, -0.25, 0.05), 0.05, -Vector3::UnitY()},
      {Shape::cylinder(0.2, 0.5), Vector3(0.12, 0.09, 0.1), 0.05, Vector3(0.8, 0.6, 0)},
      {Shape::cylinder(0.2, 0.5), Vector3(0.01, 0.0, 0.47), 0.03, Vector3::UnitZ()},
      // A cone of base radius 0.3 and height 0.4, its slant's outward normal (0.8, 0.6) in (r, z) and 0.8r + 0.6z =
      // 0.24 on it: on the axis 0.1 up the base is nearer (0.1 against 0.18); at r = 0.1, z = 0.2 the slant (0.04).
      {Shape::frustum(0.3, 0.0, 0.4), Vector3(0, 0, 0.1), 0.1, -Vector3::UnitZ()},
      {Shape::frustum(0.3, 0.0, 0.4), Vector3(0.1, 0, 0.2), 0.04, Vector3(0.8, 0, 0.6)},
      {Shape::ellipsoid(Vector3(0.4, 0.2, 0.1)), Vector3(0, 0, 0.06), 0.04, Vector3::UnitZ()},
  };
  for (const Matrix3& rotation : someRotations()) {
    for (const Case& c : cases) {
      const Pose shapePose = poseOf(Vector3(0.3, -0.2, 1.0), rotation);
      const Vector3 x = shapePose.position + rotation * c.local;
      std::vector<ContactPoint> points;
      EXPECT_NEAR(collide(Shape::point(), poseOf(x), c.shape, shapePose, 0, points), -c.depth, 1e-10)
          << shapeTypeName(c.shape.type);
      ASSERT_EQ(points.size(), 1u);
      EXPECT_LT((points[0].normal - rotation * c.outward).norm(), 1e-9) << shapeTypeName(c.shape.type);
      EXPECT_LT((points[0].pointOnA - x).norm(), kExact);
      EXPECT_EQ(points[0].cloudPoint, -1);
      expectConventions(points);
      expectSwappedMirrors(Shape::point(), poseOf(x), c.shape, shapePose);
    }
  }
}

TEST(CollisionPoint, PointAgainstAMeshAndThePlaneAndOutsideASolid) {
  // A unit cube's tessellation: the mesh's query agrees with the exact box.
  const auto surface = std::make_shared<MeshGeometry>(tessellate(Shape::box(Vector3(0.5, 0.5, 0.5)), 0));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(Shape::point(), poseOf(Vector3(0.1, 0.2, 0.45)), Shape::mesh(surface), Pose{}, 0, points), -0.05,
              1e-12);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal - Vector3::UnitZ()).norm(), 1e-12);
  // Under a tilted plane: its height, negative.
  points.clear();
  const Vector3 normal = Vector3(0.3, -0.2, 1).normalized();
  EXPECT_NEAR(collide(Shape::point(), poseOf(Vector3(1, 1, 1) - 0.02 * normal), Shape::plane(),
                      planePose(Vector3(1, 1, 1), normal), 0, points),
              -0.02, 1e-12);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal - normal).norm(), 1e-12);
  // In the wall of a spherical cavity (the material outside radius 1): pushed back towards its centre.
  points.clear();
  const Pose inWall = poseOf(Vector3(0, 0.6, 0.8) * 1.02);
  EXPECT_NEAR(collide(Shape::point(), inWall, Shape::hollowSphere(1.0), Pose{}, 0, points), -0.02, 1e-12);
  ASSERT_EQ(points.size(), 1u);
  EXPECT_LT((points[0].normal + Vector3(0, 0.6, 0.8)).norm(), 1e-12);
  // Outside a box: the exact gap within the margin, nothing appended.
  points.clear();
  EXPECT_NEAR(
      collide(Shape::point(), poseOf(Vector3(0.8, 0, 0)), Shape::box(Vector3::Constant(0.5)), Pose{}, 1, points), 0.3,
      1e-12);
  EXPECT_TRUE(points.empty());
}

TEST(CollisionPointCloud, EachPointIsItsOwnContactWithItsIndex) {
  // Four points at heights 0.01, −0.02, 0.005 and −0.001 over the plane, in a turned cloud frame.
  const std::vector<Vector3> local = {{0.1, 0, 0.01}, {-0.1, 0, -0.02}, {0, 0.1, 0.005}, {0, -0.1, -0.001}};
  const Shape cloud = Shape::pointCloud(local);
  const Pose cloudPose = poseOf(Vector3(0.5, 0.5, 0), 0.8);
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cloud, cloudPose, Shape::plane(), Pose{}, 0.1, points), -0.02, 1e-12);
  ASSERT_EQ(points.size(), 2u);
  EXPECT_EQ(points[0].cloudPoint, 1);
  EXPECT_NEAR(points[0].depth, 0.02, 1e-12);
  EXPECT_EQ(points[1].cloudPoint, 3);
  EXPECT_NEAR(points[1].depth, 0.001, 1e-12);
  for (const ContactPoint& point : points) EXPECT_EQ(point.share, 1.0);  // each its own patch
  expectConventions(points);
  expectSwappedMirrors(cloud, cloudPose, Shape::plane(), Pose{});
  // In a sphere: the points inside, each with the sphere's radial normal.
  points.clear();
  EXPECT_NEAR(collide(cloud, poseOf(Vector3::Zero()), Shape::sphere(0.1005), poseOf(Vector3::Zero()), 0.1, points),
              std::hypot(0.1, 0.001) - 0.1005, 1e-12);
  EXPECT_EQ(points.size(), 3u);
  // Its box holds its points, turned.
  const Aabb box = boundsOf(cloud, cloudPose);
  for (const Vector3& point : local) {
    const Vector3 x = cloudPose.position + cloudPose.rotation * point;
    EXPECT_TRUE((x.array() >= box.min.array() - 1e-12).all() && (x.array() <= box.max.array() + 1e-12).all());
  }
}

TEST(CollisionDisk, BallOnTheDiskFaceAndOnItsRim) {
  const Shape ball = Shape::sphere(0.1), disk = Shape::disk(0.3);
  for (const Matrix3& rotation : someRotations()) {
    const Pose diskPose = poseOf(Vector3(1, 0, 0), rotation);
    const Vector3 normal = rotation.col(2);
    std::vector<ContactPoint> points;
    // Over the face, 0.09 from it: 0.01 deep, along the disk's normal.
    const Vector3 overFace = diskPose.position + rotation * Vector3(0.1, -0.15, 0.09);
    EXPECT_NEAR(collide(ball, poseOf(overFace), disk, diskPose, 0, points), -0.01, 1e-12);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_LT((points[0].normal - normal).norm(), 1e-12);
    expectConventions(points);
    // Beyond the rim: the distance to the rim point.
    points.clear();
    const Vector3 beyond = diskPose.position + rotation * Vector3(0.36, 0, 0.08);
    EXPECT_NEAR(collide(ball, poseOf(beyond), disk, diskPose, 0, points), 0.1 - 0.1, 1e-12);
    points.clear();
    const Vector3 nearer = diskPose.position + rotation * Vector3(0.345, 0, 0.06);
    EXPECT_NEAR(collide(ball, poseOf(nearer), disk, diskPose, 0, points), 0.075 - 0.1, 1e-12);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_LT((points[0].normal - rotation * Vector3(0.6, 0, 0.8)).norm(), 1e-12);
    expectSwappedMirrors(ball, poseOf(nearer), disk, diskPose);
  }
}

TEST(CollisionDisk, DiskOnABoxIsACylinderOfNoLength) {
  const Shape disk = Shape::disk(0.2), box = Shape::box(Vector3(1, 1, 0.5));
  const Pose boxPose = poseOf(Vector3(0, 0, -0.5));
  // Tilted: its lowest rim point r·sin φ below its centre, 4 mm into the face.
  for (double tilt : {0.3, 0.8, 1.5707963267948966}) {
    std::vector<ContactPoint> points;
    const double centreHeight = 0.2 * std::sin(tilt) - 0.004;
    const Pose diskPose = poseOf(Vector3(0.1, 0, centreHeight), tilt, Vector3::UnitY());
    EXPECT_NEAR(collide(disk, diskPose, box, boxPose, 0, points), -0.004, kExact) << "tilt " << tilt;
    ASSERT_FALSE(points.empty());
    for (const ContactPoint& point : points) EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), kExact);
    EXPECT_NEAR(sumOfShares(points), 1.0, 1e-12);
    expectConventions(points);
    expectSwappedMirrors(disk, diskPose, box, boxPose);
  }
  // Flat: the whole disk, one patch centred on it.
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(disk, poseOf(Vector3(0.3, -0.2, -0.002)), box, boxPose, 0, points), -0.002, kExact);
  ASSERT_GE(points.size(), 3u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.002, 1e-12);
    EXPECT_NEAR(point.area, kPi * 0.04, 0.012 * kPi * 0.04);
  }
  EXPECT_LT((centreOfPressure(points) - Vector3(0.3, -0.2, -0.001)).norm(), 1e-12);
}

TEST(CollisionDisk, DiskOnACylinderThroughGjkEpaMatchesTheFlatDisk) {
  // GJK/EPA takes the disk as a cylinder a millionth of its radius thick: depths within that of the flat disk's.
  const Shape disk = Shape::disk(0.2), drum = Shape::cylinder(1.0, 0.5);
  const Pose drumPose = poseOf(Vector3(0, 0, -0.5));  // standing, its top cap at z = 0
  for (double tilt : {0.3, 0.8}) {
    std::vector<ContactPoint> points;
    const double centreHeight = 0.2 * std::sin(tilt) - 0.004;
    const double distance =
        collide(disk, poseOf(Vector3(0.1, 0, centreHeight), tilt, Vector3::UnitY()), drum, drumPose, 0, points);
    EXPECT_NEAR(distance, -0.004, 1e-6 * 0.2 + 1e-9) << "tilt " << tilt;
    ASSERT_EQ(points.size(), 1u);
    EXPECT_LT((points[0].normal - Vector3::UnitZ()).norm(), 1e-6);
  }
  EXPECT_FALSE(hasAnalyticalRoutine(ShapeType::Disk, ShapeType::Cylinder));
  EXPECT_TRUE(hasAnalyticalRoutine(ShapeType::Disk, ShapeType::Box));
}

TEST(CollisionSimscape, PairsSimscapeDoesNotSupportAreRefusedAndNeverTouch) {
  using enum ShapeType;
  for (auto [a, b] : {std::pair{Point, Point}, {Point, PointCloud}, {PointCloud, PointCloud}, {Plane, Plane},
                      {Point, Disk}, {PointCloud, Disk}, {Disk, Disk}, {Disk, Mesh}, {Plane, HollowSphere},
                      {Disk, HollowSphere}}) {
    EXPECT_FALSE(simscapePairSupported(a, b)) << shapeTypeName(a) << "–" << shapeTypeName(b);
    EXPECT_FALSE(simscapePairSupported(b, a)) << shapeTypeName(b) << "–" << shapeTypeName(a);
  }
  for (auto [a, b] : {std::pair{Point, Sphere}, {Point, Mesh}, {Point, Plane}, {PointCloud, Ellipsoid},
                      {PointCloud, Plane}, {Plane, Box}, {Plane, Mesh}, {Plane, Disk}, {Disk, Sphere}, {Disk, Box},
                      {Sphere, Box}, {Mesh, Mesh}}) {
    EXPECT_TRUE(simscapePairSupported(a, b)) << shapeTypeName(a) << "–" << shapeTypeName(b);
    EXPECT_TRUE(simscapePairSupported(b, a)) << shapeTypeName(b) << "–" << shapeTypeName(a);
  }
  std::vector<ContactPoint> points;
  const double never = std::numeric_limits<double>::infinity();
  EXPECT_EQ(collide(Shape::point(), Pose{}, Shape::point(), Pose{}, 1, points), never);
  EXPECT_EQ(collide(Shape::plane(), Pose{}, Shape::plane(), Pose{}, 1, points), never);
  EXPECT_TRUE(points.empty());
}

TEST(CollisionSimscape, PlaneBoxIsTheHalfSpaceAndTheBroadPhaseFindsItsPairs) {
  // Level: bounded above at its height; turned the least: unbounded.
  const Aabb level = boundsOf(Shape::plane(), poseOf(Vector3(0, 0, 0.25)));
  EXPECT_EQ(level.max.z(), 0.25);
  EXPECT_EQ(level.min.z(), -std::numeric_limits<double>::infinity());
  EXPECT_EQ(level.max.x(), std::numeric_limits<double>::infinity());
  const Aabb ceiling = boundsOf(Shape::plane(), poseOf(Vector3(0, 0, 2), Vector3(1, -1, -1).asDiagonal()));
  EXPECT_EQ(ceiling.min.z(), 2.0);
  EXPECT_EQ(ceiling.max.z(), std::numeric_limits<double>::infinity());
  const Aabb tilted = boundsOf(Shape::plane(), poseOf(Vector3::Zero(), 1e-9, Vector3::UnitX()));
  EXPECT_EQ(tilted.max.z(), std::numeric_limits<double>::infinity());
  // 60 small boxes at heights from −1 to 2 and a plane at z = 0.5: the plane pairs with exactly those reaching
  // below 0.5, as comparing every pair says, in the grid broad phase (the plane a large box) and the Verlet list.
  std::vector<Aabb> boxes;
  for (int k = 0; k < 60; ++k) {
    const Vector3 centre(0.37 * (k % 7), 0.23 * (k % 5), -1 + 0.05 * k);
    boxes.push_back({centre.array() - 0.04, centre.array() + 0.04});
  }
  boxes.insert(boxes.begin() + 17, boundsOf(Shape::plane(), poseOf(Vector3(0, 0, 0.5))));
  std::vector<std::pair<int, int>> brute;
  for (int i = 0; i < static_cast<int>(boxes.size()); ++i) {
    for (int k = i + 1; k < static_cast<int>(boxes.size()); ++k) {
      if (boxes[static_cast<size_t>(i)].overlaps(boxes[static_cast<size_t>(k)])) brute.emplace_back(i, k);
    }
  }
  int withPlane = 0;
  for (const auto& [i, k] : brute) withPlane += (i == 17 || k == 17) ? 1 : 0;
  EXPECT_EQ(withPlane, 31) << "boxes reaching below z = 0.5: centres up to 0.54";
  BroadPhase broadPhase;
  std::vector<std::pair<int, int>> found;
  broadPhase.findOverlaps(boxes, found);
  EXPECT_EQ(found, brute);
  VerletList kept(0.1);
  kept.findOverlaps(boxes, found);
  EXPECT_EQ(found, brute);
}

}  // namespace
}  // namespace lodestone

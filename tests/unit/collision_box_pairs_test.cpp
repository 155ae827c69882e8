// Box–box and cylinder–box: a face, line or cap contact is one patch — points that share the law's one evaluation
// (the patch's depth and area) and carry parts of its force by area × depth — and crossed edges give one point.
#include <cmath>
#include <numbers>

#include <gtest/gtest.h>

#include "collision_test_support.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {

using testing::centreOfPressure;
using testing::expectConventions;
using testing::expectSwappedMirrors;
using testing::frictionRadius;
using testing::poseOf;
using testing::sumOfShares;

constexpr double kTolerance = 1e-12;

// The mean distance of a unit square's points from its centre, (√2 + ln(1 + √2))/6: a spinning square face under
// uniform pressure brakes with this friction radius.
const double kSquareFrictionRadius = (std::sqrt(2.0) + std::log(1 + std::sqrt(2.0))) / 6;

TEST(CollisionBoxBox, FlatOnLargerBoxGivesOnePatchOverTheFace) {
  const Shape top = Shape::box(Vector3(0.5, 0.5, 0.5)), base = Shape::box(Vector3(2, 2, 1));
  for (double yaw : {0.0, 0.5, 1.2}) {
    const Pose poseB = poseOf(Vector3(0, 0, 0));
    const Pose poseA = poseOf(Vector3(0.1, -0.2, 1.49), yaw);
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(top, poseA, base, poseB, 0, points), -0.01, kTolerance);
    ASSERT_GE(points.size(), 4u);
    for (const ContactPoint& point : points) {
      EXPECT_NEAR(point.depth, 0.01, kTolerance);  // the patch's: the law acts once with it
      EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), kTolerance);
      EXPECT_NEAR(point.pointOnA.z(), 0.99, kTolerance);
      EXPECT_NEAR(point.pointOnB.z(), 1.0, kTolerance);
      // Within the top box's bottom face.
      const Vector3 local = poseA.rotation.transpose() * (point.pointOnA - poseA.position);
      EXPECT_LT(std::abs(local.x()), 0.5);
      EXPECT_LT(std::abs(local.y()), 0.5);
      EXPECT_NEAR(point.area, 1.0, kTolerance);  // the patch's: the 1 × 1 face
    }
    EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
    // Uniform depth, uniform pressure: the centre of pressure is the face's centre (the quadrature integrates the
    // first moment exactly), and the friction radius is the square's, to the quadrature's 0.6 %.
    EXPECT_LT((centreOfPressure(points) - Vector3(0.1, -0.2, 0.995)).norm(), 1e-12);
    EXPECT_NEAR(frictionRadius(points, Vector3(0.1, -0.2, 0.995), Vector3::UnitZ()), kSquareFrictionRadius,
                0.01 * kSquareFrictionRadius);
    expectConventions(points);
    expectSwappedMirrors(top, poseA, base, poseB);
  }
}

TEST(CollisionBoxBox, FlatOnSmallerBoxClipsToTheSmallerFace) {
  // The big box on top of a small one: the patch is the small box's top face.
  const Shape top = Shape::box(Vector3(2, 2, 1)), base = Shape::box(Vector3(0.5, 0.5, 0.5));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(top, poseOf(Vector3(0.3, 0, 1.48)), base, poseOf(Vector3::Zero(), 0.3), 0, points), -0.02,
              kTolerance);
  ASSERT_GE(points.size(), 4u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.02, kTolerance);
    EXPECT_NEAR(point.pointOnB.z(), 0.5, kTolerance);
    EXPECT_NEAR(point.area, 1.0, kTolerance);
  }
  EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
  EXPECT_LT((centreOfPressure(points) - Vector3(0, 0, 0.49)).norm(), 1e-12);
  expectConventions(points);
}

TEST(CollisionBoxBox, BoxOnItsEdgeOrVertexGivesThePatchBelowTheFace) {
  const Shape cube = Shape::box(Vector3(0.5, 0.5, 0.5)), base = Shape::box(Vector3(3, 3, 1));
  // Tilted 10° about x: the lowest edge (along x) is 0.5(cos θ + sin θ) below the centre.
  const double angle = 10 * kPi / 180;
  const double reach = 0.5 * (std::cos(angle) + std::sin(angle));
  const Pose onEdge = poseOf(Vector3(0.2, 0.1, 1 + reach - 0.003), angle, Vector3::UnitX());
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cube, onEdge, base, poseOf(Vector3::Zero()), 0, points), -0.003, kTolerance);
  ASSERT_GE(points.size(), 2u);
  // Patch: the bottom face below the base's top, 0.003/sin θ up the slope, projected: a strip 1 × 0.003/tan θ
  // whose depth falls linearly from the edge: its law acts at the depth of its middle, and its centre of pressure
  // is a third of the way across.
  const double width = 0.003 / std::tan(angle);
  const double edgeY = 0.1 - 0.5 * std::cos(angle) + 0.5 * std::sin(angle);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.0015, kTolerance);
    EXPECT_NEAR(point.area, width, 1e-12);
  }
  EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
  const Vector3 centre = centreOfPressure(points);
  EXPECT_NEAR(centre.x(), 0.2, 1e-12);
  EXPECT_NEAR(centre.y(), edgeY + width / 3, 1e-9);
  expectConventions(points);
  expectSwappedMirrors(cube, onEdge, base, poseOf(Vector3::Zero()));

  // Tilted about two axes: one vertex lowest; the patch is the corner of its face below the plane, a triangle whose
  // depth falls linearly from the vertex: its law acts at the depth of its centroid, a third of the vertex's.
  const Matrix3 rotation = (Eigen::AngleAxisd(0.3, Vector3::UnitX()) * Eigen::AngleAxisd(0.2, Vector3::UnitY()))
                               .toRotationMatrix();
  Vector3 lowestCorner = Vector3::Zero();
  for (int vertex = 0; vertex < 8; ++vertex) {
    const Vector3 corner(vertex & 1 ? 0.5 : -0.5, vertex & 2 ? 0.5 : -0.5, vertex & 4 ? 0.5 : -0.5);
    if ((rotation * corner).z() < (rotation * lowestCorner).z() || vertex == 0) lowestCorner = corner;
  }
  const double lowest = -(rotation * lowestCorner).z();
  const Pose onVertex{Vector3(0, 0, 1 + lowest - 0.004), rotation};
  points.clear();
  EXPECT_NEAR(collide(cube, onVertex, base, poseOf(Vector3::Zero()), 0, points), -0.004, kTolerance);
  ASSERT_GE(points.size(), 1u);
  for (const ContactPoint& point : points) EXPECT_NEAR(point.depth, 0.004 / 3, kTolerance);
  const Vector3 vertex = onVertex.position + rotation * lowestCorner;
  EXPECT_NEAR(vertex.z(), 1 - 0.004, kTolerance);
  // The triangle's sides along the two edges of the face turned down most: each as long as 0.004 over its slope.
  EXPECT_LT((centreOfPressure(points) - vertex).norm(), 0.1);
  EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
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

// The force a law k·δ^1.5 (a patch acting once at its depth, each point with its share) puts on A, and its moment
// about A's centre.
struct LawLoads {
  Vector3 force = Vector3::Zero(), moment = Vector3::Zero();
};
LawLoads lawLoadsOn(const Pose& poseA, const std::vector<ContactPoint>& points) {
  LawLoads loads;
  for (const ContactPoint& point : points) {
    const Vector3 force = point.share * std::pow(point.depth, 1.5) * point.normal;
    loads.force += force;
    loads.moment += (0.5 * (point.pointOnA + point.pointOnB) - poseA.position).cross(force);
  }
  return loads;
}

// The largest difference between neighbouring samples of `sampleAt` at `samples` + 1 evenly spaced points of a path's
// parameter in [0, 1], measured by `difference`: sampled four times finer, a continuous quantity's falls about
// fourfold, a jump's not at all.
template <class SampleAt, class Difference>
double largestNeighbourChange(int samples, SampleAt sampleAt, Difference difference) {
  double largest = 0;
  auto previous = sampleAt(0.0);
  for (int k = 1; k <= samples; ++k) {
    const auto current = sampleAt(static_cast<double>(k) / samples);
    largest = std::max(largest, difference(current, previous));
    previous = current;
  }
  return largest;
}

TEST(CollisionBoxBox, AFacePatchTurnsIntoCrossedEdgesWithoutAJump) {
  // A 15 mm cube pressed 10 µm into the side of a wall whose top edge crosses the cube's face, turned about the
  // vertical from square to the wall until one of its vertical edges digs into the wall's top edge: the pair goes
  // from a face patch to crossed edges (the crane's cubes in their box) within 4e-5 rad of turn, and the law's force
  // nearly triples (the patch acts with its sliver's mean depth, the crossing with its full depth). That must not be
  // a jump: sampled four times finer, the largest change between neighbouring samples falls about fourfold (by a
  // third if the force jumped).
  const Shape cube = Shape::box(Vector3(0.0075, 0.0075, 0.0075)), wall = Shape::box(Vector3(0.005, 0.05, 0.025));
  const Pose poseB = poseOf(Vector3::Zero());
  // Leaning 0.05 rad over the wall's top edge, which crosses the face 3 mm below the cube's centre; turned 1e-4 rad.
  auto posed = [&](double fraction) {
    const Matrix3 rotation =
        (Eigen::AngleAxisd(1e-4 * fraction, Vector3::UnitZ()) * Eigen::AngleAxisd(-0.05, Vector3::UnitY()))
            .toRotationMatrix();
    const Vector3 edge(0.005, 0.01, 0.025);
    return Pose{edge + (0.0075 - 1e-5) * rotation.col(0) + 0.003 * rotation.col(2), rotation};
  };
  auto pointsAt = [&](double fraction) {
    std::vector<ContactPoint> points;
    collide(cube, posed(fraction), wall, poseB, 0, points);
    return points;
  };
  auto edgeShareAt = [&](double fraction) {
    double share = 0;
    for (const ContactPoint& point : pointsAt(fraction)) share += point.area == 0 ? point.share : 0.0;
    return share;
  };
  EXPECT_EQ(edgeShareAt(0), 0.0);
  EXPECT_EQ(edgeShareAt(1), 1.0);
  auto loadsAt = [&](double fraction) { return lawLoadsOn(posed(fraction), pointsAt(fraction)); };
  // The moment's lever is the cube's half size.
  auto difference = [](const LawLoads& current, const LawLoads& previous) {
    return std::max((current.force - previous.force).norm(), (current.moment - previous.moment).norm() / 0.0075);
  };
  const double coarse = largestNeighbourChange(100, loadsAt, difference);
  const double fine = largestNeighbourChange(400, loadsAt, difference);
  EXPECT_LT(fine, 0.35 * coarse);
}

TEST(CollisionBoxBox, ACubeTiltedOnAnotherTurnsFromOneFaceToTheOtherWithoutAJump) {
  // A 15 mm cube on another, tilted 0.01 rad about x and pressed 10 µm in, slid 1.2 mm along y either side of where
  // its lowest edge is over the lower cube's edge: which face is the reference (the lower cube's top or the upper
  // one's bottom, normals 0.01 rad apart) changes on the way, and the force turns by 0.01 rad: its sideways part must
  // not jump (as above: sampled four times finer, about a fourth of the largest change; the same if it jumped).
  const Shape cube = Shape::box(Vector3(0.0075, 0.0075, 0.0075));
  const Pose poseB = poseOf(Vector3::Zero());
  const Matrix3 tilted = Eigen::AngleAxisd(0.01, Vector3::UnitX()).toRotationMatrix();
  const double reach = (tilted.cwiseAbs() * Vector3::Constant(0.0075)).z();
  auto posed = [&](double fraction) {
    return Pose{Vector3(0.002, -0.0012 + 0.0024 * fraction, 0.0075 + reach - 1e-5), tilted};
  };
  auto pointsAt = [&](double fraction) {
    std::vector<ContactPoint> points;
    collide(cube, posed(fraction), cube, poseB, 0, points);
    return points;
  };
  EXPECT_EQ(pointsAt(0.5).size(), 32u) << "half-way, both faces' patches act";
  auto sidewaysAt = [&](double fraction) { return lawLoadsOn(posed(fraction), pointsAt(fraction)).force.y(); };
  auto difference = [](double current, double previous) { return std::abs(current - previous); };
  const double coarse = largestNeighbourChange(100, sidewaysAt, difference);
  const double fine = largestNeighbourChange(400, sidewaysAt, difference);
  EXPECT_LT(fine, 0.35 * coarse);
}

TEST(CollisionCylinderBox, LyingOnAFaceGivesALinePatch) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  for (double yaw : {0.0, 0.7, 2.0}) {
    // Axis horizontal at angle `yaw`: turn the z axis down onto x, then about z.
    const Matrix3 rotation = (Eigen::AngleAxisd(yaw, Vector3::UnitZ()) * Eigen::AngleAxisd(kPi / 2, Vector3::UnitY()))
                                 .toRotationMatrix();
    const Pose poseA{Vector3(0.3, -0.2, 1.5 - 0.02), rotation};
    const Pose poseB = poseOf(Vector3::Zero(), 0.1);
    std::vector<ContactPoint> points;
    EXPECT_NEAR(collide(cylinder, poseA, base, poseB, 0, points), -0.02, kTolerance);
    ASSERT_GE(points.size(), 2u);
    const Vector3 axis = rotation.col(2);
    // Strip 2·√(2Rδ − δ²) wide along the full length 2.
    const double area = 2 * std::sqrt(2 * 0.5 * 0.02 - 0.02 * 0.02) * 2;
    for (const ContactPoint& point : points) {
      EXPECT_NEAR(point.depth, 0.02, kTolerance);
      EXPECT_LT((point.normal - Vector3::UnitZ()).norm(), kTolerance);
      EXPECT_LE(std::abs((point.pointOnA - poseA.position).dot(axis)), 1.0 + kTolerance);  // along the line
      EXPECT_NEAR(point.area, area, kTolerance);
    }
    // Uniform along the line: the centre of pressure under the axis' middle, and a spin about it brakes with the
    // mean distance along the line, a quarter of its length (exact: the panels meet at the middle).
    EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
    const Vector3 centre(0.3, -0.2, 0.99);
    EXPECT_LT((centreOfPressure(points) - centre).norm(), 1e-12);
    EXPECT_NEAR(frictionRadius(points, centre, Vector3::UnitZ()), 0.5, 1e-12);
    expectConventions(points);
    expectSwappedMirrors(cylinder, poseA, base, poseB);
  }
}

TEST(CollisionCylinderBox, SlightlyTiltedLyingPressesHarderAtItsLowerEnd) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const double tilt = 0.004;  // the end at −x is 2·sin(tilt) lower
  const Matrix3 rotation = Eigen::AngleAxisd(kPi / 2 - tilt, Vector3::UnitY()).toRotationMatrix();
  const Pose poseA{Vector3(0, 0, 1.5 - 0.02), rotation};
  std::vector<ContactPoint> points;
  collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points);
  ASSERT_GE(points.size(), 2u);
  const double along = std::sin(tilt), across = 0.5 * std::cos(tilt);
  const double lowDepth = 0.02 + along - (0.5 - across), highDepth = 0.02 - along - (0.5 - across);
  // The line's weight per length goes as depth^1.5 (the overlap's cross-section), its area as depth^0.5 (the
  // strip's width): the centre of pressure along the axis (s from the middle towards the low end), and the law's
  // depth, the depth at the strip's centroid, by fine midpoint sums. The lowest generator lies R·sin(tilt) towards +x
  // from under the axis.
  double moment = 0, weight = 0, depthTimesArea = 0, area = 0;
  for (int k = 0; k < 20000; ++k) {
    const double s = -1 + (k + 0.5) / 10000;
    const double depth = 0.5 * (lowDepth + highDepth) + 0.5 * s * (lowDepth - highDepth);
    moment += s * std::pow(depth, 1.5);
    weight += std::pow(depth, 1.5);
    depthTimesArea += depth * std::sqrt(depth);
    area += std::sqrt(depth);
  }
  // (The lower cap's sliver, 0.004 rad from upright, moves it by 2e-6.)
  for (const ContactPoint& point : points) EXPECT_NEAR(point.depth, depthTimesArea / area, 5e-6);
  const double expected = -std::cos(tilt) * moment / weight + 0.5 * std::sin(tilt);
  // The lower cap, 0.004 rad from upright, adds a sliver with 2e-5 of the weight at x = −1.
  EXPECT_NEAR(centreOfPressure(points).x(), expected, 5e-5);
  EXPECT_LT(expected, -0.09);
  expectConventions(points);
}

TEST(CollisionCylinderBox, StandingOnItsCapGivesTheDisk) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const Pose poseA = poseOf(Vector3(0.4, 0.1, 2 - 0.001), 0.3);
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points), -0.001, kTolerance);
  ASSERT_GE(points.size(), 4u);
  for (const ContactPoint& point : points) {
    // The side's line along one generator brings a trace of tilt into the fit: (δ/R)^1.5 of the weight.
    EXPECT_NEAR(point.depth, 0.001, 1e-4 * 0.001);
    EXPECT_LE(std::hypot(point.pointOnA.x() - 0.4, point.pointOnA.y() - 0.1), 0.5 + kTolerance);  // within the rim
    EXPECT_NEAR(point.area, kPi * 0.25, kTolerance);                     // the whole end disk
  }
  // A spinning disk brakes with the friction radius (2/3)R of uniform pressure; the inscribed 24-gon the patch is
  // sampled on gives 0.86 % less. (A line of the side along one generator carries (δ/R)^1.5 of the weight, here 4e-5.)
  const Vector3 centre(0.4, 0.1, 0.9995);
  EXPECT_LT((centreOfPressure(points) - centre).norm(), 1e-4);
  EXPECT_NEAR(frictionRadius(points, centre, Vector3::UnitZ()), 2.0 / 3 * 0.5, 0.01 * 2.0 / 3 * 0.5);
  expectConventions(points);
  expectSwappedMirrors(cylinder, poseA, base, poseOf(Vector3::Zero()));
}

TEST(CollisionCylinderBox, TiltedOnItsRimPressesAtTheDeepestRimPoint) {
  const Shape cylinder = Shape::cylinder(0.5, 1.0), base = Shape::box(Vector3(3, 3, 1));
  const double tilt = 0.5;
  const Matrix3 rotation = Eigen::AngleAxisd(tilt, Vector3::UnitX()).toRotationMatrix();
  const double reach = 1.0 * std::cos(tilt) + 0.5 * std::sin(tilt);  // lowest rim point below the centre
  const Pose poseA{Vector3(0, 0, 1 + reach - 0.01), rotation};
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseA, base, poseOf(Vector3::Zero()), 0, points), -0.01, kTolerance);
  ASSERT_GE(points.size(), 1u);
  // The patch's depth falls to 0 from the rim point: the law acts at a depth between its centroid's and the rim's.
  for (const ContactPoint& point : points) {
    EXPECT_GT(point.depth, 0.004);
    EXPECT_LE(point.depth, 0.01);
  }
  // The rim point: the cap's centre moved down its slope by R. The patch reaches 0.01/sin(tilt) = 21 mm up the cap
  // and about √(2R·that) = 0.14 to each side: its centre of pressure lies within it, beside the rim point.
  const Vector3 rimPoint = poseA.position + rotation * Vector3(0, -0.5, -1.0);
  EXPECT_NEAR(rimPoint.z(), 0.99, kTolerance);
  EXPECT_LT((centreOfPressure(points) - rimPoint).norm(), 0.03);
  EXPECT_NEAR(sumOfShares(points), 1.0, kTolerance);
  expectConventions(points);
}

TEST(CollisionCylinderBox, BoxFlatOnTheCapGivesTheFaceWithinTheDisk) {
  // A 0.4 × 0.4 box resting on the top cap (R = 0.5) of a standing cylinder: the whole face is over the disk. Moved
  // towards the rim by 0.3 the face pokes out of it: the patch is the part over the disk.
  const Shape cylinder = Shape::cylinder(0.5, 1.0), box = Shape::box(Vector3(0.2, 0.2, 0.1));
  std::vector<ContactPoint> points;
  EXPECT_NEAR(collide(cylinder, poseOf(Vector3::Zero()), box, poseOf(Vector3(0, 0, 1.1 - 0.002)), 0, points), -0.002,
              kTolerance);
  ASSERT_GE(points.size(), 4u);
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.depth, 0.002, kTolerance);
    EXPECT_NEAR(point.area, 0.16, kTolerance);
    EXPECT_LT((point.normal + Vector3::UnitZ()).norm(), kTolerance);  // from the box down into the cylinder
  }
  EXPECT_LT((centreOfPressure(points) - Vector3(0, 0, 0.999)).norm(), 1e-12);
  EXPECT_NEAR(frictionRadius(points, Vector3(0, 0, 0.999), Vector3::UnitZ()), 0.4 * kSquareFrictionRadius,
              0.01 * 0.4 * kSquareFrictionRadius);
  expectConventions(points);
  expectSwappedMirrors(cylinder, poseOf(Vector3::Zero()), box, poseOf(Vector3(0, 0, 1.098)));

  points.clear();
  collide(cylinder, poseOf(Vector3::Zero()), box, poseOf(Vector3(0.4, 0, 1.098)), 0, points);
  ASSERT_GE(points.size(), 4u);
  for (const ContactPoint& point : points) EXPECT_LE(std::hypot(point.pointOnB.x(), point.pointOnB.y()), 0.5);
  // The part of the face [0.2, 0.6] × [−0.2, 0.2] inside the circle of radius 0.5, by a fine midpoint sum; the patch
  // is clipped to the inscribed 24-gon, which has 1.1 % less area than the circle.
  double inside = 0;
  for (int k = 0; k < 100000; ++k) {
    const double y = -0.2 + 0.4 * (k + 0.5) / 100000;
    inside += (std::sqrt(0.25 - y * y) - 0.2) * 0.4 / 100000;
  }
  EXPECT_NEAR(points[0].area, inside, 0.012 * inside);
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

// The signed distance as a root function: along straight paths through touching it changes sign exactly at the
// analytic touching configuration and has no jumps. Translation at unit speed changes a signed distance by at
// most the distance travelled, so consecutive samples may differ by at most the step (plus rounding).
#include <cmath>
#include <functional>
#include <numbers>

#include <gtest/gtest.h>

#include "collision_test_support.h"

namespace lodestone {
namespace {

using testing::poseOf;

constexpr double kPi = std::numbers::pi;

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

}  // namespace
}  // namespace lodestone

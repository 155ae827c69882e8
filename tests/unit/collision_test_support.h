// Shared helpers for the collision tests: poses from angle–axis rotations and the swapped-pair check.
#pragma once

#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/narrow_phase.h"

namespace lodestone::testing {

inline Pose poseOf(const Vector3& position, double angle = 0, const Vector3& axis = Vector3::UnitZ()) {
  return {position, Eigen::AngleAxisd(angle, axis.normalized()).toRotationMatrix()};
}

inline Pose poseOf(const Vector3& position, const Matrix3& rotation) { return {position, rotation}; }

// A few orientations that leave no axis special.
inline std::vector<Matrix3> someRotations() {
  return {Matrix3::Identity(), Eigen::AngleAxisd(0.3, Vector3(1, 2, 3).normalized()).toRotationMatrix(),
          Eigen::AngleAxisd(2.1, Vector3(-1, 0.5, 0.2).normalized()).toRotationMatrix(),
          Eigen::AngleAxisd(1.0, Vector3::UnitZ()).toRotationMatrix()};
}

// The B–A call must mirror the A–B call: same signed distance, points swapped, normals negated.
inline void expectSwappedMirrors(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB) {
  std::vector<ContactPoint> forward, backward;
  const double forwardDistance = collide(a, poseA, b, poseB, 1.0, forward);
  const double backwardDistance = collide(b, poseB, a, poseA, 1.0, backward);
  EXPECT_NEAR(forwardDistance, backwardDistance, 1e-12);
  ASSERT_EQ(forward.size(), backward.size());
  for (std::size_t k = 0; k < forward.size(); ++k) {
    EXPECT_LT((forward[k].pointOnA - backward[k].pointOnB).norm(), 1e-12);
    EXPECT_LT((forward[k].pointOnB - backward[k].pointOnA).norm(), 1e-12);
    EXPECT_LT((forward[k].normal + backward[k].normal).norm(), 1e-12);
    EXPECT_NEAR(forward[k].depth, backward[k].depth, 1e-12);
    EXPECT_NEAR(forward[k].area, backward[k].area, 1e-12);  // sphere–sphere computes the lens from its first sphere
    EXPECT_NEAR(forward[k].share, backward[k].share, 1e-12);
  }
}

// A patch's points: where each acts (midway between its surface points), weighted by the part of the force it
// carries.
inline Vector3 centreOfPressure(const std::vector<ContactPoint>& points) {
  Vector3 centre = Vector3::Zero();
  for (const ContactPoint& point : points) centre += point.share * 0.5 * (point.pointOnA + point.pointOnB);
  return centre;
}
// The friction radius of a patch spinning about `axis` through `centre`: the mean distance from the axis, weighted
// by the part of the force each point carries (the friction torque is μ·N times it).
inline double frictionRadius(const std::vector<ContactPoint>& points, const Vector3& centre, const Vector3& axis) {
  double radius = 0;
  for (const ContactPoint& point : points) {
    radius += point.share * (0.5 * (point.pointOnA + point.pointOnB) - centre).cross(axis).norm();
  }
  return radius;
}
inline double sumOfShares(const std::vector<ContactPoint>& points) {
  double sum = 0;
  for (const ContactPoint& point : points) sum += point.share;
  return sum;
}

// Every point obeys the documented conventions: unit normal, positive depth, pointOnB = pointOnA + depth·normal.
inline void expectConventions(const std::vector<ContactPoint>& points) {
  for (const ContactPoint& point : points) {
    EXPECT_NEAR(point.normal.norm(), 1.0, 1e-12);
    EXPECT_GT(point.depth, 0.0);
    EXPECT_LT((point.pointOnB - point.pointOnA - point.depth * point.normal).norm(), 1e-12);
  }
}

}  // namespace lodestone::testing

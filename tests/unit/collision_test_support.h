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
  }
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

// What the magnetics tests share: errors, volumes, a direction without symmetry.
#pragma once

#include <numbers>

#include "magnetics/cuboid_field.h"

namespace lodestone::magnet_testing {

inline double relativeError(const Vector3& value, const Vector3& reference) {
  return (value - reference).norm() / reference.norm();
}

// H of a point dipole m at the origin.
inline Vector3 dipoleField(const Vector3& moment, const Vector3& point) {
  const double distance = point.norm();
  const Vector3 n = point / distance;
  return (3 * n * n.dot(moment) - moment) / (4 * std::numbers::pi * distance * distance * distance);
}

inline double volume(const Cuboid& cuboid) { return 8 * cuboid.halfExtents.prod(); }

// A direction with no symmetry of a cuboid's, so no component vanishes by accident.
inline const Vector3 kSkewDirection = Vector3(0.3, -0.5, 0.8).normalized();

}  // namespace lodestone::magnet_testing

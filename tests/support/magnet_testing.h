// What the magnetics tests share: errors, volumes, a direction without symmetry.
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone::magnet_testing {

inline double relativeError(const Vector3& value, const Vector3& reference) {
  return (value - reference).norm() / reference.norm();
}

inline double volume(const Cuboid& cuboid) { return 8 * cuboid.halfExtents.prod(); }

// A direction with no symmetry of a cuboid's, so no component vanishes by accident.
inline const Vector3 kSkewDirection = Vector3(0.3, -0.5, 0.8).normalized();

}  // namespace lodestone::magnet_testing

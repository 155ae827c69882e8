// What collision hands to contact forces: one point of contact between two shapes, in ground.
#pragma once

#include "solver/core/rotation.h"

namespace lodestone {

// One contact point between shape A (on body I) and shape B (on body J).
// pointOnJ = pointOnA + depth·normal: for a penetration, the point on A lies inside B, deeper along −normal.
struct ContactPoint {
  Vector3 pointOnA = Vector3::Zero();   // on A's surface, ground
  Vector3 pointOnB = Vector3::Zero();   // on B's surface, ground
  Vector3 normal = Vector3::UnitZ();    // unit, ground, from B towards A: the direction that pushes A out of B
  double depth = 0;                     // penetration (> 0)
  double area = 0;                      // this point's share of the overlap area on the contact plane; 0 unknown
  double share = 1;                     // the part of its law's force this point carries: for a mesh sample, its
                                        // part of its patch (halved with master_surface="I_AND_J"); 1 otherwise
};

}  // namespace lodestone

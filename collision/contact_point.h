// What collision hands to contact forces: one point of contact between two shapes, in ground.
#pragma once

#include "solver/core/rotation.h"

namespace lodestone {

// One contact point between shape A (on body I) and shape B (on body J): a sample of a contact patch — the region
// where the two touch (a sphere's one point, a face's clipped polygon, a line, a cap, a mesh patch). Every point of a
// patch carries the patch's depth, normal and area, so the contact law, evaluated at each point with the point's own
// motion, acts once per patch; the point carries `share` of that force.
// pointOnB = pointOnA + depth·normal, and the force acts midway between them.
struct ContactPoint {
  Vector3 pointOnA = Vector3::Zero();   // ground
  Vector3 pointOnB = Vector3::Zero();   // ground
  Vector3 normal = Vector3::UnitZ();    // unit, ground, from B towards A: the direction that pushes A out of B
  double depth = 0;                     // the patch's penetration (> 0): the depth its law acts with, its rigid
                                        // approach (collision/contact_patch.h, lawDepth)
  double area = 0;                      // the patch's overlap area on the contact plane; 0 unknown
  double share = 1;                     // the part of its patch's force this point carries (area × depth of its part
                                        // of the patch; halved for each side with master_surface="I_AND_J"); the
                                        // shares of a patch sum to 1
  double tilt = 0;                      // how much deeper than the patch's plane of approach this point lies because
                                        // the patch is tilted: a rocking patch stores ½·F·Σ share·tilt beyond the
                                        // law's own energy at its depth (exactly, under a linear law)
  int cloudPoint = -1;                  // a point cloud's contact: the index of the cloud's point (its own patch);
                                        // −1 for other shapes
};

}  // namespace lodestone

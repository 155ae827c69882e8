// The narrow phase: exact contact between two shapes through a dispatch table indexed by the two shape types.
// Analytical routines where they exist (sphere–sphere, sphere–box, box–box, sphere–cylinder, cylinder–box,
// sphere–frustum), FCL's GJK/EPA for the other convex pairs.
#pragma once

#include <vector>

#include "contact_point.h"
#include "shape.h"

namespace lodestone {

// Contact between shape `a` at `poseA` and shape `b` at `poseB`.
//
// Appends to `points` one ContactPoint per point of contact while the shapes overlap (several where the contact
// is a patch or a line: box face on box face gives the corners of the overlap polygon, a cylinder lying on a
// face gives its two end points), and nothing while they are apart.
//
// Returns the signed distance between the shapes: the gap (> 0) while apart, minus the largest penetration
// depth (< 0) while they overlap. It is continuous in the poses, so it can serve as a root function. When the
// shapes are farther apart than `margin`, any value ≥ margin may be returned (a cheap bound is enough).
double collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points);

// True when the pair is computed by an exact routine, false when it goes through FCL's GJK/EPA.
bool hasAnalyticalRoutine(ShapeType a, ShapeType b);

}  // namespace lodestone

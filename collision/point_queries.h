// Where a point is relative to a primitive's surface: the signed distance (negative inside), the nearest surface
// point and the outward normal there, all in the shape's frame. Mesh contact asks this of every penetrating
// triangle centre or node of a mesh against a primitive (a "semi" pair), so it is exact for every primitive and
// cheap: closed forms for the sphere, box, cylinder and frustum, a safeguarded 1-D root search for the ellipsoid.
#pragma once

#include "shape.h"

namespace lodestone {

struct SurfacePoint {
  double distance = 0;                   // > 0 outside, < 0 inside
  Vector3 nearest = Vector3::Zero();     // on the surface
  Vector3 normal = Vector3::UnitZ();     // unit, outward, at `nearest`
};

// For a primitive (not Mesh) or an infinite Plane (the height above it); `point` in the shape frame. Points, clouds and
// disks have no inside: asking of them throws.
SurfacePoint nearestSurfacePoint(const Shape& shape, const Vector3& point);

}  // namespace lodestone

// Primitives as triangle meshes, for contact that uses meshes (a pair without an exact routine, or
// enable_analytical="FALSE"). Every mesh is closed, wound counter-clockwise seen from outside, with its vertices on
// the true surface, in the shape's own frame. How fine is set by the graphic's refinement_level (ours: MotionSolve
// does not publish its rule):
//
//   Sphere, Ellipsoid   icosahedron subdivided 2 + level times (level 0: 320 triangles; each level ×4)
//   Box                 each face a grid of 2^(level+1) × 2^(level+1) squares, two triangles each (level 0: 48)
//   Cylinder, Frustum   16·2^level sides; rings along the axis about as far apart as the sides are wide (at least
//                       one segment, at most 4·sides); end caps fanned from their centre
//
// so the largest distance between mesh and surface roughly quarters (spheres, cylinders' sides) with each level.
#pragma once

#include "shape.h"
#include "triangle_mesh.h"

namespace lodestone {

// Highest refinement level accepted: level 6 makes a 1.3-million-triangle sphere.
constexpr int kMaxRefinementLevel = 6;

// The mesh of a primitive (not Mesh) at `level` (0 … kMaxRefinementLevel).
TriangleMesh tessellate(const Shape& shape, int level);

// Enclosed volume of a closed mesh (negative when its normals point inwards).
double meshVolume(const TriangleMesh& mesh);

}  // namespace lodestone

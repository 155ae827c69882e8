// The narrow phase: exact contact between two shapes through a dispatch table indexed by the two shape types.
// Analytical routines where they exist (sphere–sphere, sphere–box, box–box, sphere–cylinder, cylinder–box,
// sphere–frustum), FCL's GJK/EPA for the other convex pairs, and mesh contact (collision/mesh_pairs.cpp) for pairs
// with a triangle mesh or whose element asks for tessellated surfaces. A spherical cavity (HollowSphere) is the exact
// master of its pairs: a ball inside it in closed form, any other shape by its samples. Plane curves meet only
// plane curves, by MotionSolve's 2D curve contact (collision/curve_contact_2d.h).
#pragma once

#include <limits>
#include <optional>
#include <vector>

#include "contact_point.h"
#include "shape.h"

namespace lodestone {

// Force_Contact's choices for pairs that go through meshes. A is the I side, B the J side.
enum class MasterSurface { I, J, IAndJ, Auto };
struct ContactOptions {
  // The surface the other side's samples are measured against: J (A's samples against B), I, both (each half the
  // force), or AUTO: an exact primitive when there is one, else the coarser mesh (so the finer one is sampled).
  MasterSurface master = MasterSurface::Auto;
  bool nodeMode = false;    // sample a mesh's nodes, each with a third of its triangles' area; else triangle centres
  bool analytical = true;   // false: primitives too are contact meshes, their tessellation (Shape::surface)
  // ignore_penetration_larger_than: a pair of primitives deeper than this exerts no force; of a mesh pair, the
  // samples deeper than this are left out (a point pushed through a thin part would be pushed out the far side).
  double ignoreDeeperThan = std::numeric_limits<double>::infinity();
  // The gap within which a field law (DIPOLE) acts; 0 for contact laws. Mesh pairs measure the gap only within a
  // small part of the sampled mesh's size (beyond it they return that part, which is all root finding needs), or
  // within this when larger.
  double fieldRange = 0;
  // contact_stability_2d, for pairs of curves (collision/curve_contact_2d.h, curveContact); absent: the point of
  // maximum penetration.
  std::optional<double> curveStability;
};

// Contact between shape `a` at `poseA` and shape `b` at `poseB`.
//
// Appends to `points` the samples of each contact patch while the shapes overlap (see ContactPoint: a sphere gives
// one point; a box face on a box face, a cylinder lying or standing on a face, a box on a cylinder's cap give a
// patch sampled over its overlap region; crossed edges one point; a mesh pair its penetrating samples gathered in
// patches), and nothing while they are apart.
//
// Returns the signed distance between the shapes: the gap (> 0) while apart, minus the largest penetration
// depth (< 0) while they overlap. It is continuous in the poses, so it can serve as a root function. When the
// shapes are farther apart than `margin`, any value ≥ margin may be returned (a cheap bound is enough). Mesh pairs
// return the gap while it is below a nearer range and beyond it that range or the bounding spheres' gap, whichever
// is larger (see ContactOptions::fieldRange); the value stays continuous through the whole approach.
//
// Every patch's points have the patch's depth (lawDepth in collision/contact_patch.h: its rigid approach, the mean
// over a flat face, the deepest sample of a curved surface), normal and area, and carry the part area ×
// depth of the patch's force (ContactPoint::share), so the law acts once per patch, the centre of pressure follows the
// depth, and a sample that just begins to penetrate adds nothing. Analytical patches (collision/contact_patch.h) are
// sampled by quadrature over their polygon or line; mesh patches (mesh_pairs.cpp) are connected sets of samples.
double collide(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points, const ContactOptions& options = {});

// Whether collide() computes the pair: every pair of the solids, meshes and cavities, and of Simscape's geometries
// (Point, PointCloud, Plane, Disk) those Simscape's Spatial Contact Force supports and Lodestone builds — a point or a
// cloud against any solid, mesh or the plane; the plane against any solid, mesh, point, cloud or disk; a disk against
// the plane and the convex solids. Other pairs (point–point, plane–plane, disk–mesh…) are refused when a deck is
// checked; collide() says they never touch (+∞).
bool simscapePairSupported(ShapeType a, ShapeType b);

// True when the pair is computed by an exact routine, false when it goes through FCL's GJK/EPA.
bool hasAnalyticalRoutine(ShapeType a, ShapeType b);

}  // namespace lodestone

// Contact geometry: the convex primitives of Post_Graphic and closed triangle meshes, each in its own shape frame,
// and their bounding boxes in ground. Elements build shapes from graphics; collision never sees the deck.
#pragma once

#include <memory>
#include <vector>

#include "curve2d.h"
#include "grid_surface.h"
#include "solver/core/rotation.h"
#include "triangle_mesh.h"

namespace lodestone {

class MeshGeometry;
struct CloudPoints;

enum class ShapeType {
  Sphere, Box, Cylinder, Frustum, Ellipsoid, Mesh, HollowSphere, Curve,
  // Simscape's geometries (collision/pairs_simscape.cpp): a point, a cloud of points, an infinite plane, a flat disk.
  Point, PointCloud, Plane, Disk,
  // Simscape's grid surface (collision/grid_surface.h): heights over a grid, the material below.
  GridSurface
};
constexpr int kShapeTypeCount = 13;

// Point, PointCloud, Plane, Disk and GridSurface: Simscape's contact geometries, which meet other shapes only through
// their own routines (collision/pairs_simscape.cpp, a ball on a grid in pairs_sphere.cpp), never as meshes, and only
// in the pairs Simscape's Spatial Contact Force supports (simscapePairSupported; a grid also meets balls).
constexpr bool isSimscapeGeometry(ShapeType type) {
  return type == ShapeType::Point || type == ShapeType::PointCloud || type == ShapeType::Plane ||
         type == ShapeType::Disk || type == ShapeType::GridSurface;
}


const char* shapeTypeName(ShapeType type);  // "sphere"

// A shape in its own frame. The frame is where the geometry is simplest:
// - Sphere: centre at the origin, `radius`.
// - Box: centre at the origin, edges along the axes, `halfExtents`.
// - Cylinder: centre at the origin, axis z, `radius`, from z = −halfLength to +halfLength.
// - Frustum: axis z, `bottomRadius` at z = 0, `topRadius` at z = length (> 0); one radius may be 0 (a cone).
// - Ellipsoid: centre at the origin, semi-axes `semiAxes` along x, y, z.
// - Mesh: a closed triangle mesh, `surface`, in the shape frame.
// - HollowSphere: the material outside a sphere of `radius` centred at the origin (a Sphere graphic with
//   is_material_inside="FALSE"): a spherical container, touched from inside. Never tessellated: it is always the
//   exact master of its pairs.
// - Curve: a smooth plane curve, `curve`, in the xy plane of the shape frame (a ParamCurve graphic): MotionSolve's 2D
//   curve contact, which meets only other curves in the same plane (collision/curve_contact_2d.h).
// - GridSurface: Simscape's grid surface, `grid`, heights over the shape frame's xy plane with the material below
//   (collision/grid_surface.h); it meets spheres, points and point clouds.
// - Point: the origin.
// - PointCloud: `cloud`'s points, each its own contact.
// - Plane: the xy plane, the material below it (z < 0): an infinite half-space. It has no bounding sphere
//   (boundingRadius() is 0 and collide() never bounds its pairs by it) and its box is the half-space's (boundsOf).
// - Disk: a flat disk of `radius` in the xy plane, centred at the origin, its normal along z.
// A primitive's `surface` is its tessellation when some contact needs it as a mesh (enable_analytical="FALSE", or
// a mesh as master surface); null otherwise.
struct Shape {
  ShapeType type = ShapeType::Sphere;
  double radius = 0;
  Vector3 halfExtents = Vector3::Zero();
  double halfLength = 0;
  double bottomRadius = 0, topRadius = 0, length = 0;
  Vector3 semiAxes = Vector3::Zero();
  std::shared_ptr<const MeshGeometry> surface;
  std::shared_ptr<const SplineCurve2d> curve;
  std::shared_ptr<const GridSurface> grid;
  std::shared_ptr<const CloudPoints> cloud;

  static Shape sphere(double radius);
  static Shape box(const Vector3& halfExtents);
  static Shape cylinder(double radius, double halfLength);
  static Shape frustum(double bottomRadius, double topRadius, double length);
  static Shape ellipsoid(const Vector3& semiAxes);
  static Shape mesh(std::shared_ptr<const MeshGeometry> surface);
  static Shape hollowSphere(double radius);
  static Shape planeCurve(std::shared_ptr<const SplineCurve2d> curve);
  static Shape gridSurface(std::shared_ptr<const GridSurface> grid);
  static Shape point();
  static Shape pointCloud(std::vector<Vector3> points);
  static Shape plane();
  static Shape disk(double radius);

  // Radius of a sphere about the shape-frame origin that holds the whole shape.
  double boundingRadius() const;
};

// A frame in ground: origin and axes (columns).
struct Pose {
  Vector3 position = Vector3::Zero();
  Matrix3 rotation = Matrix3::Identity();
};

struct Aabb {
  Vector3 min = Vector3::Zero();
  Vector3 max = Vector3::Zero();

  bool overlaps(const Aabb& other) const {
    return (min.array() <= other.max.array()).all() && (other.min.array() <= max.array()).all();
  }
  // False when either box has a NaN.
  bool contains(const Aabb& other) const {
    return (min.array() <= other.min.array()).all() && (other.max.array() <= max.array()).all();
  }
  Aabb inflated(double margin) const { return {min.array() - margin, max.array() + margin}; }
};

// The points of a PointCloud in its shape frame, with their box and bounding radius.
struct CloudPoints {
  std::vector<Vector3> points;
  Aabb bounds;
  double boundingRadius = 0;
};

// A tight axis-aligned box around the shape at `pose` (exact for boxes, spheres, cylinders and ellipsoids). A Plane's
// is the half-space's: unbounded, but bounded above along a ground axis its normal lies exactly along.
Aabb boundsOf(const Shape& shape, const Pose& pose);

}  // namespace lodestone

// Thinnest extents of shapes: closed forms for the primitives, sphere tracing inward from the surface for meshes.
#include "shape_thickness.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "mesh_geometry.h"

namespace lodestone {

namespace {

// The distance from the surface point `start` (on a face with outward unit `normal`) along −normal to where the
// ray leaves the solid. Sphere tracing: each step is the distance to the nearest surface, so it never passes one;
// near the start face the steps double, near the far face they shrink geometrically. A trace cut short by the
// iteration limit has not yet reached the far side: what it returns is still a lower bound, as wanted.
double thicknessAlongNormal(const MeshGeometry& mesh, const Vector3& start, const Vector3& normal, int& hint) {
  constexpr int kMaxIterations = 200;
  constexpr double kRelativeTolerance = 1e-3;  // the answer to 0.1 %
  double travelled = 1e-6 * mesh.boundingRadius();
  for (int iteration = 0; iteration < kMaxIterations; ++iteration) {
    const SurfacePoint surface = mesh.nearestSurfacePoint(start - travelled * normal, &hint);
    if (surface.distance >= 0) return travelled;  // on or past the far surface
    const double step = -surface.distance;
    if (step <= kRelativeTolerance * travelled) return travelled + step;
    travelled += step;
  }
  return travelled;
}

}  // namespace

double meshThickness(const MeshGeometry& mesh) {
  const Aabb& bounds = mesh.bounds();
  double thinnest = (bounds.max - bounds.min).minCoeff();
  int hint = -1;
  for (int triangle = 0; triangle < mesh.triangleCount(); ++triangle) {
    thinnest = std::min(thinnest, thicknessAlongNormal(mesh, mesh.centre(triangle), mesh.normal(triangle), hint));
  }
  return thinnest;
}

double thinnestExtent(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return 2 * shape.radius;
    case ShapeType::Box: return 2 * shape.halfExtents.minCoeff();
    case ShapeType::Cylinder: return std::min(2 * shape.radius, 2 * shape.halfLength);
    case ShapeType::Frustum: return std::min(shape.length, shape.bottomRadius + shape.topRadius);
    case ShapeType::Ellipsoid: return 2 * shape.semiAxes.minCoeff();
    case ShapeType::Mesh: return shape.surface ? meshThickness(*shape.surface) : 0.0;
    // The material outside a cavity has no far side to pass through.
    case ShapeType::HollowSphere: return std::numeric_limits<double>::infinity();
    // A closed curve is as thin as its box's narrower side (a profile's teeth may be thinner still); an open one, a
    // track or a ground profile, bounds material that reaches beyond it.
    case ShapeType::GridSurface: return std::numeric_limits<double>::infinity();  // its material reaches down
    case ShapeType::Curve: {
      if (!shape.curve || !shape.curve->closed()) return std::numeric_limits<double>::infinity();
      return (shape.curve->boundsMax() - shape.curve->boundsMin()).minCoeff();
    }
    // Nothing passes through a point or a half-space: the other shape's thickness is the pair's.
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Plane: return std::numeric_limits<double>::infinity();
    // A flat disk has no thickness of its own; a shape pressed through its face passes it at its radius's scale.
    case ShapeType::Disk: return shape.radius;
  }
  return 0;
}

}  // namespace lodestone

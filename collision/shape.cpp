// Shape factories, bounding radii and ground-frame bounding boxes: the cheap geometry the broad phase and the
// narrow phase's early-out rely on.
#include "shape.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "mesh_geometry.h"

namespace lodestone {

const char* shapeTypeName(ShapeType type) {
  switch (type) {
    case ShapeType::Sphere: return "sphere";
    case ShapeType::Box: return "box";
    case ShapeType::Cylinder: return "cylinder";
    case ShapeType::Frustum: return "frustum";
    case ShapeType::Ellipsoid: return "ellipsoid";
    case ShapeType::Mesh: return "mesh";
    case ShapeType::HollowSphere: return "hollow sphere";
    case ShapeType::Curve: return "curve";
    case ShapeType::GridSurface: return "grid surface";
    case ShapeType::Point: return "point";
    case ShapeType::PointCloud: return "point cloud";
    case ShapeType::Plane: return "infinite plane";
    case ShapeType::Disk: return "disk";
  }
  return "unknown";
}

Shape Shape::sphere(double radius) {
  Shape shape;
  shape.type = ShapeType::Sphere;
  shape.radius = radius;
  return shape;
}

Shape Shape::box(const Vector3& halfExtents) {
  Shape shape;
  shape.type = ShapeType::Box;
  shape.halfExtents = halfExtents;
  return shape;
}

Shape Shape::cylinder(double radius, double halfLength) {
  Shape shape;
  shape.type = ShapeType::Cylinder;
  shape.radius = radius;
  shape.halfLength = halfLength;
  return shape;
}

Shape Shape::frustum(double bottomRadius, double topRadius, double length) {
  Shape shape;
  shape.type = ShapeType::Frustum;
  shape.bottomRadius = bottomRadius;
  shape.topRadius = topRadius;
  shape.length = length;
  return shape;
}

Shape Shape::ellipsoid(const Vector3& semiAxes) {
  Shape shape;
  shape.type = ShapeType::Ellipsoid;
  shape.semiAxes = semiAxes;
  return shape;
}

Shape Shape::mesh(std::shared_ptr<const MeshGeometry> surface) {
  Shape shape;
  shape.type = ShapeType::Mesh;
  shape.surface = std::move(surface);
  return shape;
}

Shape Shape::hollowSphere(double radius) {
  Shape shape;
  shape.type = ShapeType::HollowSphere;
  shape.radius = radius;
  return shape;
}

Shape Shape::planeCurve(std::shared_ptr<const SplineCurve2d> curve) {
  Shape shape;
  shape.type = ShapeType::Curve;
  shape.curve = std::move(curve);
  return shape;
}

Shape Shape::point() {
  Shape shape;
  shape.type = ShapeType::Point;
  return shape;
}

Shape Shape::pointCloud(std::vector<Vector3> points) {
  auto cloud = std::make_shared<CloudPoints>();
  cloud->bounds = {Vector3::Constant(INFINITY), Vector3::Constant(-INFINITY)};
  for (const Vector3& point : points) {
    cloud->bounds.min = cloud->bounds.min.cwiseMin(point);
    cloud->bounds.max = cloud->bounds.max.cwiseMax(point);
    cloud->boundingRadius = std::max(cloud->boundingRadius, point.norm());
  }
  if (points.empty()) cloud->bounds = {};
  cloud->points = std::move(points);
  Shape shape;
  shape.type = ShapeType::PointCloud;
  shape.cloud = std::move(cloud);
  return shape;
}

Shape Shape::plane() {
  Shape shape;
  shape.type = ShapeType::Plane;
  return shape;
}

Shape Shape::disk(double radius) {
  Shape shape;
  shape.type = ShapeType::Disk;
  shape.radius = radius;
  return shape;
}

Shape Shape::gridSurface(std::shared_ptr<const GridSurface> grid) {
  Shape shape;
  shape.type = ShapeType::GridSurface;
  shape.grid = std::move(grid);
  return shape;
}

namespace {

// The box a grid surface's contacts happen in, in its own frame: its rectangle, from its highest point down to half
// the rectangle's diagonal below its lowest (the material below is unbounded; a ball deeper than that is lost).
Aabb gridBox(const GridSurface& grid) {
  const double depth = 0.5 * std::hypot(grid.xs().back() - grid.xs().front(), grid.ys().back() - grid.ys().front());
  return {Vector3(grid.xs().front(), grid.ys().front(), grid.lowest() - depth),
          Vector3(grid.xs().back(), grid.ys().back(), grid.highest())};
}

}  // namespace

double Shape::boundingRadius() const {
  switch (type) {
    // A hollow sphere's surface, all that contact meets of it, lies on its radius.
    case ShapeType::Sphere:
    case ShapeType::HollowSphere:
    case ShapeType::Disk: return radius;
    case ShapeType::Point: return 0;
    case ShapeType::PointCloud: return cloud ? cloud->boundingRadius : 0;
    // No sphere holds a plane: collide() never bounds a plane's pairs by it.
    case ShapeType::Plane: return 0;
    case ShapeType::Box: return halfExtents.norm();
    case ShapeType::Cylinder: return std::hypot(radius, halfLength);
    // The frame origin is the bottom centre, so the far rim of the top bounds the top.
    case ShapeType::Frustum: return std::max(bottomRadius, std::hypot(topRadius, length));
    case ShapeType::Ellipsoid: return semiAxes.maxCoeff();
    case ShapeType::Mesh: {
      return surface ? surface->boundingRadius() : 0;
    }
    // The farthest corner of the curve's box (its Bézier control points' box, which holds it).
    case ShapeType::Curve: {
      if (!curve) return 0;
      return curve->boundsMin().cwiseAbs().cwiseMax(curve->boundsMax().cwiseAbs()).norm();
    }
    case ShapeType::GridSurface: {
      if (!grid) return 0;
      const Aabb box = gridBox(*grid);
      return box.min.cwiseAbs().cwiseMax(box.max.cwiseAbs()).norm();
    }
  }
  return 0;
}

namespace {

// Half-widths along the ground axes of a disk of `radius` whose normal is the unit `axis`: a disk reaches
// radius·sin(angle between axis and the ground axis) along that ground axis.
Vector3 diskHalfWidths(const Vector3& axis, double radius) {
  return radius * (Vector3::Ones() - axis.cwiseAbs2()).cwiseMax(0.0).cwiseSqrt();
}

}  // namespace

Aabb boundsOf(const Shape& shape, const Pose& pose) {
  const Vector3& centre = pose.position;
  const Matrix3& rotation = pose.rotation;
  switch (shape.type) {
    // A hollow sphere's box holds its cavity: what can touch it from inside.
    case ShapeType::Sphere:
    case ShapeType::HollowSphere:
      return {centre.array() - shape.radius, centre.array() + shape.radius};
    case ShapeType::Box: {
      const Vector3 halfWidths = rotation.cwiseAbs() * shape.halfExtents;
      return {centre - halfWidths, centre + halfWidths};
    }
    case ShapeType::Cylinder: {
      const Vector3 axis = rotation.col(2);
      const Vector3 halfWidths = shape.halfLength * axis.cwiseAbs() + diskHalfWidths(axis, shape.radius);
      return {centre - halfWidths, centre + halfWidths};
    }
    case ShapeType::Frustum: {
      // The convex hull of the two end disks: the box of their union.
      const Vector3 axis = rotation.col(2);
      const Vector3 top = centre + shape.length * axis;
      const Vector3 bottomWidths = diskHalfWidths(axis, shape.bottomRadius);
      const Vector3 topWidths = diskHalfWidths(axis, shape.topRadius);
      return {(centre - bottomWidths).cwiseMin(top - topWidths), (centre + bottomWidths).cwiseMax(top + topWidths)};
    }
    case ShapeType::Ellipsoid: {
      // Support of an ellipsoid along ground axis i: sqrt(Σ_j (R_ij a_j)²).
      const Vector3 halfWidths = (rotation * shape.semiAxes.asDiagonal()).rowwise().norm();
      return {centre - halfWidths, centre + halfWidths};
    }
    case ShapeType::Mesh: {
      // The mesh's own box, turned: loose by at most the turn, and a constant cost whatever the mesh's size.
      if (!shape.surface) return {centre, centre};
      const Aabb& local = shape.surface->bounds();
      const Vector3 middle = centre + rotation * (0.5 * (local.max + local.min));
      const Vector3 halfWidths = rotation.cwiseAbs() * (0.5 * (local.max - local.min));
      return {middle - halfWidths, middle + halfWidths};
    }
    case ShapeType::Curve: {
      // The curve's box in the shape's xy plane (flat in z), turned as a mesh's is.
      if (!shape.curve) return {centre, centre};
      const Vector2 low = shape.curve->boundsMin(), high = shape.curve->boundsMax();
      const Vector3 middle = centre + rotation * Vector3(0.5 * (low.x() + high.x()), 0.5 * (low.y() + high.y()), 0);
      const Vector3 halfWidths =
          rotation.cwiseAbs() * Vector3(0.5 * (high.x() - low.x()), 0.5 * (high.y() - low.y()), 0);
      return {middle - halfWidths, middle + halfWidths};
    }
    case ShapeType::GridSurface: {
      if (!shape.grid) return {centre, centre};
      const Aabb local = gridBox(*shape.grid);
      const Vector3 middle = centre + rotation * (0.5 * (local.max + local.min));
      const Vector3 halfWidths = rotation.cwiseAbs() * (0.5 * (local.max - local.min));
      return {middle - halfWidths, middle + halfWidths};
    }
    case ShapeType::Point: return {centre, centre};
    case ShapeType::PointCloud: {
      // As a mesh's: the cloud's own box, turned.
      if (!shape.cloud || shape.cloud->points.empty()) return {centre, centre};
      const Aabb& local = shape.cloud->bounds;
      const Vector3 middle = centre + rotation * (0.5 * (local.max + local.min));
      const Vector3 halfWidths = rotation.cwiseAbs() * (0.5 * (local.max - local.min));
      return {middle - halfWidths, middle + halfWidths};
    }
    case ShapeType::Plane: {
      // The half-space normal·x ≤ normal·centre. Unbounded in every direction unless the normal lies exactly along
      // a ground axis: then bounded on that axis on the plane's side. (A normal a rounding off an axis leaves the box
      // unbounded: the plane, however little it tilts, reaches any height far enough away.) The broad phase takes it
      // as a large box, compared with every other.
      constexpr double kUnbounded = std::numeric_limits<double>::infinity();
      Aabb box{Vector3::Constant(-kUnbounded), Vector3::Constant(kUnbounded)};
      const Vector3 normal = rotation.col(2);
      for (int axis = 0; axis < 3; ++axis) {
        const int p = (axis + 1) % 3, q = (axis + 2) % 3;
        if (normal[p] != 0 || normal[q] != 0) continue;
        if (normal[axis] > 0) box.max[axis] = centre[axis];
        if (normal[axis] < 0) box.min[axis] = centre[axis];
      }
      return box;
    }
    case ShapeType::Disk: {
      const Vector3 halfWidths = diskHalfWidths(rotation.col(2), shape.radius);
      return {centre - halfWidths, centre + halfWidths};
    }
  }
  return {centre, centre};
}

}  // namespace lodestone

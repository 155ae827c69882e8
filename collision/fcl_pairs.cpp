// Contact of any two convex shapes through FCL 0.7's GJK/EPA (libccd); part of the module liblodestone_fcl
// (fcl_routines.h). FCL geometry is built once per distinct
// shape geometry and kept in a process-wide cache keyed by the shape's parameters, so copies of a shape share it
// and a shape whose parameters change is never served stale geometry.
#include <fcl/fcl.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <mutex>
#include <numbers>
#include <shared_mutex>
#include <stdexcept>
#include <string>
#include <utility>

#include "pair_routines.h"

namespace lodestone::detail {

namespace {

// A frustum is not an FCL primitive: it becomes a convex polytope with this many sides, vertices on the true
// circles. The inscribed polygon misses the circle by at most r·(1 − cos(π/32)) ≈ 0.48 % of the radius.
constexpr int kFrustumSides = 32;

std::shared_ptr<const fcl::CollisionGeometryd> makeFrustum(double bottomRadius, double topRadius, double length) {
  auto vertices = std::make_shared<std::vector<fcl::Vector3d>>();
  auto faces = std::make_shared<std::vector<int>>();
  // A zero radius end is one apex vertex, not a ring of coincident ones (FCL's hill climbing needs distinct vertices).
  auto addRing = [&](double radius, double z) {
    const int start = static_cast<int>(vertices->size());
    if (radius == 0) {
      vertices->emplace_back(0, 0, z);
      return start;
    }
    for (int k = 0; k < kFrustumSides; ++k) {
      const double angle = 2 * std::numbers::pi * k / kFrustumSides;
      vertices->emplace_back(radius * std::cos(angle), radius * std::sin(angle), z);
    }
    return start;
  };
  const int bottom = addRing(bottomRadius, 0);
  const int top = addRing(topRadius, length);
  const bool bottomIsApex = bottomRadius == 0, topIsApex = topRadius == 0;
  int faceCount = 0;
  auto ringVertex = [&](int start, bool apex, int k) { return apex ? start : start + (k % kFrustumSides); };
  if (!bottomIsApex) {  // bottom face, seen from below: clockwise in +z terms
    faces->push_back(kFrustumSides);
    for (int k = kFrustumSides - 1; k >= 0; --k) faces->push_back(bottom + k);
    ++faceCount;
  }
  if (!topIsApex) {
    faces->push_back(kFrustumSides);
    for (int k = 0; k < kFrustumSides; ++k) faces->push_back(top + k);
    ++faceCount;
  }
  for (int k = 0; k < kFrustumSides; ++k) {
    std::vector<int> face{ringVertex(bottom, bottomIsApex, k), ringVertex(bottom, bottomIsApex, k + 1),
                          ringVertex(top, topIsApex, k + 1), ringVertex(top, topIsApex, k)};
    face.erase(std::unique(face.begin(), face.end()), face.end());
    if (face.size() > 1 && face.front() == face.back()) face.pop_back();
    faces->push_back(static_cast<int>(face.size()));
    faces->insert(faces->end(), face.begin(), face.end());
    ++faceCount;
  }
  return std::make_shared<fcl::Convexd>(vertices, faceCount, faces);
}

constexpr double kDiskThicknessRatio = 1e-6;

std::shared_ptr<const fcl::CollisionGeometryd> makeGeometry(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return std::make_shared<fcl::Sphered>(shape.radius);
    case ShapeType::Box: return std::make_shared<fcl::Boxd>(2 * shape.halfExtents);
    case ShapeType::Cylinder: return std::make_shared<fcl::Cylinderd>(shape.radius, 2 * shape.halfLength);
    case ShapeType::Ellipsoid: return std::make_shared<fcl::Ellipsoidd>(shape.semiAxes);
    case ShapeType::Frustum: return makeFrustum(shape.bottomRadius, shape.topRadius, shape.length);
    // A flat disk as GJK/EPA see it: a cylinder a millionth of its radius thick (libccd needs a body; the depths
    // it gives are the flat disk's to that half-thickness).
    case ShapeType::Disk: return std::make_shared<fcl::Cylinderd>(shape.radius, kDiskThicknessRatio * shape.radius);
    case ShapeType::Mesh:
    case ShapeType::HollowSphere:
    case ShapeType::Curve:
    case ShapeType::GridSurface:
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Plane: break;
  }
  throw std::invalid_argument(std::string("collision: no FCL geometry for a ") + shapeTypeName(shape.type));
}

// Every parameter that shapes the geometry; shapes equal in all of them share one FCL object.
using GeometryKey = std::pair<int, std::array<double, 11>>;

GeometryKey keyOf(const Shape& shape) {
  return {static_cast<int>(shape.type),
          {shape.radius, shape.halfExtents.x(), shape.halfExtents.y(), shape.halfExtents.z(), shape.halfLength,
           shape.bottomRadius, shape.topRadius, shape.length, shape.semiAxes.x(), shape.semiAxes.y(),
           shape.semiAxes.z()}};
}

// Readers share the lock; a new geometry is built under the exclusive lock, once.
const fcl::CollisionGeometryd& cachedGeometry(const Shape& shape) {
  static std::shared_mutex mutex;
  static std::map<GeometryKey, std::shared_ptr<const fcl::CollisionGeometryd>> cache;
  const GeometryKey key = keyOf(shape);
  {
    std::shared_lock lock(mutex);
    const auto found = cache.find(key);
    if (found != cache.end()) return *found->second;
  }
  std::unique_lock lock(mutex);
  auto& slot = cache[key];
  if (!slot) slot = makeGeometry(shape);
  return *slot;  // map nodes never move, and entries are never erased
}

fcl::Transform3d transformOf(const Pose& pose) {
  fcl::Transform3d transform = fcl::Transform3d::Identity();
  transform.linear() = pose.rotation;
  transform.translation() = pose.position;
  return transform;
}

// A radius of curvature typical of the shape's surface, for the overlap-area estimate; boxes are flat.
double typicalRadius(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return shape.radius;
    case ShapeType::Cylinder: return shape.radius;
    case ShapeType::Frustum: return 0.5 * (shape.bottomRadius + shape.topRadius);
    case ShapeType::Ellipsoid: return shape.semiAxes.mean();
    default: return INFINITY;
  }
}

// The point of `shape` at `pose` farthest along `direction` (unit): its support point. For a frustum, the true
// circles, of which FCL's polytope is inscribed.
Vector3 supportPoint(const Shape& shape, const Pose& pose, const Vector3& direction) {
  const Vector3 local = pose.rotation.transpose() * direction;
  // The rim point of a disk of `radius` about the local z axis, farthest along `local`.
  const auto rim = [&](double radius) {
    const Eigen::Vector2d across(local.x(), local.y());
    const double length = across.norm();
    return length > 0 ? Vector3(radius * local.x() / length, radius * local.y() / length, 0) : Vector3::Zero();
  };
  Vector3 point = Vector3::Zero();
  switch (shape.type) {
    case ShapeType::Sphere: point = shape.radius * local; break;
    case ShapeType::Box: point = local.cwiseSign().cwiseProduct(shape.halfExtents); break;
    case ShapeType::Cylinder:
      point = rim(shape.radius) + Vector3(0, 0, local.z() >= 0 ? shape.halfLength : -shape.halfLength);
      break;
    case ShapeType::Ellipsoid: {
      const Vector3 scaled = shape.semiAxes.cwiseProduct(local);
      const double length = scaled.norm();
      point = length > 0 ? Vector3(shape.semiAxes.cwiseProduct(scaled) / length) : Vector3::Zero();
      break;
    }
    case ShapeType::Frustum: {
      const Vector3 bottom = rim(shape.bottomRadius);
      const Vector3 top = rim(shape.topRadius) + Vector3(0, 0, shape.length);
      point = bottom.dot(local) >= top.dot(local) ? bottom : top;
      break;
    }
    case ShapeType::Disk: point = rim(shape.radius); break;
    case ShapeType::Mesh:
    case ShapeType::HollowSphere:
    case ShapeType::Curve:
    case ShapeType::GridSurface:
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Plane: break;
  }
  return pose.position + pose.rotation * point;
}

// The shallowest way out along a few axes — each shape's own three and the line between their centres — by the
// overlap of the shapes' extents along each: every axis's overlap bounds the true depth from above. EPA's answer is
// the true depth to its tolerance, except where it fails: as the deeper side flips inside a thin shape, libccd's EPA
// can return a way out sideways, ten times too deep (an ellipsoid in the middle of a plate), and the depth jumps.
struct AxisDepth {
  double depth = INFINITY;
  Vector3 normal = Vector3::UnitZ();  // from B to A
};

AxisDepth shallowestAxis(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB) {
  std::array<Vector3, 7> axes;
  for (int k = 0; k < 3; ++k) {
    axes[static_cast<size_t>(k)] = poseA.rotation.col(k);
    axes[static_cast<size_t>(k) + 3] = poseB.rotation.col(k);
  }
  const Vector3 between = poseA.position - poseB.position;
  axes[6] = between.norm() > 0 ? Vector3(between.normalized()) : Vector3::UnitZ();
  AxisDepth best;
  for (const Vector3& axis : axes) {
    // A moved along +axis clears B by maxB − minA; along −axis by maxA − minB.
    const double up = supportPoint(b, poseB, axis).dot(axis) - supportPoint(a, poseA, -axis).dot(axis);
    const double down = supportPoint(a, poseA, axis).dot(axis) - supportPoint(b, poseB, -axis).dot(axis);
    if (up < best.depth) best = {up, axis};
    if (down < best.depth) best = {down, -axis};
  }
  return best;
}

}  // namespace

double fclConvexPair(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                     std::vector<ContactPoint>& points) {
  const fcl::CollisionGeometryd& geometryA = cachedGeometry(a);
  const fcl::CollisionGeometryd& geometryB = cachedGeometry(b);
  const fcl::Transform3d transformA = transformOf(poseA), transformB = transformOf(poseB);
  // Results keep their storage between calls on a thread: no allocation once warm.
  thread_local fcl::CollisionResultd collisionResult;
  collisionResult.clear();
  fcl::CollisionRequestd collisionRequest(1, true);
  collisionRequest.gjk_solver_type = fcl::GST_LIBCCD;
  fcl::collide(&geometryA, transformA, &geometryB, transformB, collisionRequest, collisionResult);
  if (collisionResult.isCollision()) {
    // Verified by test: FCL 0.7's normal points from o1 (A) to o2 (B) and `pos` is midway between the two
    // surfaces, so ours (B to A) is its negative and each surface point lies half the depth away.
    const fcl::Contactd& contact = collisionResult.getContact(0);
    double depth = std::max(contact.penetration_depth, 0.0);
    Vector3 normal = -contact.normal.normalized();
    Vector3 pointOnA = contact.pos - 0.5 * depth * normal;
    if (const AxisDepth axis = shallowestAxis(a, poseA, b, poseB); axis.depth < depth) {
      depth = std::max(axis.depth, 0.0);
      normal = axis.normal;
      pointOnA = supportPoint(a, poseA, -normal);  // A's deepest point in B along the way out
    }
    if (depth > 0) {
      ContactPoint point;
      point.normal = normal;
      point.depth = depth;
      point.pointOnA = pointOnA;
      point.pointOnB = pointOnA + depth * normal;
      // Estimate: the circle where two spheres of the shapes' typical radii overlap by `depth`,
      // a² ≈ 2δ·R₁R₂/(R₁ + R₂) (exact to first order for spheres and for a sphere on a plane).
      const double inverse = 1 / typicalRadius(a) + 1 / typicalRadius(b);
      point.area = inverse > 0 ? 2 * std::numbers::pi * depth / inverse : 0.0;
      points.push_back(point);
    }
    return -depth;
  }
  fcl::DistanceRequestd distanceRequest(false);
  distanceRequest.gjk_solver_type = fcl::GST_LIBCCD;
  thread_local fcl::DistanceResultd distanceResult;
  distanceResult.clear();
  fcl::distance(&geometryA, transformA, &geometryB, transformB, distanceRequest, distanceResult);
  return std::max(distanceResult.min_distance, 0.0);
}

}  // namespace lodestone::detail

// Contact of any two convex shapes through FCL 0.7's GJK/EPA (libccd). FCL geometry is built once per distinct
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

std::shared_ptr<const fcl::CollisionGeometryd> makeGeometry(const Shape& shape) {
  switch (shape.type) {
    case ShapeType::Sphere: return std::make_shared<fcl::Sphered>(shape.radius);
    case ShapeType::Box: return std::make_shared<fcl::Boxd>(2 * shape.halfExtents);
    case ShapeType::Cylinder: return std::make_shared<fcl::Cylinderd>(shape.radius, 2 * shape.halfLength);
    case ShapeType::Ellipsoid: return std::make_shared<fcl::Ellipsoidd>(shape.semiAxes);
    case ShapeType::Frustum: return makeFrustum(shape.bottomRadius, shape.topRadius, shape.length);
    case ShapeType::Mesh: break;
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

}  // namespace

double fclPair(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
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
    const double depth = std::max(contact.penetration_depth, 0.0);
    const Vector3 normal = -contact.normal.normalized();
    if (depth > 0) {
      ContactPoint point;
      point.normal = normal;
      point.depth = depth;
      point.pointOnA = contact.pos - 0.5 * depth * normal;
      point.pointOnB = contact.pos + 0.5 * depth * normal;
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

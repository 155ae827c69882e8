// Simscape's contact geometries (Spatial Contact Force): a point, a cloud of points, an infinite plane and a flat disk.
// A point or a cloud's point against a solid is the solid's signed distance at the point (point_queries.h, or the
// mesh's own query); a solid on the plane is exact: a sphere's or an ellipsoid's deepest point, a box's face and a
// cylinder's, frustum's or disk's lower cap and lowest generator as patches (contact_patch.h), as on a box's face.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "contact_patch.h"
#include "mesh_geometry.h"
#include "pair_routines.h"
#include "point_queries.h"
#include "solver/core/thread_scratch.h"

namespace lodestone::detail {

namespace {

// The plane of B (a Plane shape): its outward unit normal (B's z axis) and normal·x on it.
struct PlaneOf {
  Vector3 normal;
  double offset;
  explicit PlaneOf(const Pose& pose) : normal(pose.rotation.col(2)), offset(normal.dot(pose.position)) {}
};

// The point `x` (ground) against B: appends a contact when it is inside, with B's outward normal at the nearest
// surface point, and returns the signed distance. Beyond `margin` of B's bounding sphere the bound is enough.
double pointAgainst(const Vector3& x, int cloudIndex, const Shape& b, const Pose& poseB, double margin,
                    std::vector<ContactPoint>& points) {
  const Vector3 local = poseB.rotation.transpose() * (x - poseB.position);
  if (b.type != ShapeType::Plane && b.type != ShapeType::HollowSphere) {
    const double bound = local.norm() - b.boundingRadius();
    if (bound > margin && bound > 0) return bound;
  }
  SurfacePoint surface;
  if (b.type == ShapeType::GridSurface) {
    // The surface's nearest point within reach; beyond its edges there is no surface.
    const std::optional<GridSurface::Nearest> nearest = b.grid->nearest(local, std::max(margin, 0.0));
    if (!nearest) return std::numeric_limits<double>::infinity();
    surface = SurfacePoint{nearest->distance, nearest->point, nearest->normal};
  } else {
    surface = b.type == ShapeType::Mesh ? b.surface->nearestSurfacePoint(local) : nearestSurfacePoint(b, local);
  }
  if (surface.distance < 0) {
    ContactPoint point;
    point.normal = poseB.rotation * surface.normal;
    point.depth = -surface.distance;
    point.pointOnA = x;
    point.pointOnB = x + point.depth * point.normal;
    point.cloudPoint = cloudIndex;
    points.push_back(point);
  }
  return surface.distance;
}

// A solid of revolution about the unit `axis` — the convex hull of a bottom disk (centre, radius) and a top disk,
// the two equal for a flat disk — on the plane: the lowest generator line and the lower cap, one patch, as a cylinder
// on a box's face (pairs_box.cpp, cylinderBox).
double revolvedOnPlane(const Vector3& bottom, double bottomRadius, const Vector3& top, double topRadius,
                       const Vector3& axis, const PlaneOf& plane, std::vector<ContactPoint>& points) {
  const Vector3& normal = plane.normal;
  const double along = normal.dot(axis);
  const Vector3 tilt = normal - along * axis;
  const double sine = tilt.norm();
  // Standing exactly upright the rim has no lowest point; any perpendicular serves.
  const Vector3 down = sine > 1e-12 ? Vector3(-tilt / sine) : Vector3(axis.unitOrthogonal());
  const Vector3 across = axis.cross(down);
  const Vector3 lowBottom = bottom + bottomRadius * down, lowTop = top + topRadius * down;
  const double signedDistance = std::min(normal.dot(lowBottom), normal.dot(lowTop)) - plane.offset;
  if (signedDistance >= 0) return signedDistance;
  PatchBuilder patch(normal, true, plane.offset);
  // The lowest generator, where it is below the plane (its depth is linear along it). A frustum's cross-section
  // across it is taken as a cylinder's of the mean radius.
  const double meanRadius = 0.5 * (bottomRadius + topRadius);
  double lineLength = 0, lineDepth = 0;
  if ((top - bottom).squaredNorm() > 0 && meanRadius > 0) {
    const double startDepth = patch.depthAt(lowBottom), endDepth = patch.depthAt(lowTop);
    double low = 0, high = 1;
    if (clipToPositive(startDepth, endDepth, low, high)) {
      patch.addLine(lowBottom + low * (lowTop - lowBottom), lowBottom + high * (lowTop - lowBottom), meanRadius);
      lineLength = (high - low) * (lowTop - lowBottom).norm();
      lineDepth = std::max(0.0, startDepth + 0.5 * (low + high) * (endDepth - startDepth));
    }
  }
  // The lower cap as a polygon with a vertex on its lowest rim point.
  const bool bottomIsLower = along >= 0;
  const Vector3& capCentre = bottomIsLower ? bottom : top;
  const double capRadius = bottomIsLower ? bottomRadius : topRadius;
  std::vector<Vector3>& cap = threadScratch<std::vector<Vector3>, struct RevolvedOnPlaneCap>();
  capPolygon(capCentre, capRadius, down, across, cap);
  clipPolygonInPlace(cap, normal, plane.offset);
  patch.addPolygon(cap);
  // Overlap area: the side's strip for a line contact, else the part of the lower cap's disk below the plane,
  // whichever is larger.
  const double area = lineLength > 0 ? lyingCylinderArea(meanRadius, lineDepth, lineLength) : 0.0;
  const double capDepth = patch.depthAt(capCentre);
  const double capArea = sine > 1e-12 ? diskSegmentArea(capRadius, -capDepth / sine) * std::abs(along)
                                      : (capDepth > 0 ? std::numbers::pi * capRadius * capRadius : 0.0);
  patch.setArea(std::max(area, capArea));
  if (patch.appendTo(points) == 0) {
    // Rounding left nothing below the plane: the single lowest point.
    ContactPoint point;
    point.normal = normal;
    point.depth = -signedDistance;
    point.pointOnA = normal.dot(lowBottom) <= normal.dot(lowTop) ? lowBottom : lowTop;
    point.pointOnB = point.pointOnA + point.depth * normal;
    points.push_back(point);
  }
  return signedDistance;
}

}  // namespace

double pointShape(const Shape&, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                  std::vector<ContactPoint>& points) {
  return pointAgainst(poseA.position, -1, b, poseB, margin, points);
}

double cloudShape(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                  std::vector<ContactPoint>& points) {
  double signedDistance = std::numeric_limits<double>::infinity();
  if (!a.cloud) return signedDistance;
  const std::vector<Vector3>& cloud = a.cloud->points;
  for (size_t k = 0; k < cloud.size(); ++k) {
    const Vector3 x = poseA.position + poseA.rotation * cloud[k];
    signedDistance = std::min(signedDistance, pointAgainst(x, static_cast<int>(k), b, poseB, margin, points));
  }
  return signedDistance;
}

double spherePlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                   std::vector<ContactPoint>& points) {
  const PlaneOf plane(poseB);
  const double signedDistance = plane.normal.dot(poseA.position) - plane.offset - a.radius;
  if (signedDistance < 0) {
    ContactPoint point;
    point.normal = plane.normal;
    point.depth = -signedDistance;
    point.pointOnA = poseA.position - a.radius * plane.normal;
    point.pointOnB = point.pointOnA + point.depth * plane.normal;
    point.area = sphereCapArea(a.radius, point.depth);
    points.push_back(point);
  }
  return signedDistance;
}

double boxPlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                std::vector<ContactPoint>& points) {
  const PlaneOf plane(poseB);
  const Matrix3& axes = poseA.rotation;
  const Vector3& half = a.halfExtents;
  const Vector3 alignment = axes.transpose() * plane.normal;  // the plane's normal in the box's axes
  const double signedDistance =
      plane.normal.dot(poseA.position) - plane.offset - alignment.cwiseAbs().dot(half);
  if (signedDistance >= 0) return signedDistance;
  // The patch: the box's face most opposed to the normal, clipped to below the plane (as a box on a box's face).
  std::vector<Vector3>& polygon = threadScratch<std::vector<Vector3>, struct BoxPlanePolygon>();
  boxFaceAlong(poseA.position, axes, half, -plane.normal, polygon);
  clipPolygonInPlace(polygon, plane.normal, plane.offset);
  PatchBuilder patch(plane.normal, true, plane.offset);
  patch.addPolygon(polygon);
  patch.setArea(projectedArea(polygon, plane.normal));
  if (patch.appendTo(points) == 0) {
    // An edge or a corner just under the plane: its deepest corner alone.
    ContactPoint point;
    point.normal = plane.normal;
    point.depth = -signedDistance;
    point.pointOnA = poseA.position - axes * alignment.cwiseSign().cwiseProduct(half);
    point.pointOnB = point.pointOnA + point.depth * plane.normal;
    points.push_back(point);
  }
  return signedDistance;
}

double cylinderPlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                     std::vector<ContactPoint>& points) {
  const Vector3 axis = poseA.rotation.col(2);
  return revolvedOnPlane(poseA.position - a.halfLength * axis, a.radius, poseA.position + a.halfLength * axis,
                         a.radius, axis, PlaneOf(poseB), points);
}

double frustumPlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                    std::vector<ContactPoint>& points) {
  const Vector3 axis = poseA.rotation.col(2);
  return revolvedOnPlane(poseA.position, a.bottomRadius, poseA.position + a.length * axis, a.topRadius, axis,
                         PlaneOf(poseB), points);
}

double diskPlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                 std::vector<ContactPoint>& points) {
  return revolvedOnPlane(poseA.position, a.radius, poseA.position, a.radius, poseA.rotation.col(2), PlaneOf(poseB),
                         points);
}

double ellipsoidPlane(const Shape& a, const Pose& poseA, const Shape&, const Pose& poseB, double,
                      std::vector<ContactPoint>& points) {
  const PlaneOf plane(poseB);
  // The support of x = c + R·y, yᵀS⁻²y = 1, along the normal: h = |S·Rᵀn|, at y = S²·Rᵀn / h (the lowest: −y).
  const Vector3 scaled = a.semiAxes.cwiseProduct(poseA.rotation.transpose() * plane.normal);
  const double support = scaled.norm();
  const double signedDistance = plane.normal.dot(poseA.position) - plane.offset - support;
  if (signedDistance < 0) {
    ContactPoint point;
    point.normal = plane.normal;
    point.depth = -signedDistance;
    point.pointOnA = poseA.position - poseA.rotation * a.semiAxes.cwiseProduct(scaled) / support;
    point.pointOnB = point.pointOnA + point.depth * plane.normal;
    // The section a plane cuts at depth δ below the support: an ellipse of area π·abc·(2hδ − δ²)/h³ (the great
    // section once δ passes h).
    const double cut = std::min(point.depth, support);
    point.area = std::numbers::pi * a.semiAxes.prod() * (2 * support * cut - cut * cut) / std::pow(support, 3);
    points.push_back(point);
  }
  return signedDistance;
}

double sphereDisk(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                  std::vector<ContactPoint>& points) {
  // The disk's point nearest the centre: its in-plane part, clamped to the rim.
  const Vector3 local = poseB.rotation.transpose() * (poseA.position - poseB.position);
  Vector3 nearest(local.x(), local.y(), 0);
  const double radial = nearest.norm();
  if (radial > b.radius) nearest *= b.radius / radial;
  const Vector3 offset = local - nearest;
  const double distance = offset.norm();
  const double signedDistance = distance - a.radius;
  if (signedDistance < 0) {
    // A centre on the disk itself is pushed out along the disk's normal.
    const Vector3 localNormal = distance > 0 ? Vector3(offset / distance) : Vector3::UnitZ();
    ContactPoint point;
    point.normal = poseB.rotation * localNormal;
    point.depth = -signedDistance;
    point.pointOnA = poseA.position - a.radius * point.normal;
    point.pointOnB = poseB.position + poseB.rotation * nearest;
    point.area = std::min(sphereCapArea(a.radius, point.depth), std::numbers::pi * b.radius * b.radius);
    points.push_back(point);
  }
  return signedDistance;
}

double diskBox(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
               std::vector<ContactPoint>& points) {
  // A flat disk is a cylinder of no length: the separating axes of cylinderBox hold for it, and its cap is the disk.
  return cylinderBox(Shape::cylinder(a.radius, 0), poseA, b, poseB, margin, points);
}

double meshPlane(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                 const ContactOptions& options, std::vector<ContactPoint>& points) {
  // The plane is always the exact master: the mesh's samples (triangle centres, or nodes) below it.
  ContactOptions planeMaster = options;
  planeMaster.master = MasterSurface::J;
  planeMaster.analytical = true;
  return meshContact(a, poseA, b, poseB, margin, planeMaster, points);
}

double refusedPair(const Shape&, const Pose&, const Shape&, const Pose&, double, std::vector<ContactPoint>&) {
  return std::numeric_limits<double>::infinity();
}

}  // namespace lodestone::detail

// Exact contact of a sphere with a sphere, a box, a cylinder and a frustum. Cylinder and frustum share one
// routine: both are solids of revolution whose meridian profile is a trapezoid, so the 3-D problem is the 2-D
// closest point on that trapezoid in the plane holding the axis and the sphere centre.
#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <optional>

#include "pair_routines.h"

namespace lodestone::detail {

double sphereCapArea(double radius, double depth) {
  const double cut = std::min(std::max(depth, 0.0), radius);
  return std::numbers::pi * (2 * radius * cut - cut * cut);
}

namespace {

// Appends the point of a sphere of `radius` centred at `centre` touching B at `surfacePointOnB` with outward
// normal `normal` (B to A), when the signed distance is negative.
void appendSpherePoint(const Vector3& centre, double radius, const Vector3& surfacePointOnB, const Vector3& normal,
                       double signedDistance, double area, std::vector<ContactPoint>& points) {
  if (signedDistance >= 0) return;
  ContactPoint point;
  point.normal = normal;
  point.depth = -signedDistance;
  point.pointOnA = centre - radius * normal;
  point.pointOnB = surfacePointOnB;
  point.area = area;
  points.push_back(point);
}

}  // namespace

double sphereSphere(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                    std::vector<ContactPoint>& points) {
  const Vector3 offset = poseA.position - poseB.position;
  const double distance = offset.norm();
  const double signedDistance = distance - a.radius - b.radius;
  if (signedDistance >= 0) return signedDistance;
  // Concentric spheres have no preferred direction; any unit normal keeps the point formulas valid.
  const Vector3 normal = distance > 0 ? Vector3(offset / distance) : Vector3::UnitZ();
  // The two surfaces cross on a circle at distance x from A's centre: x = (d² + rA² − rB²) / 2d, radius² = rA² − x².
  double area;
  if (distance <= std::abs(a.radius - b.radius)) {
    area = std::numbers::pi * std::pow(std::min(a.radius, b.radius), 2);  // one inside the other
  } else {
    const double x = (distance * distance + a.radius * a.radius - b.radius * b.radius) / (2 * distance);
    area = std::numbers::pi * std::max(a.radius * a.radius - x * x, 0.0);
  }
  appendSpherePoint(poseA.position, a.radius, poseB.position + b.radius * normal, normal, signedDistance, area,
                    points);
  return signedDistance;
}

double sphereGridSurface(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double margin,
                         std::vector<ContactPoint>& points) {
  const Vector3 centre = poseB.rotation.transpose() * (poseA.position - poseB.position);
  const std::optional<GridSurface::Nearest> nearest = b.grid->nearest(centre, a.radius + std::max(margin, 0.0));
  if (!nearest) return std::numeric_limits<double>::infinity();  // beyond the surface's edges: it ends there
  const double signedDistance = nearest->distance - a.radius;
  appendSpherePoint(poseA.position, a.radius, poseB.position + poseB.rotation * nearest->point,
                    poseB.rotation * nearest->normal, signedDistance, sphereCapArea(a.radius, -signedDistance), points);
  return signedDistance;
}

double sphereHollowSphere(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                          std::vector<ContactPoint>& points) {
  const Vector3 offset = poseA.position - poseB.position;  // from the cavity's centre
  const double distance = offset.norm();
  const double signedDistance = b.radius - distance - a.radius;
  if (signedDistance >= 0) return signedDistance;
  // The ball is pushed back towards the cavity's centre. At the centre itself it penetrates only if it is larger
  // than the cavity, and then no direction is preferred.
  const Vector3 outward = distance > 0 ? Vector3(offset / distance) : Vector3::UnitZ();
  // The two spheres' surfaces cross on the circle of the solid pair's formula (sphereSphere), the ball's cap beyond
  // the cavity's wall; a ball that holds the whole cavity meets all of its wall.
  double area;
  if (distance <= a.radius - b.radius) {
    area = std::numbers::pi * std::pow(std::min(a.radius, b.radius), 2);
  } else {
    const double x = (distance * distance + a.radius * a.radius - b.radius * b.radius) / (2 * distance);
    area = std::numbers::pi * std::max(a.radius * a.radius - x * x, 0.0);
  }
  appendSpherePoint(poseA.position, a.radius, poseB.position + b.radius * outward, -outward, signedDistance, area,
                    points);
  return signedDistance;
}

double sphereBox(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                 std::vector<ContactPoint>& points) {
  const Vector3 centre = poseB.rotation.transpose() * (poseA.position - poseB.position);  // in the box frame
  const Vector3& half = b.halfExtents;
  const Vector3 nearest = centre.cwiseMax(-half).cwiseMin(half);
  Vector3 localNormal, localSurface;
  double signedDistance;
  if (nearest != centre) {
    const Vector3 offset = centre - nearest;
    const double distance = offset.norm();
    signedDistance = distance - a.radius;
    if (signedDistance >= 0) return signedDistance;
    localNormal = offset / distance;
    localSurface = nearest;
  } else {
    // Centre inside: out through the nearest face. At the surface this meets the outside branch (−radius).
    int face = 0;
    double clearance = INFINITY;
    for (int axis = 0; axis < 3; ++axis) {
      const double faceClearance = half[axis] - std::abs(centre[axis]);
      if (faceClearance < clearance) clearance = faceClearance, face = axis;
    }
    const double side = centre[face] >= 0 ? 1.0 : -1.0;
    localNormal = side * Vector3::Unit(face);
    localSurface = centre;
    localSurface[face] = side * half[face];
    signedDistance = -(a.radius + clearance);
  }
  const Vector3 normal = poseB.rotation * localNormal;
  appendSpherePoint(poseA.position, a.radius, poseB.position + poseB.rotation * localSurface, normal, signedDistance,
                    sphereCapArea(a.radius, -signedDistance), points);
  return signedDistance;
}

namespace {

// The meridian profile of a solid of revolution about z: (0, z0)–(r0, z0)–(r1, z1)–(0, z1), z0 < z1.
struct Profile {
  double z0, r0, z1, r1;
};

// Closest point on segment p–q to x, in 2-D (radial, axial).
Eigen::Vector2d closestOnSegment(const Eigen::Vector2d& x, const Eigen::Vector2d& p, const Eigen::Vector2d& q) {
  const Eigen::Vector2d edge = q - p;
  const double lengthSquared = edge.squaredNorm();
  if (lengthSquared == 0) return p;
  const double t = std::clamp((x - p).dot(edge) / lengthSquared, 0.0, 1.0);
  return p + t * edge;
}

double sphereRevolved(const Shape& a, const Pose& poseA, const Profile& profile, const Pose& poseB,
                      std::vector<ContactPoint>& points) {
  const Vector3 centre = poseB.rotation.transpose() * (poseA.position - poseB.position);
  const double radial = std::hypot(centre.x(), centre.y());
  // On the axis every meridian plane serves; x is as good as any.
  const Vector3 radialDirection = radial > 0 ? Vector3(centre.x() / radial, centre.y() / radial, 0) : Vector3::UnitX();
  const Eigen::Vector2d x(radial, centre.z());
  const Eigen::Vector2d corners[4] = {{0, profile.z0}, {profile.r0, profile.z0}, {profile.r1, profile.z1},
                                      {0, profile.z1}};
  // Bottom, side, top; the axis is not a surface.
  Eigen::Vector2d nearest = corners[0];
  double distance = INFINITY;
  double insideClearance = INFINITY;
  Eigen::Vector2d insideNormal(0, -1);
  bool inside = true;
  for (int edge = 0; edge < 3; ++edge) {
    const Eigen::Vector2d& p = corners[edge];
    const Eigen::Vector2d& q = corners[edge + 1];
    const Eigen::Vector2d candidate = closestOnSegment(x, p, q);
    const double candidateDistance = (x - candidate).norm();
    if (candidateDistance < distance) distance = candidateDistance, nearest = candidate;
    const Eigen::Vector2d direction = q - p;
    const double length = direction.norm();
    if (length == 0) continue;  // a cone's apex: no flat end
    // Counter-clockwise profile, so the outward normal is the edge direction turned clockwise.
    const Eigen::Vector2d outward(direction.y() / length, -direction.x() / length);
    const double height = (x - p).dot(outward);  // > 0 outside this edge's line
    if (height > 0) inside = false;
    if (-height < insideClearance) insideClearance = -height, insideNormal = outward;
  }
  Eigen::Vector2d normal2d;
  double signedDistance;
  if (!inside && distance > 0) {
    signedDistance = distance - a.radius;
    if (signedDistance >= 0) return signedDistance;
    normal2d = (x - nearest) / distance;
  } else {
    // Centre inside (or on the surface): out through the nearest flat or slanted surface; the outside branch
    // meets this one at the surface, where both give −radius.
    normal2d = insideNormal;
    nearest = x + insideClearance * insideNormal;
    signedDistance = -(a.radius + insideClearance);
  }
  const Vector3 localNormal = normal2d.x() * radialDirection + normal2d.y() * Vector3::UnitZ();
  const Vector3 localSurface = nearest.x() * radialDirection + nearest.y() * Vector3::UnitZ();
  // Exact for a flat end; for the curved side and the rim an estimate with the same formula.
  appendSpherePoint(poseA.position, a.radius, poseB.position + poseB.rotation * localSurface,
                    poseB.rotation * localNormal, signedDistance, sphereCapArea(a.radius, -signedDistance), points);
  return signedDistance;
}

}  // namespace

double sphereCylinder(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                      std::vector<ContactPoint>& points) {
  return sphereRevolved(a, poseA, {-b.halfLength, b.radius, b.halfLength, b.radius}, poseB, points);
}

double sphereFrustum(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB, double,
                     std::vector<ContactPoint>& points) {
  return sphereRevolved(a, poseA, {0, b.bottomRadius, b.length, b.topRadius}, poseB, points);
}

}  // namespace lodestone::detail

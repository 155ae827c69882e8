// Signed distance from a point to each primitive.
#include "point_queries.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace lodestone {

namespace {

SurfacePoint sphere(double radius, const Vector3& p) {
  const double r = p.norm();
  const Vector3 direction = r > 0 ? Vector3(p / r) : Vector3::UnitZ();  // the centre: any direction is nearest
  return {r - radius, radius * direction, direction};
}

// The cavity's surface is the sphere's, the material on the other side: distance and normal turn round.
SurfacePoint hollowSphere(double radius, const Vector3& p) {
  const SurfacePoint solid = sphere(radius, p);
  return {-solid.distance, solid.nearest, -solid.normal};
}

SurfacePoint box(const Vector3& half, const Vector3& p) {
  const Vector3 outside = p.cwiseAbs() - half;
  if ((outside.array() > 0).any()) {
    // Outside: the clamped point is nearest; the normal points from it to p.
    const Vector3 nearest = p.cwiseMax(-half).cwiseMin(half);
    const Vector3 gap = p - nearest;
    return {gap.norm(), nearest, gap.normalized()};
  }
  // Inside: the nearest face.
  int axis = 0;
  outside.maxCoeff(&axis);
  Vector3 normal = Vector3::Zero();
  normal[axis] = p[axis] >= 0 ? 1 : -1;
  Vector3 nearest = p;
  nearest[axis] = normal[axis] * half[axis];
  return {outside[axis], nearest, normal};
}

// The axisymmetric shapes as a problem in the (r, z) half-plane: the profile is the polygon bottom-centre,
// bottom-rim, top-rim, top-centre; the point's nearest feature is on one of its three edges (the axis is not
// surface). `r0` at z0, `r1` at z1.
SurfacePoint axisymmetric(double r0, double r1, double z0, double z1, const Vector3& p) {
  const double radial = std::hypot(p.x(), p.y());
  const Vector3 across = radial > 0 ? Vector3(p.x() / radial, p.y() / radial, 0) : Vector3::UnitX();
  using Point2 = Eigen::Vector2d;
  const Point2 q(radial, p.z());
  const std::array<Point2, 4> corners{Point2(0, z0), Point2(r0, z0), Point2(r1, z1), Point2(0, z1)};
  double best = std::numeric_limits<double>::infinity();
  Point2 nearest = q, edgeNormal(0, 1);
  for (int e = 0; e < 3; ++e) {
    const Point2 a = corners[static_cast<size_t>(e)], b = corners[static_cast<size_t>(e) + 1];
    const Point2 edge = b - a;
    if (edge.squaredNorm() == 0) continue;  // an apex: the cap of zero radius
    const double t = std::clamp((q - a).dot(edge) / edge.squaredNorm(), 0.0, 1.0);
    const Point2 candidate = a + t * edge;
    const double distance = (q - candidate).norm();
    if (distance < best) {
      best = distance;
      nearest = candidate;
      edgeNormal = Point2(edge.y(), -edge.x()).normalized();  // outward: the profile runs anticlockwise
    }
  }
  // Inside when the point is within the profile: between the caps and within the side's radius at its height.
  const double height = (q.y() - z0) / (z1 - z0);
  const bool inside = height >= 0 && height <= 1 && q.x() <= r0 + (r1 - r0) * height;
  Point2 normal2 = inside || best == 0 ? edgeNormal : Point2((q - nearest) / best);
  const Vector3 nearest3 = nearest.x() * across + Vector3(0, 0, nearest.y());
  const Vector3 normal3 = normal2.x() * across + Vector3(0, 0, normal2.y());
  return {inside ? -best : best, nearest3, normal3.normalized()};
}

// The ellipsoid: the nearest point is x_i = a_i²·p_i/(a_i² + t) for the root t of
// F(t) = Σ (a_i·p_i/(a_i² + t))² − 1, which decreases on (−a_min², ∞): bisection to the last bit. When p has no
// component along the shortest axis the root can sit at the interval's end (points on the medial disc inside the
// ellipsoid, the centre among them): then t = −a_min² and the shortest coordinate follows from the surface equation
// (Eberly, "Distance from a point to an ellipse, an ellipsoid, or a hyperellipsoid").
SurfacePoint ellipsoid(const Vector3& axes, const Vector3& point) {
  const Vector3 p = point.cwiseAbs();  // solved in the first octant, mirrored back
  const Vector3 a2 = axes.cwiseProduct(axes);
  int shortest = 0;
  axes.minCoeff(&shortest);
  const auto F = [&](double t) {
    double sum = -1;
    for (int i = 0; i < 3; ++i) {
      if (p[i] == 0) continue;
      const double term = axes[i] * p[i] / (a2[i] + t);
      sum += term * term;
    }
    return sum;
  };
  Vector3 nearest = Vector3::Zero();
  const double edge = -a2[shortest];
  bool medial = false;
  if (p[shortest] == 0) {
    // F at the interval's end, the shortest axis's term being absent: not above zero means the medial case. Axes as
    // short as the shortest (a sphere's) share its singularity and must be zero too for this to apply.
    bool others = true;
    for (int i = 0; i < 3; ++i) {
      if (i != shortest && a2[i] == a2[shortest] && p[i] != 0) others = false;
    }
    if (others) {
      double sum = 0;
      for (int i = 0; i < 3; ++i) {
        if (i == shortest || p[i] == 0) continue;
        const double x = a2[i] * p[i] / (a2[i] - a2[shortest]);
        nearest[i] = x;
        sum += (x / axes[i]) * (x / axes[i]);
      }
      if (sum <= 1) {
        medial = true;
        nearest[shortest] = axes[shortest] * std::sqrt(1 - sum);
      }
    }
  }
  if (!medial) {
    double low = edge, high = p.norm() * axes.maxCoeff();  // F(high) <= 0 < F(low⁺)
    for (int k = 0; k < 2000; ++k) {
      const double mid = 0.5 * (low + high);
      if (mid <= low || mid >= high) break;  // the interval is down to adjacent doubles
      (F(mid) > 0 ? low : high) = mid;
    }
    const double t = 0.5 * (low + high);
    for (int i = 0; i < 3; ++i) nearest[i] = a2[i] * p[i] / (a2[i] + t);
  }
  for (int i = 0; i < 3; ++i) {
    if (point[i] < 0) nearest[i] = -nearest[i];
  }
  const Vector3 normal = nearest.cwiseQuotient(a2).normalized();
  const double sign = point.cwiseQuotient(axes).squaredNorm() < 1 ? -1 : 1;
  return {sign * (point - nearest).norm(), nearest, normal};
}

}  // namespace

SurfacePoint nearestSurfacePoint(const Shape& shape, const Vector3& point) {
  switch (shape.type) {
    case ShapeType::Sphere: return sphere(shape.radius, point);
    case ShapeType::Box: return box(shape.halfExtents, point);
    case ShapeType::Cylinder:
      return axisymmetric(shape.radius, shape.radius, -shape.halfLength, shape.halfLength, point);
    case ShapeType::Frustum: return axisymmetric(shape.bottomRadius, shape.topRadius, 0, shape.length, point);
    case ShapeType::Ellipsoid: return ellipsoid(shape.semiAxes, point);
    case ShapeType::HollowSphere: return hollowSphere(shape.radius, point);
    // The xy plane, the material below: the height above it.
    case ShapeType::Plane: return {point.z(), Vector3(point.x(), point.y(), 0), Vector3::UnitZ()};
    case ShapeType::Mesh:
    case ShapeType::Curve:
    case ShapeType::GridSurface:
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Disk: break;
  }
  throw std::invalid_argument(std::string("nearestSurfacePoint: a ") + shapeTypeName(shape.type) +
                              " has no inside to measure from");
}

}  // namespace lodestone

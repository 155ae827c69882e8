// Nearest surface points of the primitives: for random points inside and outside each shape, the answer lies on
// the surface, point = nearest + distance·normal, the sign says inside or outside, and no point of a fine
// tessellation of the surface (its vertices lie on the true surface) is nearer than |distance|, while the nearest
// vertex is within the tessellation's spacing of it.
#include <cmath>
#include <random>

#include <gtest/gtest.h>

#include "collision/point_queries.h"
#include "collision/tessellation.h"

namespace lodestone {
namespace {

bool insideOf(const Shape& s, const Vector3& p) {
  switch (s.type) {
    case ShapeType::Sphere: return p.norm() < s.radius;
    case ShapeType::Box: return (p.cwiseAbs() - s.halfExtents).maxCoeff() < 0;
    case ShapeType::Cylinder: return std::hypot(p.x(), p.y()) < s.radius && std::fabs(p.z()) < s.halfLength;
    case ShapeType::Frustum: {
      const double h = p.z() / s.length;
      return h > 0 && h < 1 && std::hypot(p.x(), p.y()) < s.bottomRadius + (s.topRadius - s.bottomRadius) * h;
    }
    case ShapeType::Ellipsoid: return p.cwiseQuotient(s.semiAxes).norm() < 1;
    case ShapeType::HollowSphere: return p.norm() > s.radius;  // the material is outside
    case ShapeType::Plane: return p.z() < 0;
    case ShapeType::Mesh:
    case ShapeType::Curve:
    case ShapeType::Point:
    case ShapeType::PointCloud:
    case ShapeType::Disk:
    case ShapeType::GridSurface: break;
  }
  return false;
}

TEST(CollisionPointQueries, NearestSurfacePointsOfEveryPrimitive) {
  const Shape shapes[] = {Shape::sphere(0.3), Shape::box(Vector3(0.1, 0.2, 0.3)), Shape::cylinder(0.1, 0.2),
                          Shape::frustum(0.2, 0.05, 0.3), Shape::frustum(0.2, 0, 0.3),
                          Shape::ellipsoid(Vector3(0.1, 0.2, 0.4))};
  std::mt19937 random(5);
  for (const Shape& shape : shapes) {
    SCOPED_TRACE(shapeTypeName(shape.type));
    const TriangleMesh fine = tessellate(shape, 3);
    double spacing = 0;  // the longest mesh edge: how far a surface point can be from the nearest vertex
    for (const auto& [a, b, c] : fine.triangles) {
      spacing = std::max({spacing, (fine.vertices[static_cast<size_t>(a)] - fine.vertices[static_cast<size_t>(b)]).norm(),
                          (fine.vertices[static_cast<size_t>(b)] - fine.vertices[static_cast<size_t>(c)]).norm()});
    }
    const double size = shape.boundingRadius();
    // Points in the shape's bounding box grown by half: from 8 % (the cone) to 30 % (the box) fall inside.
    const Aabb bounds = boundsOf(shape, Pose{});
    const Vector3 middle = 0.5 * (bounds.min + bounds.max), half = 0.75 * (bounds.max - bounds.min);
    std::uniform_real_distribution<double> unit(-1, 1);
    int inside = 0;
    for (int k = 0; k < 400; ++k) {
      const Vector3 p = middle + half.cwiseProduct(Vector3(unit(random), unit(random), unit(random)));
      const SurfacePoint answer = nearestSurfacePoint(shape, p);
      EXPECT_NEAR(answer.normal.norm(), 1, 1e-12);
      EXPECT_LT((p - (answer.nearest + answer.distance * answer.normal)).norm(), 1e-9 * size) << p.transpose();
      EXPECT_EQ(answer.distance < 0, insideOf(shape, p)) << p.transpose();
      inside += answer.distance < 0 ? 1 : 0;
      double nearestVertex = std::numeric_limits<double>::infinity();
      for (const Vector3& v : fine.vertices) nearestVertex = std::min(nearestVertex, (v - p).norm());
      EXPECT_GE(nearestVertex, std::fabs(answer.distance) - 1e-9 * size) << "a surface point nearer than the answer";
      EXPECT_LE(nearestVertex, std::fabs(answer.distance) + spacing) << p.transpose();
    }
    EXPECT_GT(inside, 20) << "the sample reached the inside (a cone fills 8 % of the box)";
  }
}

TEST(CollisionPointQueries, HandPickedAnswers) {
  const Shape box = Shape::box(Vector3(1, 2, 3));
  SurfacePoint answer = nearestSurfacePoint(box, Vector3(0.5, 0, 0));  // inside, nearest the +x face
  EXPECT_DOUBLE_EQ(answer.distance, -0.5);
  EXPECT_EQ(answer.normal, Vector3::UnitX());
  answer = nearestSurfacePoint(box, Vector3(2, 3, 0));  // outside, nearest the edge x = 1, y = 2
  EXPECT_DOUBLE_EQ(answer.distance, std::sqrt(2.0));
  EXPECT_TRUE(answer.nearest.isApprox(Vector3(1, 2, 0)));
  const Shape cylinder = Shape::cylinder(1, 1);
  answer = nearestSurfacePoint(cylinder, Vector3(0, 0, 0.9));  // on the axis, nearest the top cap
  EXPECT_NEAR(answer.distance, -0.1, 1e-15);
  EXPECT_TRUE(answer.normal.isApprox(Vector3::UnitZ()));
  answer = nearestSurfacePoint(cylinder, Vector3(3, 0, 0));
  EXPECT_DOUBLE_EQ(answer.distance, 2);
  const Shape ellipsoid = Shape::ellipsoid(Vector3(1, 2, 3));
  answer = nearestSurfacePoint(ellipsoid, Vector3(0, 0, 5));  // on an axis: the vertex
  EXPECT_NEAR(answer.distance, 2, 1e-12);
  EXPECT_TRUE(answer.normal.isApprox(Vector3::UnitZ()));
  answer = nearestSurfacePoint(ellipsoid, Vector3::Zero());  // the centre: the nearest is the shortest semi-axis
  EXPECT_NEAR(answer.distance, -1, 1e-9);
}

}  // namespace
}  // namespace lodestone

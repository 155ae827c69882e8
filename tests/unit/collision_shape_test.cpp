// Shapes' bounding boxes hold sampled surface points at random orientations, and are tight where they claim to
// be; bounding radii hold the shape too.
#include <cmath>
#include <numbers>
#include <random>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/shape.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


// Points on the shape's surface in its own frame (rims, ends and sides, where the extremes are).
std::vector<Vector3> surfaceSamples(const Shape& shape) {
  std::vector<Vector3> samples;
  const int around = 72, along = 9;
  for (int i = 0; i < around; ++i) {
    const double angle = 2 * kPi * i / around;
    const Vector3 ring(std::cos(angle), std::sin(angle), 0);
    for (int j = 0; j <= along; ++j) {
      const double fraction = static_cast<double>(j) / along;
      switch (shape.type) {
        case ShapeType::Sphere:
        case ShapeType::HollowSphere: {
          const double polar = kPi * fraction;
          samples.push_back(shape.radius * (std::sin(polar) * ring + std::cos(polar) * Vector3::UnitZ()));
          break;
        }
        case ShapeType::Ellipsoid: {
          const double polar = kPi * fraction;
          samples.push_back(shape.semiAxes.cwiseProduct(std::sin(polar) * ring + std::cos(polar) * Vector3::UnitZ()));
          break;
        }
        case ShapeType::Cylinder:
          samples.push_back(shape.radius * ring + shape.halfLength * (2 * fraction - 1) * Vector3::UnitZ());
          break;
        case ShapeType::Frustum:
          samples.push_back(((1 - fraction) * shape.bottomRadius + fraction * shape.topRadius) * ring +
                            fraction * shape.length * Vector3::UnitZ());
          break;
        case ShapeType::Box:
          samples.push_back(shape.halfExtents.cwiseProduct(
              Vector3(i & 1 ? 1 : -1, i & 2 ? 1 : -1, i & 4 ? 1 : -1)));
          break;
        case ShapeType::Mesh:
        case ShapeType::Curve:
        case ShapeType::Point:
        case ShapeType::PointCloud:
        case ShapeType::Plane:
        case ShapeType::Disk:
        case ShapeType::GridSurface: break;
      }
    }
  }
  return samples;
}

TEST(ShapeBounds, BoxesHoldTheSurfaceAndAreTight) {
  std::mt19937 random(3);
  std::uniform_real_distribution<double> component(-1, 1), angle(0, kPi);
  const Shape shapes[] = {Shape::sphere(0.7), Shape::box(Vector3(1, 0.2, 0.5)), Shape::cylinder(0.4, 1.5),
                          Shape::frustum(1.0, 0.3, 2.0), Shape::frustum(0.0, 0.5, 1.0),
                          Shape::ellipsoid(Vector3(1, 2, 0.5))};
  for (const Shape& shape : shapes) {
    const std::vector<Vector3> samples = surfaceSamples(shape);
    for (int trial = 0; trial < 20; ++trial) {
      const Vector3 axis = Vector3(component(random), component(random), component(random)).normalized();
      const Pose pose{Vector3(component(random), component(random), component(random)) * 5,
                      Eigen::AngleAxisd(angle(random), axis).toRotationMatrix()};
      const Aabb bounds = boundsOf(shape, pose);
      Vector3 reachedMin = Vector3::Constant(INFINITY), reachedMax = Vector3::Constant(-INFINITY);
      for (const Vector3& local : samples) {
        const Vector3 point = pose.position + pose.rotation * local;
        EXPECT_TRUE((point.array() >= bounds.min.array() - 1e-12).all() &&
                    (point.array() <= bounds.max.array() + 1e-12).all())
            << shapeTypeName(shape.type);
        EXPECT_LE((point - pose.position).norm(), shape.boundingRadius() + 1e-12) << shapeTypeName(shape.type);
        reachedMin = reachedMin.cwiseMin(point);
        reachedMax = reachedMax.cwiseMax(point);
      }
      // Tight: the samples reach the box. Exact for box corners; sphere-like shapes within the sampling's reach
      // (72 × 9 samples miss an extreme by at most r·(1 − cos(π/9)) ≈ 6 % of the radius).
      const double slack = shape.type == ShapeType::Box ? 1e-12 : 0.07 * shape.boundingRadius();
      EXPECT_LT((reachedMin - bounds.min).maxCoeff(), slack) << shapeTypeName(shape.type);
      EXPECT_LT((bounds.max - reachedMax).maxCoeff(), slack) << shapeTypeName(shape.type);
    }
  }
}

TEST(ShapeBounds, SphereBoundsAreExact) {
  const Aabb bounds = boundsOf(Shape::sphere(0.5), {Vector3(1, 2, 3), Eigen::AngleAxisd(1, Vector3::UnitX()).toRotationMatrix()});
  EXPECT_EQ(bounds.min, Vector3(0.5, 1.5, 2.5));
  EXPECT_EQ(bounds.max, Vector3(1.5, 2.5, 3.5));
}

TEST(ShapeBounds, TypeNamesAndFactories) {
  EXPECT_STREQ(shapeTypeName(ShapeType::Frustum), "frustum");
  EXPECT_STREQ(shapeTypeName(ShapeType::Mesh), "mesh");
  const Shape frustum = Shape::frustum(1, 0.5, 2);
  EXPECT_EQ(frustum.type, ShapeType::Frustum);
  EXPECT_NEAR(frustum.boundingRadius(), std::hypot(0.5, 2.0), 1e-15);
  EXPECT_NEAR(Shape::cylinder(0.3, 0.4).boundingRadius(), 0.5, 1e-15);
}

}  // namespace
}  // namespace lodestone

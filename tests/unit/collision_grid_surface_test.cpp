// Simscape's grid surface: the tensor-product not-a-knot spline through its samples against closed forms (cubics
// reproduced exactly, a sine within the spline's error bound), its nearest point against a brute-force search on
// the analytic surface, and a ball on it through the narrow phase.
#include <cmath>
#include <limits>
#include <memory>
#include <numbers>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/grid_surface.h"
#include "collision/narrow_phase.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


std::vector<double> spaced(double from, double to, int count) {
  std::vector<double> values;
  for (int k = 0; k < count; ++k) values.push_back(from + (to - from) * k / (count - 1));
  return values;
}

template <class Height>
GridSurface sampled(const std::vector<double>& xs, const std::vector<double>& ys, const Height& height) {
  std::vector<double> heights;
  for (double y : ys) {
    for (double x : xs) heights.push_back(height(x, y));
  }
  return GridSurface(xs, ys, heights);
}

// A not-a-knot cubic spline is exact for cubics, so the tensor-product spline of p(x)·q(y) with cubics p and q is the
// function itself, with its derivatives, to round-off, on an uneven grid too.
TEST(GridSurface, AProductOfCubicsIsReproducedExactly) {
  const auto p = [](double x) { return 1 + 0.5 * x - 0.3 * x * x + 0.2 * x * x * x; };
  const auto dp = [](double x) { return 0.5 - 0.6 * x + 0.6 * x * x; };
  const auto d2p = [](double x) { return -0.6 + 1.2 * x; };
  const auto q = [](double y) { return 2 - y + 0.1 * y * y * y; };
  const auto dq = [](double y) { return -1 + 0.3 * y * y; };
  const auto d2q = [](double y) { return 0.6 * y; };
  const std::vector<double> xs{-1, -0.7, 0, 0.2, 0.9, 1.5}, ys{-2, -1.1, -0.3, 0.4, 1};
  const GridSurface grid = sampled(xs, ys, [&](double x, double y) { return p(x) * q(y); });
  for (double x : {-1.0, -0.85, 0.1, 0.55, 1.5}) {
    for (double y : {-2.0, -0.7, 0.0, 0.9}) {
      const GridSurface::Sample s = grid.at(x, y);
      EXPECT_NEAR(s.z, p(x) * q(y), 1e-12);
      EXPECT_NEAR(s.gradient.x(), dp(x) * q(y), 1e-11);
      EXPECT_NEAR(s.gradient.y(), p(x) * dq(y), 1e-11);
      EXPECT_NEAR(s.hessian(0, 0), d2p(x) * q(y), 1e-10);
      EXPECT_NEAR(s.hessian(1, 1), p(x) * d2q(y), 1e-10);
      EXPECT_NEAR(s.hessian(0, 1), dp(x) * dq(y), 1e-10);
    }
  }
}

// z = a·sin(kx) sampled every h: the cubic spline's error bound (5/384)·h⁴·max|f⁗| = (5/384)·h⁴·a·k⁴ holds for
// the clamped spline (Hall & Meyer 1976); the not-a-knot spline's error is of the same order, and away from the ends
// it must stay within the bound.
TEST(GridSurface, ASineIsFollowedWithinTheSplinesErrorBound) {
  const double a = 0.01, k = 4 * kPi, h = 0.5 / 16;
  const std::vector<double> xs = spaced(0, 1.5, 49), ys = spaced(-0.2, 0.2, 5);
  const GridSurface grid = sampled(xs, ys, [&](double x, double) { return a * std::sin(k * x); });
  const double bound = 5.0 / 384 * std::pow(h, 4) * a * std::pow(k, 4);
  double worst = 0;
  for (double x = 0.25; x <= 1.25; x += 1e-3) {
    worst = std::max(worst, std::fabs(grid.at(x, 0.05).z - a * std::sin(k * x)));
  }
  RecordProperty("worst_height_error", worst);
  EXPECT_LT(worst, bound);
  EXPECT_GT(worst, 1e-3 * bound);  // the surface is the spline, not the sine itself
}

// The nearest point of a point above (and one below) the sine surface, against a brute-force search of the analytic
// surface (the surface is uniform in y, so the nearest point shares the point's y).
TEST(GridSurface, TheNearestPointMatchesABruteForceSearch) {
  const double a = 0.01, k = 4 * kPi;
  const GridSurface grid = sampled(spaced(0, 1.5, 97), spaced(-0.2, 0.2, 5),
                                   [&](double x, double) { return a * std::sin(k * x); });
  for (const Vector3& point : {Vector3(0.3, 0.01, 0.05), Vector3(0.5, -0.1, 0.02), Vector3(0.77, 0, -0.004)}) {
    double best = std::numeric_limits<double>::infinity(), bestX = 0;
    for (double x = point.x() - 0.1; x <= point.x() + 0.1; x += 1e-6) {
      const double d = std::hypot(x - point.x(), a * std::sin(k * x) - point.z());
      if (d < best) {
        best = d;
        bestX = x;
      }
    }
    const std::optional<GridSurface::Nearest> nearest = grid.nearest(point, 0.1);
    ASSERT_TRUE(nearest);
    EXPECT_NEAR(nearest->point.x(), bestX, 2e-5);
    EXPECT_NEAR(nearest->point.y(), point.y(), 1e-12);
    EXPECT_NEAR(std::fabs(nearest->distance), best, 1e-6);
    EXPECT_EQ(nearest->distance > 0, point.z() > a * std::sin(k * point.x()));
  }
  EXPECT_FALSE(grid.nearest(Vector3(1.7, 0, 0.05), 0.1));  // beyond the edge
}

// A ball over a flat grid surface at height 0.1 in a frame turned and shifted in ground: depth, normal and points as
// for a plane, and no surface beyond the rectangle.
TEST(GridSurface, ABallThroughTheNarrowPhase) {
  const auto grid = std::make_shared<GridSurface>(
      sampled(spaced(-1, 1, 6), spaced(-1, 1, 7), [](double, double) { return 0.1; }));
  const Shape surface = Shape::gridSurface(grid), ball = Shape::sphere(0.05);
  const Pose poseB{Vector3(0.3, -0.2, 0.4), Eigen::AngleAxisd(0.3, Vector3(1, 1, 0).normalized()).toRotationMatrix()};
  const Vector3 up = poseB.rotation.col(2);
  const Vector3 onSurface = poseB.position + poseB.rotation * Vector3(0.2, -0.3, 0.1);
  for (const double height : {0.07, 0.04}) {
    std::vector<ContactPoint> points;
    const Pose poseA{onSurface + height * up, Matrix3::Identity()};
    const double signedDistance = collide(ball, poseA, surface, poseB, 0.1, points);
    EXPECT_NEAR(signedDistance, height - 0.05, 1e-12);
    if (height > 0.05) {
      EXPECT_TRUE(points.empty());
      continue;
    }
    ASSERT_EQ(points.size(), 1u);
    EXPECT_NEAR((points[0].normal - up).norm(), 0, 1e-12);
    EXPECT_NEAR((points[0].pointOnB - onSurface).norm(), 0, 1e-12);
    EXPECT_NEAR(points[0].depth, 0.01, 1e-12);
  }
  std::vector<ContactPoint> points;
  const Pose beyond{poseB.position + poseB.rotation * Vector3(1.2, 0, 0.12), Matrix3::Identity()};
  EXPECT_EQ(collide(ball, beyond, surface, poseB, 0.1, points), std::numeric_limits<double>::infinity());
  EXPECT_EQ(collide(Shape::box(Vector3::Constant(0.1)), poseB, surface, poseB, 0.1, points),
            std::numeric_limits<double>::infinity());
}

// A cloud of points over the sine surface: each point below it is a contact of its own whose depth is its distance
// from the surface (the same nearest point as above), with the surface's normal there; the points above are none.
TEST(GridSurface, ACloudsPointsBelowTheSurfaceAreContacts) {
  const double a = 0.01, k = 4 * kPi;
  const auto grid = std::make_shared<GridSurface>(
      sampled(spaced(0, 1.5, 97), spaced(-0.2, 0.2, 5), [&](double x, double) { return a * std::sin(k * x); }));
  const std::vector<Vector3> cloud{Vector3(0.125, 0, 0.008), Vector3(0.375, 0.05, -0.005),
                                   Vector3(0.625, -0.1, 0.004)};
  std::vector<ContactPoint> points;
  const Pose identity{};
  const double signedDistance = collide(Shape::pointCloud(cloud), identity, Shape::gridSurface(grid), identity, 0.1,
                                        points);
  std::vector<double> depths;
  for (const Vector3& point : cloud) {
    const std::optional<GridSurface::Nearest> nearest = grid->nearest(point, 0.1);
    ASSERT_TRUE(nearest);
    if (nearest->distance < 0) depths.push_back(-nearest->distance);
  }
  ASSERT_EQ(points.size(), depths.size());
  ASSERT_EQ(points.size(), 2u);  // the first and the last lie below crests (10 mm), the middle above a trough
  for (size_t p = 0; p < points.size(); ++p) {
    EXPECT_NEAR(points[p].depth, depths[p], 1e-15);
    EXPECT_NEAR((points[p].pointOnB - (points[p].pointOnA + points[p].depth * points[p].normal)).norm(), 0, 1e-15);
    EXPECT_GT(points[p].normal.z(), 0.5);
  }
  EXPECT_NEAR(signedDistance, -std::max(depths[0], depths[1]), 1e-15);
}

}  // namespace
}  // namespace lodestone

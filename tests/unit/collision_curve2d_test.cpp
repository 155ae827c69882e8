// The smooth curve through a Post_Graphic curve's points: it converges to the curve the points were taken from at
// the order a chordal C² spline promises, its queries (closest point, crossings) are exact on it, and its
// orientation puts the material on the side asked for.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <random>
#include <stdexcept>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/curve2d.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


std::vector<Vector2> ellipsePoints(double a, double b, int count, double from = 0, double to = 2 * kPi,
                                   bool includeEnd = false) {
  std::vector<Vector2> points;
  for (int k = 0; k < count + (includeEnd ? 1 : 0); ++k) {
    const double angle = from + (to - from) * k / count;
    points.emplace_back(a * std::cos(angle), b * std::sin(angle));
  }
  return points;
}

// The distance from p to the ellipse x²/a² + y²/b² = 1 to first order, F/|∇F|: exact to O(distance²), far below the
// errors measured here.
double ellipseDistance(double a, double b, const Vector2& p) {
  const double f = p.x() * p.x() / (a * a) + p.y() * p.y() / (b * b) - 1;
  const Vector2 gradient(2 * p.x() / (a * a), 2 * p.y() / (b * b));
  return std::fabs(f) / gradient.norm();
}

// The largest distance of the spline from the ellipse, over 40 samples per segment.
double largestDeviation(const SplineCurve2d& curve, double a, double b) {
  double largest = 0;
  const int samples = 40 * curve.segmentCount();
  for (int k = 0; k <= samples; ++k) {
    largest = std::max(largest, ellipseDistance(a, b, curve.position(curve.length() * k / samples)));
  }
  return largest;
}

// The largest distance from the analytic curve relative to the radius (or the semi-major axis) against the point
// count N, and the order between successive rows, log2(e_N/2 / e_N), as measured (points uniform in angle; the
// ellipse's are then uneven in length, 2.5 : 1 from its ends to its flanks; the open arc runs over 3/4 of it):
//
//     N   circle R        order   ellipse 0.1×0.04  order   open arc, not-a-knot  order
//     8   1.152e-03               1.157e-02                 2.236e-02
//    16   6.435e-05       4.16    2.389e-03         2.28    1.516e-03             3.88
//    32   3.908e-06       4.04    1.256e-04         4.25    1.066e-04             3.83
//    64   2.425e-07       4.01    6.346e-06         4.31    4.052e-06             4.72
//   128   1.513e-08       4.00    3.491e-07         4.18    1.086e-07             5.22
//   256   9.451e-10       4.00    2.104e-08         4.05    6.622e-09             4.04
//   512   5.906e-11       4.00    1.303e-09         4.01    4.121e-10             4.01
//
// Chordal C² splines converge at O(h⁴) (Floater 2006), the periodic ones and the not-a-knot ends alike. The test asks
// every doubling from 16 points on for an order of at least 3.7 (below 4 for the pre-asymptotic wobble of the open
// arc at 32), and at 256 points for errors within about twice those measured, so that a spline losing an order
// (a natural end: O(h²) there) fails both.
TEST(Curve2d, SplinesThroughCircleAndEllipsePointsConvergeAtFourthOrder) {
  struct Case {
    const char* name;
    double a, b;
    bool closed;
    double boundAt256;
  };
  const Case cases[] = {{"circle", 0.05, 0.05, true, 2e-9},
                        {"ellipse", 0.1, 0.04, true, 4e-8},
                        {"ellipse arc", 0.1, 0.04, false, 1.5e-8}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    double previous = 0;
    for (int count = 8; count <= 512; count *= 2) {
      // The open arc runs over 3/4 of the ellipse, through its flattest and its most curved parts.
      const std::vector<Vector2> points = c.closed ? ellipsePoints(c.a, c.b, count)
                                                   : ellipsePoints(c.a, c.b, count, 0.2, 0.2 + 1.5 * kPi, true);
      const SplineCurve2d curve(points, c.closed, c.closed ? CurveMaterial::Inside : CurveMaterial::Left);
      const double error = largestDeviation(curve, c.a, c.b) / c.a;
      const double order = previous > 0 ? std::log2(previous / error) : 0;
      if (count >= 32) {
        EXPECT_GE(order, 3.7) << count << " points, error " << error;
      }
      if (count == 256) {
        EXPECT_LT(error, c.boundAt256);
      }
      previous = error;
    }
  }
}

// The closest point of a circle's spline (64 points) to points inside, outside and near the centre (where every
// direction is nearly as close: the hard case for a local search). On the spline itself it is a true foot point,
// (P − p)·P' = 0 to 1e-12 of |P − p|, and the global one: no sample of the spline is nearer. Against the circle: the
// distance is r − R within the spline's deviation (2.4e-7·R measured above, so 1e-6·R); the foot's direction is
// p/|p| within the angle the deviation's slope w' = d|P|/dθ (about 64 × 2.4e-7·R) turns it by, w'/r, so its position
// within 4e-5·R·(R/r), for r ≥ R/5 (nearer the centre the direction is not a fair test of the spline).
TEST(Curve2d, ClosestPointOnACircleIsTheRadialFoot) {
  constexpr double kRadius = 0.05;
  const SplineCurve2d circle(ellipsePoints(kRadius, kRadius, 64), true, CurveMaterial::Inside);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> angle(0, 2 * kPi), scale(0.001, 3.0);
  for (int trial = 0; trial < 200; ++trial) {
    const double theta = angle(random), r = kRadius * (trial < 20 ? 1e-3 * scale(random) : scale(random));
    const Vector2 p(r * std::cos(theta), r * std::sin(theta));
    const CurvePoint nearest = circle.closest(p);
    SCOPED_TRACE("r/R = " + std::to_string(r / kRadius));
    if (r >= kRadius / 5) {
      EXPECT_LT((nearest.position - kRadius * p.normalized()).norm(), 4e-5 * kRadius * kRadius / r);
    }
    EXPECT_NEAR(nearest.distance, r - kRadius, 1e-6 * kRadius);  // signed: < 0 inside the material
    const Vector2 offset = nearest.position - p;
    EXPECT_LT(std::fabs(offset.dot(circle.tangent(nearest.parameter))), 1e-12 * offset.norm() + 1e-17);
    for (int k = 0; k < 2000; ++k) {
      ASSERT_GE((circle.position(circle.length() * k / 2000) - p).norm(), std::fabs(nearest.distance) - 1e-15);
    }
  }
}

// The material side: a circle given clockwise with material inside runs counter-clockwise; its normal points out
// and its curvature is +1/R; with material outside (a hole) both turn round. An open line has its material left of
// the direction its points run, or right (then taken in reverse).
TEST(Curve2d, OrientationPutsTheMaterialOnTheLeftAndTheNormalAwayFromIt) {
  constexpr double kRadius = 0.05;
  std::vector<Vector2> clockwise = ellipsePoints(kRadius, kRadius, 32);
  std::reverse(clockwise.begin(), clockwise.end());
  const SplineCurve2d disc(clockwise, true, CurveMaterial::Inside), hole(clockwise, true, CurveMaterial::Outside);
  for (double u = 0; u < disc.length(); u += disc.length() / 7) {
    const Vector2 radial = disc.position(u).normalized();
    EXPECT_NEAR(disc.normal(u).dot(radial), 1, 1e-5);
    // Curvature converges at O(h²): h²/12 = 3.2e-3 at 32 points (h = 2π/32).
    EXPECT_NEAR(disc.curvature(u) * kRadius, 1, 5e-3);
    EXPECT_NEAR(hole.normal(u).dot(hole.position(u).normalized()), -1, 1e-5);
    EXPECT_NEAR(hole.curvature(u) * kRadius, -1, 5e-3);
  }
  EXPECT_LT(disc.closest(Vector2::Zero()).distance, 0);
  EXPECT_GT(hole.closest(Vector2::Zero()).distance, 0);

  const std::vector<Vector2> line = {{-1, 0}, {0, 0}, {1, 0}};
  const SplineCurve2d floorBelow(line, false, CurveMaterial::Right), floorAbove(line, false, CurveMaterial::Left);
  EXPECT_TRUE(floorBelow.straight());
  EXPECT_NEAR(floorBelow.normal(0.3).y(), 1, 1e-15);  // material below: the normal points up
  EXPECT_NEAR(floorAbove.normal(0.3).y(), -1, 1e-15);
  EXPECT_LT(floorBelow.closest(Vector2(0.2, -0.1)).distance, 0);
  EXPECT_NEAR(floorBelow.closest(Vector2(0.2, 0.1)).distance, 0.1, 1e-15);
  EXPECT_NEAR((floorBelow.position(0.5) - Vector2(0.5, 0)).norm(), 0, 1e-15);  // reversed: u runs from x = 1
}

TEST(Curve2d, AClosedCurveByItsRepeatedFirstPointAndBadPointsAreRefused) {
  std::vector<Vector2> square = {{0, 0}, {1, 0}, {1, 1}, {0, 1}, {0, 0}};
  const SplineCurve2d repeated(square, false, CurveMaterial::Inside);  // closed by the repeated point
  EXPECT_TRUE(repeated.closed());
  EXPECT_EQ(repeated.segmentCount(), 4);
  EXPECT_FALSE(repeated.straight());
  // C² across the seam as everywhere.
  EXPECT_LT((repeated.secondDerivative(repeated.length() - 1e-12) - repeated.secondDerivative(0)).norm(), 1e-9);

  const std::vector<Vector2> two = {{0, 0}, {1, 0}}, doubled = {{0, 0}, {1, 0}, {1, 0}, {2, 1}};
  EXPECT_THROW(SplineCurve2d(two, true, CurveMaterial::Inside), std::invalid_argument);
  EXPECT_THROW(SplineCurve2d(doubled, false, CurveMaterial::Left), std::invalid_argument);
  EXPECT_THROW(SplineCurve2d(two, false, CurveMaterial::Inside), std::invalid_argument);
  square.pop_back();
  EXPECT_THROW(SplineCurve2d(square, true, CurveMaterial::Left), std::invalid_argument);
  const std::vector<Vector2> collinear = {{0, 0}, {1, 0}, {2, 0}, {0.5, 0}};
  EXPECT_THROW(SplineCurve2d(collinear, true, CurveMaterial::Inside), std::invalid_argument);
}

// A moved spline is the spline of the moved points: knots are distances, the system linear in the points.
TEST(Curve2d, MovingASplineIsSplineOfMovedPoints) {
  const std::vector<Vector2> points = ellipsePoints(0.1, 0.04, 12);
  const Eigen::Matrix2d rotation = Eigen::Rotation2Dd(0.7).toRotationMatrix();
  const Vector2 shift(0.3, -0.2);
  std::vector<Vector2> movedPoints;
  for (const Vector2& p : points) movedPoints.push_back(rotation * p + shift);
  const SplineCurve2d moved = SplineCurve2d(points, true, CurveMaterial::Inside).moved(rotation, shift);
  const SplineCurve2d direct(movedPoints, true, CurveMaterial::Inside);
  for (double u = 0; u < direct.length(); u += direct.length() / 37) {
    EXPECT_LT((moved.position(u) - direct.position(u)).norm(), 1e-14);
  }
  EXPECT_LT((moved.boundsMin() - direct.boundsMin()).norm(), 1e-14);
}

// Two circles' splines cross where the circles do, to within the splines' deviation (128 points: 1.5e-8·R, so
// 1e-7·R), at one point of both splines (Newton's residual, 1e-14), and say which way A passes: B lies to A's right,
// so going counter-clockwise round A from angle 0, A leaves B at the upper crossing and enters it at the lower.
TEST(Curve2d, CrossingsOfTwoCircles) {
  constexpr double kRadiusA = 0.05, kRadiusB = 0.03, kDistance = 0.07;
  const SplineCurve2d a(ellipsePoints(kRadiusA, kRadiusA, 128), true, CurveMaterial::Inside);
  std::vector<Vector2> pointsB = ellipsePoints(kRadiusB, kRadiusB, 128);
  for (Vector2& p : pointsB) p.x() += kDistance;
  const SplineCurve2d b(pointsB, true, CurveMaterial::Inside);
  const double chordX = (kDistance * kDistance + kRadiusA * kRadiusA - kRadiusB * kRadiusB) / (2 * kDistance);
  const double halfChord = std::sqrt(kRadiusA * kRadiusA - chordX * chordX);
  const std::vector<CurveCrossing> crossings = a.crossings(b);
  ASSERT_EQ(crossings.size(), 2u);
  // In increasing parameter along A (counter-clockwise from angle 0): the upper crossing first, where A leaves B.
  EXPECT_LT((crossings[0].position - Vector2(chordX, halfChord)).norm(), 1e-7 * kRadiusA);
  EXPECT_LT((crossings[1].position - Vector2(chordX, -halfChord)).norm(), 1e-7 * kRadiusA);
  EXPECT_FALSE(crossings[0].entersOther);
  EXPECT_TRUE(crossings[1].entersOther);
  for (const CurveCrossing& crossing : crossings) {
    EXPECT_LT((a.position(crossing.parameterA) - b.position(crossing.parameterB)).norm(), 1e-14);
  }
  // Apart, the splines do not cross.
  EXPECT_TRUE(a.crossings(b.moved(Eigen::Matrix2d::Identity(), Vector2(0.02, 0))).empty());
}

}  // namespace
}  // namespace lodestone

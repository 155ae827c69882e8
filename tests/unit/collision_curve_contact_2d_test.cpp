// MotionSolve's 2D curve contact on splines through points of circles, an ellipse and lines: the overlap region's
// area and centroid, and the contact of both contact_stability_2d modes, against closed forms derived by hand; the
// manual's rules as statuses.
#include <cmath>
#include <numbers>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/curve_contact_2d.h"

namespace lodestone {
namespace {

constexpr double kPi = std::numbers::pi;

SplineCurve2d circle(const Vector2& centre, double radius, int count,
                     CurveMaterial material = CurveMaterial::Inside) {
  std::vector<Vector2> points;
  for (int k = 0; k < count; ++k) {
    const double angle = 2 * kPi * k / count;
    points.push_back(centre + radius * Vector2(std::cos(angle), std::sin(angle)));
  }
  return SplineCurve2d(points, true, material);
}

// The line y = 0 from x = −halfWidth to +halfWidth, material below (y < 0).
SplineCurve2d floorLine(double halfWidth, int count = 9) {
  std::vector<Vector2> points;
  for (int k = 0; k < count; ++k) points.emplace_back(-halfWidth + 2 * halfWidth * k / (count - 1), 0);
  return SplineCurve2d(points, false, CurveMaterial::Right);
}

// A circular segment: the part of a disc of `radius` beyond a chord at `offset` from its centre (offset may be
// negative: more than half the disc). Area r²·acos(o/r) − o·h and centroid 2h³/(3·area) from the centre, h the
// half-chord.
struct Segment {
  double area, centroidFromCentre, halfChord;
};
Segment circularSegment(double radius, double offset) {
  const double half = std::sqrt(radius * radius - offset * offset);
  const double area = radius * radius * std::acos(offset / radius) - offset * half;
  return {area, 2 * half * half * half / (3 * area), half};
}

// The lens of discs at the origin (radius ra) and at (d, 0) (radius rb): two circular segments on either side of the
// common chord x = (d² + ra² − rb²)/(2d).
struct Lens {
  double area;
  Vector2 centroid;
  double halfChord, chordX;
};
Lens lens(double ra, double rb, double d) {
  const double chordX = (d * d + ra * ra - rb * rb) / (2 * d);
  const Segment ofA = circularSegment(ra, chordX), ofB = circularSegment(rb, d - chordX);
  const double x = (ofA.area * ofA.centroidFromCentre + ofB.area * (d - ofB.centroidFromCentre)) / (ofA.area + ofB.area);
  return {ofA.area + ofB.area, Vector2(x, 0), ofA.halfChord, chordX};
}

// Two overlapping circles (ra = 50 mm, rb = 30 mm, centres 70 mm apart: 10 mm deep), N points each. The lens's
// crossings, area and centroid against the closed form, as measured (errors relative to ra, area to the lens's):
//
//     N   crossings   area        centroid
//    16   3.217e-05   4.435e-04   9.817e-06
//    32   2.617e-06   2.591e-05   5.271e-07
//    64   1.104e-07   1.634e-06   3.237e-08
//   128   1.721e-08   1.007e-07   1.984e-09
//   256   1.213e-09   6.195e-09   1.215e-10
//
// The errors fall as the splines' deviation from the circles, O(h⁴) (the area's and centroid's by 16 per doubling);
// the test asks each for less than twice what was measured at its N, so that a spline or an integral losing an
// order fails (a midpoint-rule area along the chords, O(h²), would be off by 3e-3 at 16 points).
TEST(CurveContact2d, LensOfTwoCirclesAgainstTheClosedForm) {
  constexpr double kRadiusA = 0.05, kRadiusB = 0.03, kDistance = 0.07;
  const Lens expected = lens(kRadiusA, kRadiusB, kDistance);
  struct Bounds {
    int count;
    double crossing, area, centroid;
  };
  const Bounds bounds[] = {{16, 6.5e-5, 9e-4, 2e-5},
                           {32, 5.5e-6, 5.5e-5, 1.1e-6},
                           {64, 2.2e-7, 3.3e-6, 6.5e-8},
                           {128, 3.5e-8, 2e-7, 4e-9},
                           {256, 2.5e-9, 1.3e-8, 2.5e-10}};
  for (const auto& [count, crossingBound, areaBound, centroidBound] : bounds) {
    SCOPED_TRACE(std::to_string(count) + " points");
    const SplineCurve2d a = circle(Vector2::Zero(), kRadiusA, count);
    const SplineCurve2d b = circle(Vector2(kDistance, 0), kRadiusB, count);
    const std::vector<CurveCrossing> crossings = a.crossings(b);
    ASSERT_EQ(crossings.size(), 2u);
    double crossingError = 0;
    for (const CurveCrossing& crossing : crossings) {
      crossingError = std::max(crossingError, (crossing.position - Vector2(expected.chordX, std::copysign(
                                                   expected.halfChord, crossing.position.y()))).norm());
    }
    const std::vector<OverlapRegion> regions = overlapRegions(a, b, crossings);
    ASSERT_EQ(regions.size(), 1u);
    const OverlapRegion& region = regions[0];
    EXPECT_EQ(region.boundary.size(), 2u);
    EXPECT_EQ(region.corners.size(), 2u);
    const double areaError = std::fabs(region.area / expected.area - 1);
    const double centroidError = (region.centroid - expected.centroid).norm();
    EXPECT_LT(crossingError / kRadiusA, crossingBound);
    EXPECT_LT(areaError, areaBound);
    EXPECT_LT(centroidError / kRadiusA, centroidBound);
  }
}

// Both contact_stability_2d modes on the lens of two circles (64 points each: the lens's area within 3.3e-6 and its
// centroid within 6.5e-8·ra, above).
// - k > 0: by symmetry every point of A's arc inside B penetrates least far from the line of centres and lies
//   farthest from the centroid (which is on that line) there, so for any k the contact is A's point (ra, 0), B's
//   point (d − rb, 0), depth ra + rb − d, normal −x (pushing A, on the left, out of B); within the splines'
//   deviation, 1e-6·ra.
// - k = 0: at the lens's centroid, normal −x (across the chord, out of B), depth 3·area/(2·chord) with the closed
//   form's area and chord 2h: within 1e-5 of the depth (the area's error and the chord's).
TEST(CurveContact2d, BothStabilityModesOnTheLens) {
  constexpr double kRadiusA = 0.05, kRadiusB = 0.03, kDistance = 0.07;
  const Lens expected = lens(kRadiusA, kRadiusB, kDistance);
  const SplineCurve2d a = circle(Vector2::Zero(), kRadiusA, 64), b = circle(Vector2(kDistance, 0), kRadiusB, 64);
  for (double stability : {1e-3 / kRadiusA, 1 / kRadiusA, 1e3 / kRadiusA}) {
    SCOPED_TRACE("k = " + std::to_string(stability));
    const CurveContactResult result = curveContact(a, b, stability);
    ASSERT_EQ(result.status, CurveContactStatus::Contact);
    ASSERT_EQ(result.contacts.size(), 1u);
    const CurveContact2d& contact = result.contacts[0];
    EXPECT_LT((contact.pointOnA - Vector2(kRadiusA, 0)).norm(), 1e-6 * kRadiusA);
    EXPECT_LT((contact.pointOnB - Vector2(kDistance - kRadiusB, 0)).norm(), 1e-6 * kRadiusA);
    EXPECT_NEAR(contact.depth, kRadiusA + kRadiusB - kDistance, 1e-6 * kRadiusA);
    EXPECT_LT((contact.normal - Vector2(-1, 0)).norm(), 1e-6);
    // pointOnB = pointOnA + depth·normal up to the foot point's orthogonality residual.
    EXPECT_LT((contact.pointOnA + contact.depth * contact.normal - contact.pointOnB).norm(), 1e-12 * kRadiusA);
  }
  const CurveContactResult result = curveContact(a, b, 0);
  ASSERT_EQ(result.status, CurveContactStatus::Contact);
  ASSERT_EQ(result.contacts.size(), 1u);
  const CurveContact2d& contact = result.contacts[0];
  const double expectedDepth = 1.5 * expected.area / (2 * expected.halfChord);
  EXPECT_NEAR(contact.depth / expectedDepth, 1, 1e-5);
  EXPECT_NEAR(contact.chord / (2 * expected.halfChord), 1, 1e-6);
  EXPECT_LT((0.5 * (contact.pointOnA + contact.pointOnB) - expected.centroid).norm(), 1e-7 * kRadiusA);
  EXPECT_LT((contact.normal - Vector2(-1, 0)).norm(), 1e-12);
  EXPECT_LT((contact.pointOnA + contact.depth * contact.normal - contact.pointOnB).norm(), 1e-15);
  // This lens is deep (δ = rb/3): the area depth is 1.8 % above δ = ra + rb − d, as the circles' fullness makes it
  // (curve_contact_2d.h).
  EXPECT_NEAR(expectedDepth / (kRadiusA + kRadiusB - kDistance), 1.0178, 1e-4);
}

// A circle (64 points, R = 50 mm) pressed δ into the flat line y = 0 (an open curve, material below), for δ/R from
// 1e-3 to 0.2, either curve as A.
// - k > 0: the depth is δ within the spline's deviation (1e-6·R), at the circle's lowest point, normal ±y.
// - k = 0: the area of the circular segment S, and the depth 3·S/(2·2h) (h its half-chord): the spline's radial
//   deviation w (2.4e-7·R at 64 points) changes a shallow segment's area (4/3)·hδ by about 2hw, a relative
//   1.5·w/δ, so both within 5e-7/(δ/R) (measured 1.8e-4 at δ/R = 1e-3, 1.9e-5 at 1e-2); the centroid within 1e-6·R.
//   The area depth's ratio to δ, 1 + 1.0e-4 at δ = 1e-3·R, 1 + 1.0e-3 at 1e-2·R, 1.0 % at 0.1·R, is the parabola
//   argument of curve_contact_2d.h: 1 + O(δ/R).
TEST(CurveContact2d, CircleIntoAFlatLine) {
  constexpr double kRadius = 0.05, kOffsetX = 0.013;
  const SplineCurve2d ground = floorLine(0.2);
  for (double relativeDepth : {1e-3, 1e-2, 0.1, 0.2}) {
    const double delta = relativeDepth * kRadius;
    SCOPED_TRACE("delta/R = " + std::to_string(relativeDepth));
    const Vector2 centre(kOffsetX, kRadius - delta);
    const SplineCurve2d wheel = circle(centre, kRadius, 64);
    const Segment segment = circularSegment(kRadius, kRadius - delta);
    const Vector2 expectedCentroid(kOffsetX, kRadius - delta - segment.centroidFromCentre);
    const double areaDepth = 3 * segment.area / (4 * segment.halfChord);
    for (bool wheelIsA : {true, false}) {
      SCOPED_TRACE(wheelIsA ? "circle as A" : "line as A");
      const SplineCurve2d& a = wheelIsA ? wheel : ground;
      const SplineCurve2d& b = wheelIsA ? ground : wheel;
      const Vector2 up = wheelIsA ? Vector2(0, 1) : Vector2(0, -1);  // pushing A out of B
      const CurveContactResult deepest = curveContact(a, b, 1 / kRadius);
      ASSERT_EQ(deepest.status, CurveContactStatus::Contact);
      ASSERT_EQ(deepest.contacts.size(), 1u);
      EXPECT_NEAR(deepest.contacts[0].depth, delta, 1e-6 * kRadius);
      EXPECT_LT((deepest.contacts[0].normal - up).norm(), 1e-5);
      const Vector2 lowest(kOffsetX, -delta);
      EXPECT_LT(((wheelIsA ? deepest.contacts[0].pointOnA : deepest.contacts[0].pointOnB) - lowest).norm(),
                1e-5 * kRadius);
      const CurveContactResult byArea = curveContact(a, b, 0);
      ASSERT_EQ(byArea.status, CurveContactStatus::Contact);
      ASSERT_EQ(byArea.contacts.size(), 1u);
      const CurveContact2d& contact = byArea.contacts[0];
      EXPECT_NEAR(contact.area / segment.area, 1, 5e-7 / relativeDepth);
      EXPECT_NEAR(contact.depth / areaDepth, 1, 5e-7 / relativeDepth);
      EXPECT_LT((contact.centroid - expectedCentroid).norm(), 1e-6 * kRadius);
      EXPECT_LT((contact.normal - up).norm(), 1e-12);
    }
  }
}

}  // namespace
}  // namespace lodestone

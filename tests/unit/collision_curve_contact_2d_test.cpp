// MotionSolve's 2D curve contact on splines through points of circles, an ellipse and lines: the overlap region's
// area and centroid, and the contact of both contact_stability_2d modes, against closed forms derived by hand; the
// manual's rules as statuses.
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <utility>
#include <numbers>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "collision/curve_contact_2d.h"
#include "collision/narrow_phase.h"
#include "support/math_constants.h"

namespace lodestone {
namespace {


// `count` points of the ellipse with semi-axes a (along x) and b (along y) about `centre`, counter-clockwise.
std::vector<Vector2> ellipseOutline(double a, double b, int count, const Vector2& centre = Vector2::Zero()) {
  std::vector<Vector2> points;
  for (int k = 0; k < count; ++k) {
    const double angle = 2 * kPi * k / count;
    points.push_back(centre + Vector2(a * std::cos(angle), b * std::sin(angle)));
  }
  return points;
}

SplineCurve2d circle(const Vector2& centre, double radius, int count,
                     CurveMaterial material = CurveMaterial::Inside) {
  return SplineCurve2d(ellipseOutline(radius, radius, count, centre), true, material);
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
  const double area = ofA.area + ofB.area;
  const double x = (ofA.area * ofA.centroidFromCentre + ofB.area * (d - ofB.centroidFromCentre)) / area;
  return {area, Vector2(x, 0), ofA.halfChord, chordX};
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

// Where the spring matters: an ellipse (80 × 30 mm, 256 points) tilted by 0.4 rad, its lowest point δ = 4 mm into the
// line y = 0. Its deepest point is not below its centre, so the overlap's centroid is off to one side of it.
// By hand, with the ellipse x(θ) = C + R_β (a cos θ, b sin θ):
// - its height over its centre, a sin β cos θ + b cos β sin θ, is −A at its lowest, A = |(a sin β, b cos β)|, so
//   C_y = A − δ;
// - the overlap is the image under ξ = C + R_β diag(a, b) w of the unit disc's segment beyond the chord at
//   t = C_y/A from its centre in direction −ν, ν = (a sin β, b cos β)/A: area a·b·S and centroid the image of
//   −ν·2h³/(3S), S = acos t − t·h, h = √(1 − t²) (an affine map keeps centroids);
// - with c that centroid, Φ(θ) = −y(θ) − ½k|x(θ) − c|² is greatest where Φ'(θ) = −y'(θ) − k (x − c)·x'(θ) = 0,
//   found below by scanning θ and bisecting.
// The library's contact point (on the spline, maximising over its arc) against x(θ*), as measured (lengths / a):
//
//     k (1/m)   x*           point error   depth error
//     1e-4      −0.037374    2.7e-7        5.3e-9       (the lowest point, x = −0.037374)
//     1         −0.037171    7.7e-7        5.8e-9
//     10        −0.036132    1.8e-7        2.1e-9
//     100       −0.034878    5.8e-8        1.5e-9
//     1e4       −0.034577    8.3e-9        5.0e-9       (the arc's point nearest the centroid, x_c = −0.034651)
//
// The point is off by the spline's slope error over Φ's curvature (O(h³)), the depth only by its position error
// (O(h⁴): a maximum is flat); bounds 3e-6·a and 3e-8·a. The normal is +y, and the point moves monotonically
// towards the centroid's side as k grows.
TEST(CurveContact2d, TheSpringPullsTheDeepestPointTowardsTheCentroid) {
  constexpr double kA = 0.08, kB = 0.03, kTilt = 0.4, kDelta = 0.004;
  const Eigen::Matrix2d rotation = Eigen::Rotation2Dd(kTilt).toRotationMatrix();
  const double amplitude = std::hypot(kA * std::sin(kTilt), kB * std::cos(kTilt));
  const Vector2 centre(0.01, amplitude - kDelta);
  auto ellipseAt = [&](double theta) {
    return Vector2(centre + rotation * Vector2(kA * std::cos(theta), kB * std::sin(theta)));
  };
  auto slopeAt = [&](double theta) {
    return Vector2(rotation * Vector2(-kA * std::sin(theta), kB * std::cos(theta)));
  };
  std::vector<Vector2> points;
  for (int k = 0; k < 256; ++k) points.push_back(ellipseAt(2 * kPi * k / 256));
  const SplineCurve2d ellipse(points, true, CurveMaterial::Inside), ground = floorLine(0.3);

  const Vector2 nu = Vector2(kA * std::sin(kTilt), kB * std::cos(kTilt)) / amplitude;
  const double t = centre.y() / amplitude, half = std::sqrt(1 - t * t), segmentArea = std::acos(t) - t * half;
  const Vector2 unitCentroid = -nu * 2 * half * half * half / (3 * segmentArea);
  const Vector2 centroid = centre + rotation * Vector2(kA * unitCentroid.x(), kB * unitCentroid.y());
  const double lowestTheta = std::atan2(kB * std::cos(kTilt), kA * std::sin(kTilt)) + kPi;

  double previousX = ellipseAt(lowestTheta).x();
  for (double stability : {1e-4, 1.0, 10.0, 100.0, 1e4}) {  // 1/m: k·a from 8e-6 to 800
    SCOPED_TRACE("k = " + std::to_string(stability));
    auto phiSlope = [&](double theta) {
      return -slopeAt(theta).y() - stability * (ellipseAt(theta) - centroid).dot(slopeAt(theta));
    };
    // Φ' goes from + to − once over the arc below the line (Φ is concave there for these k).
    double low = lowestTheta - 1.2, high = lowestTheta + 1.2;
    while (ellipseAt(low).y() > 0) low += 1e-4;
    while (ellipseAt(high).y() > 0) high -= 1e-4;
    ASSERT_GT(phiSlope(low), 0);
    ASSERT_LT(phiSlope(high), 0);
    for (int iteration = 0; iteration < 100; ++iteration) {
      const double middle = 0.5 * (low + high);
      (phiSlope(middle) > 0 ? low : high) = middle;
    }
    const Vector2 expected = ellipseAt(0.5 * (low + high));

    const CurveContactResult result = curveContact(ellipse, ground, stability);
    ASSERT_EQ(result.status, CurveContactStatus::Contact);
    ASSERT_EQ(result.contacts.size(), 1u);
    const CurveContact2d& contact = result.contacts[0];
    EXPECT_NEAR(contact.area / (kA * kB * segmentArea), 1, 1e-6);
    EXPECT_LT((contact.centroid - centroid).norm(), 1e-7 * kA);
    EXPECT_LT((contact.pointOnA - expected).norm(), 3e-6 * kA);
    EXPECT_NEAR(contact.depth, -expected.y(), 3e-8 * kA);
    EXPECT_LT((contact.normal - Vector2(0, 1)).norm(), 1e-9);
    // Towards the centroid's side as k grows.
    EXPECT_GE((contact.pointOnA.x() - previousX) * (centroid.x() - ellipseAt(lowestTheta).x()), -1e-9);
    previousX = contact.pointOnA.x();
  }
  // k = 0: at the centroid, across the chord between the crossings θ = φ ± acos(−C_y/A) (φ = lowestTheta − π).
  const double phase = lowestTheta - kPi, spread = std::acos(-centre.y() / amplitude);
  const double chord = (ellipseAt(phase + spread) - ellipseAt(phase - spread)).norm();
  const CurveContactResult byArea = curveContact(ellipse, ground, 0);
  ASSERT_EQ(byArea.contacts.size(), 1u);
  EXPECT_NEAR(byArea.contacts[0].chord / chord, 1, 1e-7);
  EXPECT_NEAR(byArea.contacts[0].depth / (1.5 * kA * kB * segmentArea / chord), 1, 1e-6);
  EXPECT_LT((0.5 * (byArea.contacts[0].pointOnA + byArea.contacts[0].pointOnB) - centroid).norm(), 1e-7 * kA);
}

// A pin (r = 20 mm) in a hole (R = 25 mm, material outside: a bearing's bore), its centre 8 mm off the hole's, so it
// presses δ = 3 mm into the wall. The overlap is the pin less its lens with the hole's disc: area πr² − lens, and the
// centroid by moments. k > 0: depth δ at the pin's point (e + r, 0), normal −x (the hole's material pushes the pin
// back towards the hole's centre); k = 0: at that centroid, normal −x. Tolerances as for the lens (64 points)
// unless said.
TEST(CurveContact2d, PinPressedIntoTheWallOfAHole) {
  constexpr double kPinRadius = 0.02, kHoleRadius = 0.025, kOffset = 0.008;
  const SplineCurve2d pin = circle(Vector2(kOffset, 0), kPinRadius, 64);
  const SplineCurve2d hole = circle(Vector2::Zero(), kHoleRadius, 64, CurveMaterial::Outside);
  const Lens inside = lens(kHoleRadius, kPinRadius, kOffset);
  const double pinArea = kPi * kPinRadius * kPinRadius, area = pinArea - inside.area;
  const Vector2 centroid = (pinArea * Vector2(kOffset, 0) - inside.area * inside.centroid) / area;

  const CurveContactResult deepest = curveContact(pin, hole, 1 / kPinRadius);
  ASSERT_EQ(deepest.status, CurveContactStatus::Contact);
  ASSERT_EQ(deepest.contacts.size(), 1u);
  EXPECT_NEAR(deepest.contacts[0].depth, kOffset + kPinRadius - kHoleRadius, 1e-6 * kPinRadius);
  EXPECT_LT((deepest.contacts[0].pointOnA - Vector2(kOffset + kPinRadius, 0)).norm(), 1e-6 * kPinRadius);
  EXPECT_LT((deepest.contacts[0].normal - Vector2(-1, 0)).norm(), 1e-6);
  EXPECT_NEAR(deepest.contacts[0].area / area, 1, 3.3e-6);
  // Measured 1.6e-7·r: the centroid of a thin crescent moves farther for the same boundary error than a lens's.
  EXPECT_LT((deepest.contacts[0].centroid - centroid).norm(), 5e-7 * kPinRadius);

  const CurveContactResult byArea = curveContact(pin, hole, 0);
  ASSERT_EQ(byArea.contacts.size(), 1u);
  EXPECT_NEAR(byArea.contacts[0].depth / (1.5 * area / (2 * inside.halfChord)), 1, 1e-5);
  EXPECT_LT((byArea.contacts[0].normal - Vector2(-1, 0)).norm(), 1e-12);
}

// Two equal ellipses (a = 60 mm, b = 25 mm, 128 points) crossed at right angles: four crossings, one region with
// four corners and four arcs. Its area, 4·(∫₀^X b√(1 − x²/a²) dx + ∫_X^b a√(1 − x²/b²) dx) with X = ab/√(a² + b²)
// where the two meet, each integral the closed form ½·(s/r)·(x√(r² − x²) + r² asin(x/r)) of an ellipse's strip;
// its centroid at the centre by symmetry. Tolerances as for the lens at 128 points (2e-7 of the area, 4e-9·a).
TEST(CurveContact2d, CrossedEllipsesMakeOneRegionWithFourCorners) {
  constexpr double kA = 0.06, kB = 0.025;
  const SplineCurve2d a(ellipseOutline(kA, kB, 128), true, CurveMaterial::Inside);
  const SplineCurve2d b(ellipseOutline(kB, kA, 128), true, CurveMaterial::Inside);
  // ∫₀^x s·√(1 − t²/r²) dt.
  auto strip = [](double r, double s, double x) {
    return 0.5 * (s / r) * (x * std::sqrt(r * r - x * x) + r * r * std::asin(x / r));
  };
  const double meet = kA * kB / std::hypot(kA, kB);
  const double area = 4 * (strip(kA, kB, meet) + strip(kB, kA, kB) - strip(kB, kA, meet));
  const std::vector<OverlapRegion> regions = overlapRegions(a, b, a.crossings(b));
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].corners.size(), 4u);
  EXPECT_EQ(regions[0].boundary.size(), 4u);
  EXPECT_NEAR(regions[0].area / area, 1, 2e-7);
  EXPECT_LT(regions[0].centroid.norm(), 4e-9 * kA);
  const CurveContactResult result = curveContact(a, b, 0);
  ASSERT_EQ(result.contacts.size(), 1u);
  EXPECT_NEAR(result.contacts[0].chord, 2 * std::sqrt(2.0) * meet, 1e-7 * kA);  // a diagonal of the four corners
}

// A wavy ground, y = −22 + 6·cos(2πx/100) mm (an open curve of 121 points, material below), under a flat ellipse
// (a = 200 mm, b = 20 mm, 256 points) whose bottom its three crests poke into: three regions, three contacts.
// The middle crest, by symmetry under the ellipse's lowest point, goes δ = 20 − 16 = 4 mm deep at x = 0 (k > 0;
// within 1e-6·b). The outer ones against a reference taken on the analytic curves: the greatest distance of an
// ellipse point below the wave to the wave (4001 ellipse points over the crest; each distance by golden section on
// the wave's x), within 1e-7·b (measured 1.7e-8·b: the splines' deviation and the reference's sampling of a flat
// maximum). The spring is weak, k = 1e-3 /m: it moves the point by k·|x − c|/|pen''| (pen'' ≈ 24 /m, the crest's
// curvature less the ellipse's), under 1e-7 mm, so the reference is the unpulled maximum. (At k = 1/b = 50 /m,
// stronger than pen'', the outer depths come out 1.4e-7 m less: the spring at work.)
TEST(CurveContact2d, AWavyGroundMakesOneContactPerRegion) {
  constexpr double kA = 0.2, kB = 0.02;
  std::vector<Vector2> wave;
  for (int k = 0; k <= 120; ++k) {
    const double x = -0.15 + 0.3 * k / 120;
    wave.emplace_back(x, -0.022 + 0.006 * std::cos(2 * kPi * x / 0.1));
  }
  const SplineCurve2d ellipse(ellipseOutline(kA, kB, 256), true, CurveMaterial::Inside);
  const SplineCurve2d ground(wave, false, CurveMaterial::Right);
  const CurveContactResult result = curveContact(ellipse, ground, 1e-3);
  ASSERT_EQ(result.status, CurveContactStatus::Contact);
  ASSERT_EQ(result.contacts.size(), 3u);
  auto waveAt = [](double x) { return Vector2(x, -0.022 + 0.006 * std::cos(2 * kPi * x / 0.1)); };
  auto distanceToWave = [&](const Vector2& p) {
    double low = p.x() - 0.03, high = p.x() + 0.03;
    constexpr double kGolden = 0.6180339887498949;
    for (int iteration = 0; iteration < 80; ++iteration) {
      const double left = high - kGolden * (high - low), right = low + kGolden * (high - low);
      if ((waveAt(left) - p).norm() < (waveAt(right) - p).norm()) {
        high = right;
      } else {
        low = left;
      }
    }
    return (waveAt(0.5 * (low + high)) - p).norm();
  };
  double outerDepth = 0;
  for (int k = 0; k <= 4000; ++k) {  // the ellipse's bottom from x = 0.05 to 0.15
    const double x = 0.05 + 0.1 * k / 4000;
    const Vector2 p(x, -kB * std::sqrt(1 - x * x / (kA * kA)));
    if (p.y() < waveAt(x).y()) outerDepth = std::max(outerDepth, distanceToWave(p));
  }
  for (const CurveContact2d& contact : result.contacts) {
    EXPECT_GT(contact.area, 0);
    EXPECT_LT((contact.normal - Vector2(0, 1)).norm(), 0.2);  // the ground's normal near a crest
    if (std::fabs(contact.pointOnA.x()) < 0.01) {
      EXPECT_NEAR(contact.depth, 0.004, 1e-6 * kB);
      EXPECT_NEAR(contact.pointOnA.x(), 0, 1e-6 * kA);
    } else {
      EXPECT_NEAR(std::fabs(contact.pointOnA.x()), 0.1, 0.01);
      EXPECT_NEAR(contact.depth, outerDepth, 1e-7 * kB);
    }
  }
}

// A contact placed in ground through its plane's frame: points and normal rotated and shifted, the depth kept, so
// pointOnB = pointOnA + depth·normal still holds (within 1e-14 m: the foot point's residual, 2e-15 m in the plane, and
// rounding).
TEST(CurveContact2d, AContactInGroundThroughItsPlanesFrame) {
  const SplineCurve2d a = circle(Vector2::Zero(), 0.05, 64), b = circle(Vector2(0.07, 0), 0.03, 64);
  const CurveContactResult result = curveContact(a, b, 1);
  ASSERT_EQ(result.contacts.size(), 1u);
  Pose plane;
  plane.position = Vector3(1, 2, 3);
  plane.rotation = Eigen::AngleAxisd(0.3, Vector3(1, 2, 2).normalized()).toRotationMatrix();
  const ContactPoint point = contactPointInGround(result.contacts[0], plane);
  const CurveContact2d& contact = result.contacts[0];
  EXPECT_LT((point.pointOnA - plane.position - plane.rotation * Vector3(contact.pointOnA.x(), contact.pointOnA.y(), 0))
                .norm(), 1e-15);
  EXPECT_LT((point.normal - plane.rotation.col(0) * contact.normal.x() - plane.rotation.col(1) * contact.normal.y())
                .norm(), 1e-15);
  EXPECT_NEAR(point.normal.dot(plane.rotation.col(2)), 0, 1e-15);
  EXPECT_EQ(point.depth, contact.depth);
  EXPECT_LT((point.pointOnA + point.depth * point.normal - point.pointOnB).norm(), 1e-14);
}

// The area and centroid of a polygon (counter-clockwise), by the shoelace formula.
std::pair<double, Vector2> polygonAreaAndCentroid(const std::vector<Vector2>& polygon) {
  double twiceArea = 0;
  Vector2 moment = Vector2::Zero();
  for (size_t k = 0; k < polygon.size(); ++k) {
    const Vector2& p = polygon[k];
    const Vector2& q = polygon[(k + 1) % polygon.size()];
    const double cross = p.x() * q.y() - p.y() * q.x();
    twiceArea += cross;
    moment += cross * (p + q);
  }
  return {0.5 * twiceArea, moment / (3 * twiceArea)};
}

// Sutherland–Hodgman: the part of `subject` inside the convex counter-clockwise polygon `clip`.
std::vector<Vector2> clipByConvex(std::vector<Vector2> subject, const std::vector<Vector2>& clip) {
  for (size_t e = 0; e < clip.size() && !subject.empty(); ++e) {
    const Vector2 from = clip[e], edge = clip[(e + 1) % clip.size()] - from;
    auto inside = [&](const Vector2& p) { return edge.x() * (p - from).y() - edge.y() * (p - from).x() >= 0; };
    std::vector<Vector2> kept;
    for (size_t k = 0; k < subject.size(); ++k) {
      const Vector2 p = subject[k], q = subject[(k + 1) % subject.size()];
      if (inside(p)) kept.push_back(p);
      if (inside(p) != inside(q)) {
        const double sideP = edge.x() * (p - from).y() - edge.y() * (p - from).x();
        const double sideQ = edge.x() * (q - from).y() - edge.y() * (q - from).x();
        kept.push_back(p + (q - p) * (sideP / (sideP - sideQ)));
      }
    }
    subject = std::move(kept);
  }
  return subject;
}

// Random pairs of ellipses (semi-axes 20–60 mm, any rotation, centres up to 80 mm apart; 128 spline points each)
// against an independent reference: the two convex ellipses' overlap by clipping inscribed polygons of 512 and 1024
// vertices, extrapolated to infinitely many (Richardson on the polygons' 1/n² error). Pairs that cross give one
// region (two convex sets meet in one) whose area and centroid agree with the reference within 1e-9 m² and 1e-7 m
// (measured over the 29 crossing pairs: 1.6e-10 m² and 1.4e-8 m; the splines' deviation, 4e-7·a at 128 points, along
// the overlap's boundary, and what the extrapolation leaves of the polygons' error: the partly cut edges at the
// crossings, O(n⁻³)); pairs that do not cross are apart (the reference then finds no overlap or one ellipse inside
// the other). Crossings fall anywhere, seams included.
TEST(CurveContact2d, RandomEllipsePairsAgainstClippedPolygons) {
  std::mt19937 random(11);
  std::uniform_real_distribution<double> axis(0.02, 0.06), angle(0, 2 * kPi), offset(-0.08, 0.08);
  auto polygon = [](double a, double b, double rotation, const Vector2& centre, int count) {
    const Eigen::Matrix2d turn = Eigen::Rotation2Dd(rotation).toRotationMatrix();
    std::vector<Vector2> points;
    for (int k = 0; k < count; ++k) {
      const double t = 2 * kPi * k / count;
      points.push_back(centre + turn * Vector2(a * std::cos(t), b * std::sin(t)));
    }
    return points;
  };
  int crossed = 0;
  for (int trial = 0; trial < 40; ++trial) {
    const double a1 = axis(random), b1 = axis(random), r1 = angle(random);
    const double a2 = axis(random), b2 = axis(random), r2 = angle(random);
    const Vector2 centre2(offset(random), offset(random));
    SCOPED_TRACE("trial " + std::to_string(trial));
    const SplineCurve2d first(polygon(a1, b1, r1, Vector2::Zero(), 128), true, CurveMaterial::Inside);
    const SplineCurve2d second(polygon(a2, b2, r2, centre2, 128), true, CurveMaterial::Inside);
    auto reference = [&](int count) {
      return polygonAreaAndCentroid(
          clipByConvex(polygon(a1, b1, r1, Vector2::Zero(), count), polygon(a2, b2, r2, centre2, count)));
    };
    const std::vector<Vector2> clipped = clipByConvex(polygon(a1, b1, r1, Vector2::Zero(), 512),
                                                      polygon(a2, b2, r2, centre2, 512));
    const CurveContactResult result = curveContact(first, second, 0);
    if (result.status != CurveContactStatus::Contact) {
      EXPECT_EQ(result.status, CurveContactStatus::Apart);
      // Apart or nested: the reference overlap is nothing or a whole ellipse.
      if (!clipped.empty()) {
        const double overlap = polygonAreaAndCentroid(clipped).first;
        const double smaller = std::min(kPi * a1 * b1, kPi * a2 * b2);
        EXPECT_NEAR(overlap / smaller, 1, 1e-4);
      }
      continue;
    }
    ++crossed;
    ASSERT_EQ(result.contacts.size(), 1u);
    const auto [coarseArea, coarseCentroid] = reference(512);
    const auto [fineArea, fineCentroid] = reference(1024);
    const double area = (4 * fineArea - coarseArea) / 3;
    const Vector2 centroid = (4 * fineArea * fineCentroid - coarseArea * coarseCentroid) / (3 * area);
    const double areaError = std::fabs(result.contacts[0].area - area);
    const double centroidError = (result.contacts[0].centroid - centroid).norm();
    EXPECT_LT(areaError, 1e-9);
    EXPECT_LT(centroidError, 1e-7);
  }
  EXPECT_GE(crossed, 20);  // most pairs cross: the test is about them
}

// The manual's rules and the other ways of no contact, each with its own status.
TEST(CurveContact2d, RuleCasesReturnTheirStatus) {
  const SplineCurve2d disc = circle(Vector2::Zero(), 0.05, 32);
  // One crossing: a line ending at the disc's centre.
  const std::vector<Vector2> toCentre = {{-0.2, 0}, {-0.1, 0}, {0, 0}};
  const SplineCurve2d spoke(toCentre, false, CurveMaterial::Left);
  EXPECT_EQ(curveContact(spoke, disc, 1).status, CurveContactStatus::SingleCrossing);
  EXPECT_EQ(curveContact(disc, spoke, 0).status, CurveContactStatus::SingleCrossing);
  // Two straight lines, though they cross.
  const std::vector<Vector2> rising = {{-1, -1}, {1, 1}}, falling = {{-1, 1}, {0, 0}, {1, -1}};
  const SplineCurve2d lineA(rising, false, CurveMaterial::Left), lineB(falling, false, CurveMaterial::Right);
  const CurveContactResult straight = curveContact(lineA, lineB, 1);
  EXPECT_EQ(straight.status, CurveContactStatus::BothStraight);
  EXPECT_TRUE(straight.contacts.empty());
  EXPECT_STREQ(curveContactStatusName(straight.status), "both straight");
  // Apart, and one disc wholly inside the other: no crossing, no contact.
  EXPECT_EQ(curveContact(disc, circle(Vector2(0.2, 0), 0.05, 32), 1).status, CurveContactStatus::Apart);
  EXPECT_EQ(curveContact(disc, circle(Vector2(0.01, 0), 0.02, 32), 0).status, CurveContactStatus::Apart);
  // Two crossings that close no region: an arch whose two ends lie inside the disc leaves it and comes back.
  std::vector<Vector2> arch;
  for (int k = 0; k <= 8; ++k) {
    const double x = -0.03 + 0.06 * k / 8;
    arch.emplace_back(x, 0.08 * (1 - (x / 0.03) * (x / 0.03)));
  }
  const SplineCurve2d archCurve(arch, false, CurveMaterial::Right);
  EXPECT_EQ(archCurve.crossings(disc).size(), 2u);
  EXPECT_EQ(curveContact(archCurve, disc, 1).status, CurveContactStatus::NoClosedOverlap);
  // A line across the disc is a contact (one straight curve is allowed): the half-disc below it.
  const std::vector<Vector2> across = {{-0.2, 0}, {0.2, 0}};
  const CurveContactResult halfDisc = curveContact(SplineCurve2d(across, false, CurveMaterial::Right), disc, 0);
  ASSERT_EQ(halfDisc.status, CurveContactStatus::Contact);
  EXPECT_NEAR(halfDisc.contacts[0].area / (kPi * 0.05 * 0.05 / 2), 1, 1e-4);
}

// collide() on two Curve shapes whose planes are one plane tilted in ground, B's frame turned about A's z and
// shifted: discs of radii 1 and 0.8 whose centres are d apart touch 1.8 − d deep at the point of A nearest B's
// centre (maximum penetration), with the normal along the line of centres; apart, the gap is d − 1.8.
TEST(CurveContact2d, TwoCurveShapesThroughTheNarrowPhase) {
  const Shape discA = Shape::planeCurve(std::make_shared<SplineCurve2d>(circle(Vector2::Zero(), 1.0, 256)));
  const Shape discB = Shape::planeCurve(std::make_shared<SplineCurve2d>(circle(Vector2(0.3, 0), 0.8, 256)));
  const Matrix3 tilt = Eigen::AngleAxisd(0.7, Vector3(1, 2, 0.5).normalized()).toRotationMatrix();
  Pose poseA{Vector3(0.2, -0.4, 1.5), tilt * Eigen::AngleAxisd(0.4, Vector3::UnitZ()).toRotationMatrix()};
  for (const double d : {1.7, 1.75, 1.9, 2.3}) {
    // B's centre (its curve's (0.3, 0) in B's frame) at (d, 0) in A's frame: B turned 1.1 rad about A's z.
    const double turn = 1.1;
    const Eigen::Rotation2Dd inPlane(turn);
    const Vector2 originB = Vector2(d, 0) - inPlane * Vector2(0.3, 0);
    Pose poseB{poseA.position + poseA.rotation * Vector3(originB.x(), originB.y(), 0),
               poseA.rotation * Eigen::AngleAxisd(turn, Vector3::UnitZ()).toRotationMatrix()};
    std::vector<ContactPoint> points;
    const double signedDistance = collide(discA, poseA, discB, poseB, 10.0, points);
    const Vector3 towardsB = poseA.rotation * Vector3::UnitX();
    if (d >= 1.8) {
      EXPECT_NEAR(signedDistance, d - 1.8, 1e-9) << "d=" << d;
      EXPECT_TRUE(points.empty());
      continue;
    }
    ASSERT_EQ(points.size(), 1u) << "d=" << d;
    EXPECT_NEAR(signedDistance, -(1.8 - d), 1e-9);
    EXPECT_NEAR(points[0].depth, 1.8 - d, 1e-9);
    // Where the maximum is lies within about the square root of the depth's accuracy (the depth is flat there).
    EXPECT_NEAR((points[0].normal + towardsB).norm(), 0, 1e-6);
    EXPECT_NEAR((points[0].pointOnA - (poseA.position + towardsB)).norm(), 0, 1e-6);
    EXPECT_NEAR((points[0].pointOnB - (points[0].pointOnA + points[0].depth * points[0].normal)).norm(), 0, 1e-12);
    // Centroid mode: the depth from the lens's area is within a few per mille of the true depth this shallow.
    points.clear();
    ContactOptions centroidMode;
    centroidMode.curveStability = 0.0;
    collide(discA, poseA, discB, poseB, 10.0, points, centroidMode);
    ASSERT_EQ(points.size(), 1u);
    EXPECT_NEAR(points[0].depth / (1.8 - d), 1.0, 0.01);
  }
  // A curve never meets a solid (decks are refused that would pair them).
  std::vector<ContactPoint> points;
  EXPECT_EQ(collide(discA, poseA, Shape::sphere(1.0), poseA, 10.0, points), std::numeric_limits<double>::infinity());
  EXPECT_TRUE(points.empty());
}

// collideCurves keeps its last results per thread (a step asks for one pair at one state several times): asked again,
// in another order, with the other stability mode at the same placement, or for another curve at the same poses, it
// answers as a first call does, bit for bit.
TEST(CurveContact2d, AnswersAskedAgainAreTheAnswersOfAFirstCall) {
  const auto discOf = [](double radius) {
    return Shape::planeCurve(std::make_shared<SplineCurve2d>(circle(Vector2::Zero(), radius, 64)));
  };
  const Shape discA = discOf(1.0), discB = discOf(0.8), smallerB = discOf(0.5);
  // A at ground's origin, so that B's placement in A's plane is exactly (x, 0) unturned, as `direct` places it.
  const Pose poseA{Vector3::Zero(), Matrix3::Identity()};
  const auto poseB = [&](double x) { return Pose{Vector3(x, 0, 0), Matrix3::Identity()}; };
  struct Asked {
    const Shape* b;
    double x;
    std::optional<double> stability;
  };
  const std::vector<Asked> first{{&discB, 1.7, 10.0}, {&discB, 1.75, 10.0}, {&discB, 1.7, 0.0}, {&discB, 2.3, 10.0},
                                 {&smallerB, 1.7, 10.0}, {&discB, 1.7, std::nullopt}};
  // What each gives, computed from the curves directly (curveContact and curveGap, which keep nothing).
  const auto direct = [&](const Asked& asked) {
    const SplineCurve2d placedB = asked.b->curve->moved(Eigen::Matrix2d::Identity(), Vector2(asked.x, 0));
    const CurveContactResult result = curveContact(*discA.curve, placedB, asked.stability);
    std::vector<double> values;
    if (result.status != CurveContactStatus::Contact) return std::vector<double>{curveGap(*discA.curve, placedB)};
    for (const CurveContact2d& contact : result.contacts) values.push_back(contact.depth);
    return values;
  };
  const auto throughCollide = [&](const Asked& asked) {
    std::vector<ContactPoint> points;
    const double signedDistance = collideCurves(discA, poseA, *asked.b, poseB(asked.x), asked.stability, points);
    std::vector<double> values;
    if (points.empty()) return std::vector<double>{signedDistance};
    for (const ContactPoint& point : points) values.push_back(point.depth);
    return values;
  };
  std::vector<Asked> again = first;
  again.insert(again.end(), first.rbegin(), first.rend());
  again.insert(again.end(), first.begin(), first.end());
  for (size_t i = 0; i < again.size(); ++i) {
    EXPECT_EQ(throughCollide(again[i]), direct(again[i])) << "call " << i << ": x = " << again[i].x;
  }
  // The cases differ from one another, so an answer given for the wrong question would be seen.
  EXPECT_NE(direct(first[0]), direct(first[1]));
  EXPECT_NE(direct(first[0]), direct(first[2]));
  EXPECT_NE(direct(first[4]), direct(first[0]));
}

// The gap is continuous through the onset: just apart it is the distance, and as the curves begin to cross the
// signed distance turns negative through 0, for a pin nearing the wall of its bore from inside.
TEST(CurveContact2d, TheGapOfAPinInItsBoreReachesZeroAtTheWall) {
  const SplineCurve2d bore = circle(Vector2::Zero(), 1.0, 128, CurveMaterial::Outside);
  for (const double offset : {0.0, 0.05, 0.09, 0.0999, 0.1001, 0.12}) {
    const SplineCurve2d pin = circle(Vector2(offset, 0), 0.9, 128);
    if (offset < 0.1) {
      EXPECT_NEAR(curveGap(pin, bore), 0.1 - offset, 2e-8) << "offset " << offset;
    } else {
      const CurveContactResult result = curveContact(pin, bore, std::nullopt);
      ASSERT_EQ(result.contacts.size(), 1u);
      EXPECT_NEAR(result.contacts[0].depth, offset - 0.1, 2e-8);
      EXPECT_NEAR(result.contacts[0].normal.x(), -1, 1e-6);  // back towards the bore's middle
    }
  }
}

}  // namespace
}  // namespace lodestone

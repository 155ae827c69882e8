// A smooth plane curve through given points, as MotionSolve's 2D curve contact sees a Post_Graphic curve: "a smooth
// representation of the specified curves which is independent of the nseg" (Force_Contact, "Using a 2D
// representation"). The curve lives in the xy plane of its graphic's reference marker; collision/curve_contact_2d.h
// intersects two of them and finds their contact.
#pragma once

#include <array>
#include <span>
#include <vector>

#include <Eigen/Core>

namespace lodestone {

using Vector2 = Eigen::Vector2d;

// Which side of a curve its body's material lies on. A closed curve bounds its material from inside (a cam, a pin)
// or from outside (a hole, a bearing's bore); an open curve (a track, a ground profile) has material on the left or
// the right of the direction in which its points run.
enum class CurveMaterial { Inside, Outside, Left, Right };

// A point of a curve, found by a query.
struct CurvePoint {
  double parameter = 0;               // where on the curve (SplineCurve2d::parameter range)
  Vector2 position = Vector2::Zero();
  double distance = 0;                // from the query point: > 0 outside the material, < 0 inside it
};

// Where two curves cross. `entersOther` is true where the first curve passes into the second's material there
// (the first curve's tangent points against the second's outward normal).
struct CurveCrossing {
  double parameterA = 0, parameterB = 0;
  Vector2 position = Vector2::Zero();
  bool entersOther = false;
};

// A C² cubic spline through the points, parameterised by the chord lengths between them.
//
// Why chord length: Floater ("Chordal cubic spline interpolation is fourth order accurate", IMA J. Numer. Anal. 26,
// 2006) proves that the chordal C² spline converges to a smooth curve at O(h⁴) however the points are spaced, while a
// uniform parameter drops to O(h²) where the spacing is irregular; centripetal parameters have no such bound (they
// earn their keep against cusps and loops in Catmull–Rom splines through wildly uneven points, which a contact
// profile drawn from a CAD curve is not; on the smoothly spaced points of the tests they did about as well: 8.9e-9
// against chordal 6.6e-9 on an open ellipse arc of 256 points). Chord length also makes |dP/du| ≈ 1, so u is nearly
// arc length and every tolerance on u below is a length.
//
// Closed curves (a flag, or the first point repeated as the last) are periodic splines: C² at the seam as
// everywhere. Open curves take not-a-knot ends, so that an arc given as an open curve keeps O(h⁴) up to its ends,
// where a natural spline would force zero curvature (an O(h²) error over the last segments); three points give the
// parabola through them, two a straight line.
//
// Why not Boost.Math's interpolators: cardinal_cubic_b_spline needs uniformly spaced abscissae and has no periodic
// form; makima and pchip are C¹ only, and cubic_hermite wants the derivatives given. A chord-length parametric
// curve has non-uniform knots, and a closed one must be periodic.
//
// The parameter u runs over [0, length()) for a closed curve (wrapping round) and [0, length()] for an open one;
// length() is the polygon's length through the points, close to but not exactly the arc length. The curve is
// oriented so that its material lies on its left: a closed curve with material inside runs counter-clockwise, and
// the points of an open curve with material on the right are taken in reverse order. normal() points away from
// the material.
class SplineCurve2d {
 public:
  // Throws std::invalid_argument for fewer than two distinct points (three for a closed curve), two equal
  // consecutive points, or a material side that does not fit (Inside/Outside for an open curve, Left/Right for a
  // closed one).
  SplineCurve2d(std::span<const Vector2> points, bool closed, CurveMaterial material);

  bool closed() const { return closed_; }
  double length() const { return knots_.back(); }
  int segmentCount() const { return static_cast<int>(coefficients_.size()); }
  // Knot k is where segment k begins; knot segmentCount() is length().
  double knot(int k) const { return knots_[k]; }
  // The points as the spline runs through them (reversed where the orientation asked for it), without a closed
  // curve's repeated point.
  const std::vector<Vector2>& points() const { return points_; }
  // True when all the points lie on one straight line (within 1e-9 of the curve's extent): MotionSolve's rule that
  // two straight lines make no contact needs to know.
  bool straight() const { return straight_; }
  // The smallest axis-aligned box holding the curve (its segments' Bézier control points, which hold each segment).
  Vector2 boundsMin() const { return boundsMin_; }
  Vector2 boundsMax() const { return boundsMax_; }

  // u wrapped into [0, length()) for a closed curve, clamped to [0, length()] for an open one.
  double wrap(double u) const;
  Vector2 position(double u) const;
  Vector2 derivative(double u) const;        // dP/du, |dP/du| ≈ 1
  Vector2 secondDerivative(double u) const;  // d²P/du²
  Vector2 tangent(double u) const;           // unit, in the direction of increasing u
  Vector2 normal(double u) const;            // unit, outward: away from the material (the tangent turned clockwise)
  double curvature(double u) const;          // signed: > 0 where the curve bends towards its material (a convex body)

  // The nearest point of the curve to `point` (the global minimum of the distance, each segment's candidates found
  // by safeguarded Newton on (P(u) − point)·P'(u) = 0, bracketed between samples), with the signed distance.
  CurvePoint closest(const Vector2& point) const;
  // Every point where this curve crosses `other` (tangential touches, which cross nowhere, need not be found), in
  // increasing parameter along this curve. Candidate pairs of segments whose Bézier control polygons' boxes overlap
  // are subdivided until both pieces are flat, their chords' crossing starts Newton on P(u) = Q(v).
  std::vector<CurveCrossing> crossings(const SplineCurve2d& other) const;

  // The same curve moved rigidly: rotated by `rotation` (a proper rotation, det = +1) about the origin, then shifted
  // by `translation`. A chord-length spline moves with its points (the knots are distances, the system is linear in
  // the points), so this is the spline of the moved points without solving again: how a contact evaluator places a
  // body's curve, defined in its graphic's reference marker, into the plane of the contact at each step.
  SplineCurve2d moved(const Eigen::Matrix2d& rotation, const Vector2& translation) const;

  // Segment k's Bézier control points (the convex hull property bounds the segment by them).
  std::array<Vector2, 4> bezier(int k) const;
  // The segment holding u (u already wrapped or clamped).
  int segmentOf(double u) const;

 private:
  void updateBounds();  // the tree and the bounds, from the coefficients
  int buildTree(int firstSegment, int endSegment);

  struct Cubic {  // P(u) = c0 + c1·t + c2·t² + c3·t³, t = u − knot
    Vector2 c0, c1, c2, c3;
  };
  std::vector<Vector2> points_;
  std::vector<double> knots_;
  std::vector<Cubic> coefficients_;
  // A binary tree of boxes over runs of consecutive segments (neighbours along a curve are neighbours in the plane),
  // so that a closest point or the crossings visit O(log n) boxes rather than every segment: what keeps a contact
  // evaluation on curves of hundreds of points cheap enough for every residual.
  struct BoxNode {
    Vector2 low, high;
    int firstSegment, endSegment;   // the segments [first, end)
    int lowerChild, upperChild;     // node indices; −1 for a leaf (one segment)
  };
  std::vector<BoxNode> tree_;  // the root first
  bool closed_ = false;
  bool straight_ = false;
  Vector2 boundsMin_ = Vector2::Zero(), boundsMax_ = Vector2::Zero();
};

}  // namespace lodestone

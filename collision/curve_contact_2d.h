// MotionSolve's 2D curve–curve contact (Force_Contact between curve graphics, "Using a 2D representation" and
// contact_stability_2d): where two curves placed in one plane overlap, the overlap regions, and for each region one
// contact — its point, normal and depth — in either of MotionSolve's two modes.
//
// Both curves must already be in one frame of that plane (SplineCurve2d::moved places a body's curve). Curve A is
// on body I, curve B on body J, as ContactPoint's shapes A and B: the normal pushes A out of B and
// pointOnB = pointOnA + depth·normal. A Force_Contact with several curves per body calls this once per pair (I, J).
#pragma once

#include <optional>
#include <vector>

#include "contact_point.h"
#include "curve2d.h"
#include "shape.h"

namespace lodestone {

// A stretch of one of the two curves, along its own direction from parameter `from` to `to` (for a closed curve
// `to` < `from` wraps through the seam).
struct CurveArc {
  bool onA = true;  // on curve A, else on curve B
  double from = 0, to = 0;
};

// One connected region where the two materials overlap: its boundary runs counter-clockwise through arcs of A
// (where A lies inside B's material) and of B (inside A's), which meet at the crossings.
struct OverlapRegion {
  std::vector<CurveArc> boundary;
  std::vector<Vector2> corners;  // the crossings on its boundary, in order round it
  double area = 0;                // Green's theorem along the boundary, > 0
  Vector2 centroid = Vector2::Zero();
};

// The overlap regions of the two materials, from the crossings of A with B (as a.crossings(b) returns them). Arcs
// that would run past an open curve's end close no region, and a loop enclosing negative area (the outside of two
// holes) is no region, so neither is returned. Each boundary integral is taken with adaptive Gauss–Kronrod
// (solver/core/quadrature.h) between consecutive knots, where the spline is one polynomial.
std::vector<OverlapRegion> overlapRegions(const SplineCurve2d& a, const SplineCurve2d& b,
                                          const std::vector<CurveCrossing>& crossings);

// What curveContact found, by MotionSolve's rules.
enum class CurveContactStatus {
  Contact,          // one contact per overlap region
  Apart,            // no crossing: apart, or one curve wholly inside the other's material (MotionSolve's contact needs
                    // intersection points, so neither touches)
  SingleCrossing,   // one crossing only: "the curve contact algorithm requires there to be at least two points of
                    // intersection"
  NoClosedOverlap,  // crossings, but no region closes between them (an open curve ends inside the other's material)
  BothStraight,     // "no contact between two bodies that are represented only by straight lines"
};
const char* curveContactStatusName(CurveContactStatus status);  // "single crossing"

// One contact of a region (all in the plane's frame).
struct CurveContact2d {
  Vector2 pointOnA = Vector2::Zero();
  Vector2 pointOnB = Vector2::Zero();  // = pointOnA + depth·normal
  Vector2 normal = Vector2::UnitX();   // unit, pushes A out of B
  double depth = 0;
  double area = 0;                     // the region's
  Vector2 centroid = Vector2::Zero();  // the region's
  double chord = 0;                    // the distance between the region's two farthest crossings
};

struct CurveContactResult {
  CurveContactStatus status = CurveContactStatus::Apart;
  std::vector<CurveContact2d> contacts;  // one per overlap region, empty unless status is Contact
};

// The contacts of curve A (body I) with curve B (body J), with contact_stability_2d = `stability`; without it (the
// attribute left out), the point of maximum penetration, k = 0 below.
//
// stability k > 0 — the deepest point, held by a spring towards the centroid. Along the region's arcs of A (the
// part of A inside B), with x(u) the point of A, pen(u) ≥ 0 its distance to B (its penetration, measured to its
// nearest point y(u) of B) and c the region's centroid, the contact point maximises
//     Φ(u) = pen(u) − ½·k·|x(u) − c|²,
// i.e. minimises the energy −pen + ½k|x − c|² of a point pushed deeper with unit force and tied to the centroid by a
// spring of stiffness k (units 1/length, the spring's force per unit offset relative to that unit push). k → 0⁺ gives
// MotionSolve's "point of maximum penetration" (where a flat bottom makes it not unique, the spring picks the one
// nearest the centroid); a large k pulls it towards the arc's point nearest the centroid. There pointOnA = x(u),
// pointOnB = y(u), the normal is B's outward normal at y(u) and the depth pen(u) = |x − y|. Φ' = −x'·n_B(y) −
// k (x − c)·x' (the distance's derivative by the envelope theorem), so the maximum is found by bracketing a sign
// change of Φ' between samples and refining it (Illinois regula falsi).
//
// stability 0 — the centroid, with a depth from the area. The contact acts at the region's centroid c; the normal
// is perpendicular to the chord between the region's two (farthest) crossings, pointing out of B; the depth is
//     depth = 3·area / (2·chord).
// Why 3/2: where two smooth curves overlap shallowly, the overlap's thickness across the chord is a parabola,
// h(s) = δ − κ s²/2 (κ the sum of their curvatures, s along the chord, δ the greatest thickness) vanishing at the
// crossings s = ±a, so δ = κa²/2 and area = ∫ h ds over [−a, a] = 2aδ − κa³/3 = (4/3)·aδ. The chord is 2a, so
// area/chord = (2/3)·δ and 3·area/(2·chord) → δ as the overlap gets shallow: the same depth the other mode and every
// other contact in Lodestone give, so a law's stiffness means the same in both modes. For deeper overlaps of
// circles it is slightly more than δ (a circular segment is fuller than the parabola through its chord and apex):
// 0.1 % at δ = 0.01·R of a circle on a line, 1.0 % at δ = 0.1·R. MotionSolve's own area depth "usually slightly
// underestimates" (its manual); its formula is not published. pointOnA = c − ½·depth·normal and
// pointOnB = c + ½·depth·normal, so the force acts at the centroid.
CurveContactResult curveContact(const SplineCurve2d& a, const SplineCurve2d& b, std::optional<double> stability);

// The gap between two curves that do not cross: the least distance from a point of one to the other (≥ 0; for a
// curve wholly inside the other's material, its distance to that material's edge). Candidates at the knots and the
// segments' middles of both curves, the best refined by Brent's minimisation over its neighbouring segments, so the
// gap is continuous as the curves move and reaches 0 where they begin to cross: the signed distance root finding
// locates onsets with.
double curveGap(const SplineCurve2d& a, const SplineCurve2d& b);

// curveContact between two Curve shapes placed in ground, as collide() has it (collision/narrow_phase.h): B's curve is
// carried into A's plane (its shape frame's xy plane; B's frame turned about A's z by the relative turn's in-plane
// part, its origin projected, so a plane tilted out of A's by a loose joint is laid into it), the contacts are
// appended in ground with normals from B to A, and the signed distance returned: −(the deepest contact's depth) while
// they overlap, curveGap while apart.
double collideCurves(const Shape& a, const Pose& poseA, const Shape& b, const Pose& poseB,
                     std::optional<double> stability, std::vector<ContactPoint>& points);

// A contact of the plane whose frame in ground is `plane` (its x and y axes span the plane; the curves' coordinates
// are in it) as the ContactPoint every law reads: points and normal in ground, one point carrying its whole patch
// (share 1). Its `area` stays 0 (unknown): the region's area is a cross-section of the overlap, not the area of a
// contact patch, and whether a law should see it is the contact element's choice (CurveContact2d keeps it).
ContactPoint contactPointInGround(const CurveContact2d& contact, const Pose& plane);

}  // namespace lodestone

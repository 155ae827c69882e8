// Force and torque on a uniformly magnetised target in any source's field: the force on the target's magnetic surface
// charge σ = M·n, integrated over its charged faces (rectangles, discs, triangles, an ellipsoid's curved octants or a
// cylinder's or a frustum's mantle quarters) by adaptive Gauss–Legendre quadrature. The cuboid's, the cylinder's, the
// frustum's, the ellipsoid's and the polyhedron's interactions (cuboid_force.h, cylinder_force.h, frustum_force.h,
// ellipsoid_force.h, polyhedron_force.h) are this with their own faces. Exact for the surface-charge model, which for
// rigid, uniformly magnetised bodies gives the same total force and torque as the Amperian-current model.
#pragma once

#include <functional>
#include <vector>

#include "magnetics/cuboid_field.h"

namespace lodestone {

// H (A/m) of the source at a point (m), both in the source's axes.
using SourceField = std::function<Vector3(const Vector3&)>;

// The target's centre and axes (the columns of `rotation`) in the source's axes.
struct MagnetPose {
  Matrix3 rotation = Matrix3::Identity();
  Vector3 position = Vector3::Zero();  // m
};

struct MagnetInteraction {
  Vector3 force = Vector3::Zero();   // N, on the target, in the source's axes
  Vector3 torque = Vector3::Zero();  // N·m, on the target about its centre, in the source's axes
  double errorEstimate = 0;          // of |δF| + |δT|/ℓ, ℓ the target's torque length (see below), N
  long fieldEvaluations = 0;
  bool converged = true;  // false when the panel budget ran out first; the result is then the best one found
};

// A flat face of the target carrying the uniform charge σ, in the source's axes, relative to the target's centre. A
// rectangle is centre + s·halfU + t·halfV, s and t in [−1, 1]; a disc is centre + q·(cos θ·halfU + sin θ·halfV), q in
// [0, 1], θ in [0, 2π], halfU ⟂ halfV both of the disc's radius. A triangle has the corners centre, centre + halfU and
// centre + halfV (for it the names mean a corner and the two edges from it) and is the square collapsed onto it
// (Duffy's map): centre + a·((1 − b)·halfU + b·halfV), a and b in [0, 1], dS = |halfU × halfV|·a·da·db. The factor a
// vanishes at the corner the side a = 0 collapses onto, so a field smooth over the triangle stays a smooth integrand,
// and a panel [a0, a1] × [b0, b1] halves like a rectangle's.
//
// A curved face's charge σ = M·n varies with its normal n: it carries the target's magnetisation instead, and σ·dS =
// M·(r_s × r_t)·ds·dt is taken at each quadrature point (a flat face's uniform σ stays a factor outside its sums, so
// its results are those it always had, bit for bit). An ellipsoid's octant is
// centre + sin θ·(cos φ·halfU + sin φ·halfV) + cos θ·halfW, θ and φ in [0, π/2]: the signs of the three semi-axis
// vectors pick the octant, and its normal is taken outward whichever way they turn. Its pole (θ = 0) is a side
// collapsed onto a point, as a disc's centre is: dS ∝ sin θ vanishes there and the integrand stays smooth in (θ, φ),
// so the pole costs no convergence. A cylinder's mantle quarter is centre + cos φ·halfU + sin φ·halfV + τ·halfW, φ in
// [0, π/2] and τ in [−1, 1], likewise picked by the signs and taken outward. A frustum's mantle quarter is a tapered
// one: centre + (1 + taper·τ)·(cos φ·halfU + sin φ·halfV) + τ·halfW, halfU and halfV of the radius halfway along; a
// taper of ±1 is a cone, whose apex (radius 0) is a side collapsed onto a point as the ellipsoid's pole is.
struct ChargedFace {
  enum class Shape { kRectangle, kDisc, kTriangle, kEllipsoidOctant, kMantleQuarter };
  Shape shape = Shape::kRectangle;
  Vector3 centre = Vector3::Zero(), halfU = Vector3::Zero(), halfV = Vector3::Zero();
  double charge = 0;                        // a flat face's σ = M·n, A/m
  Vector3 halfW = Vector3::Zero();          // a curved face's third axis
  double taper = 0;                         // a mantle quarter's radius slope along τ, relative to its middle's
  Vector3 magnetisation = Vector3::Zero();  // a curved face's M, A/m, in the source's axes
};

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the faces (H: the source's field, c: the target's centre at
// `targetCentre`), the target's magnetisation staying uniform. Each face is cut into panels, each integrated by a 7×7
// Gauss–Legendre rule (over a disc: radius × angle; over a triangle: a × b of its collapsed square; over an octant:
// θ × φ; over a mantle quarter: φ × τ); the panel whose rule differs most from the sum of its two halves' is split,
// until those differences add up to at most relativeAccuracy·(|F| + |T|/ℓ). The differences estimate the error of the
// coarser rules; the result is the finer ones. ℓ = torqueLength, the target's size, weighs torque against force.
//
// `layout`, when given, keeps the panels the integration ended with; with `layout->reuse` set, the integration
// does not adapt but takes those panels as they are (each the sum of its two halves' rules, as at the end of the
// adaptive integration, so the same pose gives the same bits). A magnet pair's Jacobian differences its force over
// moves of 1e-8 of its size: panels chosen afresh for each move would put the quadrature's error, up to the accuracy
// asked for, into those differences. A reused layout's errorEstimate is that of the integration which made it.
struct QuadraturePanel {
  int face = 0;
  double s0 = -1, s1 = 1, t0 = -1, t1 = 1;
  bool acrossS = true;  // which way its halves are cut
};
struct QuadratureLayout {
  std::vector<QuadraturePanel> panels;
  double errorEstimate = 0;
  bool reuse = false;
};
MagnetInteraction chargedSurfaceInteraction(const SourceField& source, const Vector3& targetCentre,
                                            const std::vector<ChargedFace>& faces, double torqueLength,
                                            double relativeAccuracy, QuadratureLayout* layout = nullptr);

}  // namespace lodestone

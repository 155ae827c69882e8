// Force and torque on a uniformly magnetised ellipsoid in any source's field: the force on its surface charge
// σ = M·n, which varies over it, integrated over its eight octants in (θ, φ) by adaptive Gauss–Legendre quadrature
// (surface_charge_force.h).
#pragma once

#include "magnetics/ellipsoid_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's surface (c: its centre, placed with its axes by
// `pose` in the source's axes), in the source's axes. ℓ = the largest semi-axis weighs torque against force in the
// accuracy asked for, relativeAccuracy·(|F| + |T|/ℓ). The magnets must not overlap.
//
// Accuracy (the estimate is not a bound; surface_charge_force.h says how it is made): an ellipsoid 6 × 4 × 3 mm
// 0.1 mm to 100 mm above a 20 mm cube, asking 1e-8, gave |δF|/|F| ≤ 8.2e-10 and |δT|/|T| ≤ 9.0e-10 against the
// cube's field integrated over the ellipsoid's volume, F = μ0 ∫ (M·∇)H dV, for 2.0k–4.7k field evaluations, the most
// at 0.1 mm (tests/unit/magnetics_ellipsoid_force_test.cpp).
MagnetInteraction ellipsoidInteraction(const SourceField& source, const Ellipsoid& target, const MagnetPose& pose,
                                       double relativeAccuracy = 1e-8);
// The target's eight charged octants placed by `pose`, and its torque length ℓ: what ellipsoidInteraction integrates
// over, for callers that keep a quadrature layout (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Ellipsoid& target, const MagnetPose& pose);
double torqueLength(const Ellipsoid& target);

}  // namespace lodestone

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
// Accuracy: against the source's field integrated over the ellipsoid's volume, F = μ0 ∫ (M·∇)H dV, see
// tests/unit/magnetics_ellipsoid_force_test.cpp.
MagnetInteraction ellipsoidInteraction(const SourceField& source, const Ellipsoid& target, const MagnetPose& pose,
                                       double relativeAccuracy = 1e-8);
// The target's eight charged octants placed by `pose`, and its torque length ℓ: what ellipsoidInteraction integrates
// over, for callers that keep a quadrature layout (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Ellipsoid& target, const MagnetPose& pose);
double torqueLength(const Ellipsoid& target);

}  // namespace lodestone

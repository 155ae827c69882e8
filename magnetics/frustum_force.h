// Force and torque on a uniformly magnetised frustum (a cone cut square to its axis, or a whole cone) in any source's
// field: the force on its end discs' charge σ = ±M_z and on its mantle's σ = M·n — charged by the axial part of M as
// well, the mantle leaning — integrated over its discs in polar coordinates and its mantle's four tapered quarters in
// (φ, τ) by adaptive Gauss–Legendre quadrature (surface_charge_force.h).
#pragma once

#include <vector>

#include "magnetics/frustum_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's charged surface (c: the origin of its axes, placed
// by `pose` in the source's axes), in the source's axes. ℓ = √(R_max² + (h/2)²), h its height, weighs torque against
// force in the accuracy asked for. The magnets must not overlap.
//
// Accuracy: tests/unit/magnetics_frustum_force_test.cpp measures it against a cube's field integrated over the
// frustum's volume.
MagnetInteraction frustumInteraction(const SourceField& source, const Frustum& target, const MagnetPose& pose,
                                     double relativeAccuracy = 1e-8);
// The target's charged end discs (those of non-zero radius, if M_z ≠ 0) and mantle quarters (if the mantle is charged)
// placed by `pose`, and its torque length ℓ: what frustumInteraction integrates over, for callers that keep a
// quadrature layout (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Frustum& target, const MagnetPose& pose);
double torqueLength(const Frustum& target);

}  // namespace lodestone

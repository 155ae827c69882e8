// Force and torque on a uniformly magnetised cylinder in any source's field (another cylinder, a cuboid): the force on
// its end discs' charge σ = ±M_z in the source's closed-form field, integrated over the discs in polar coordinates, and
// on its mantle's σ = M·n from the diametral part (none when magnetised along its axis), over its four quarters in
// (φ, z), by adaptive Gauss–Legendre quadrature (surface_charge_force.h).
#pragma once

#include "magnetics/cylinder_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's charged surface (c: its centre, placed with its axes
// by `pose` in the source's axes), in the source's axes; the magnetisation stays uniform. ℓ = √(R² + L²) weighs torque
// against force in the accuracy asked for, relativeAccuracy·(|F| + |T|/ℓ). The magnets must not overlap.
//
// Accuracy (the estimate is not a bound; surface_charge_force.h says how it is made): between two 20 mm × 20 mm
// cylinders 0.1 mm to 100 mm apart on one axis, asking 1e-6, 1e-8, 1e-10 gave |δF|/|F| ≤ 3.5e-9, 5.7e-11, 2.1e-13
// against the force from the discs' Hankel transforms, for 0.5k–2.5k, 0.9k–3.2k, 1.3k–6.0k field evaluations (≈ 0.4 µs
// each), the most at 0.1 mm (tests/unit/magnetics_cylinder_force_test.cpp). Magnetised across its axis (and
// obliquely), a cylinder 10 mm across 0.1 mm to 100 mm above a 20 mm cube, asking 1e-8: ≤ 2.6e-10 in force and
// 2.1e-10 in torque against the cube's field integrated over its volume, for 1.0k–4.6k field evaluations.
MagnetInteraction cylinderInteraction(const SourceField& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);
// The target's charged end discs (if M_z ≠ 0) and mantle quarters (if magnetised across its axis) placed by `pose`,
// and its torque length ℓ: what cylinderInteraction integrates over, for callers that keep a quadrature layout
// (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Cylinder& target, const MagnetPose& pose);
double torqueLength(const Cylinder& target);
MagnetInteraction cylinderInteraction(const Cylinder& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);
MagnetInteraction cylinderInteraction(const Cuboid& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);

}  // namespace lodestone

// Force and torque on an axially magnetised cylinder in any source's field (another cylinder, a cuboid): the force on
// its end discs' charge σ = ±M in the source's closed-form field, integrated over the discs in polar coordinates by
// adaptive Gauss–Legendre quadrature (surface_charge_force.h). The mantle carries no charge (M·n = 0 there).
#pragma once

#include "magnetics/cylinder_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's end discs (c: its centre, placed with its axes by
// `pose` in the source's axes), in the source's axes; the magnetisation stays uniform. ℓ = √(R² + L²) weighs torque
// against force in the accuracy asked for, relativeAccuracy·(|F| + |T|/ℓ). The magnets must not overlap.
MagnetInteraction cylinderInteraction(const SourceField& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);
MagnetInteraction cylinderInteraction(const Cylinder& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);
MagnetInteraction cylinderInteraction(const Cuboid& source, const Cylinder& target, const MagnetPose& pose,
                                      double relativeAccuracy = 1e-8);

}  // namespace lodestone

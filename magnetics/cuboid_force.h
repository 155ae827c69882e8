// Force and torque between two uniformly magnetised cuboids in any relative pose, or on a cuboid in any source's field:
// the force on the target's surface charge σ = M·n in the source's closed-form field (cuboid_field.h), integrated over
// the target's faces by adaptive Gauss–Legendre quadrature (surface_charge_force.h). Exact for the surface-charge
// model, which for rigid, uniformly magnetised bodies gives the same total force and torque as the Amperian-current
// model.
#pragma once

#include "magnetics/cuboid_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's faces (H: the source's field, c: the target's
// centre), the target's magnetisation staying uniform (rigid magnets, no induced magnetisation); ℓ = |target's
// half-extents| weighs torque against force. The cuboids must not overlap; a gap of zero makes the integrand singular
// on the touching edges and convergence slow.
//
// Accuracy (how it is estimated: surface_charge_force.h; the estimate is not a bound, but in every case measured the
// error was below the accuracy asked for): between two 0.1 m cubes 0.1 mm to 150 mm apart, coaxial or offset, asking
// 1e-4, 1e-6, 1e-8, 1e-10 gave |δF|/|F| ≤ 8.3e-5, 1.7e-7, 1.1e-9, 2.6e-11 against Akoun & Yonnet's closed form, for
// 0.5k–41k, 0.5k–77k, 0.5k–107k, 0.5k–130k field evaluations (≈ 0.5 µs each), the most at 0.1 mm
// (tests/unit/magnetics_cuboid_force_test.cpp, tests/benchmark/magnet_cuboid_benchmark.cpp).
// A floor: far from a source its field keeps fewer digits (relative round-off 2e-10 at 1000 sizes, 4e-8 at 10⁴), so
// a target thousands of times larger than the source may not reach every accuracy; `converged` then says so. A 1 mm
// cube over a 200 mm plate reaches 1e-9 either way round.
MagnetInteraction cuboidInteraction(const Cuboid& source, const Cuboid& target, const MagnetPose& pose,
                                    double relativeAccuracy = 1e-8);

// The target's charged faces (those with M·n ≠ 0) placed by `pose`, and its torque length ℓ: what cuboidInteraction
// integrates over, for callers that keep a quadrature layout (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Cuboid& target, const MagnetPose& pose);
double torqueLength(const Cuboid& target);

// The same with any source (a cylinder, say): `source` gives its H in its own axes, in which `pose` places the target.
MagnetInteraction cuboidInteraction(const SourceField& source, const Cuboid& target, const MagnetPose& pose,
                                    double relativeAccuracy = 1e-8);

}  // namespace lodestone

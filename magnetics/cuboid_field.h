// The H field of a uniformly magnetised cuboid in closed form: the field of the magnetic surface charge σ = M·n on
// its faces (Furlani, "Permanent Magnet and Electromechanical Devices", 2001, §4.3; Akoun & Yonnet 1984).
#pragma once

#include <numbers>

#include "solver/core/rotation.h"

namespace lodestone {

// μ0 in SI units. We use the pre-2019 exact 4π·10⁻⁷ H/m, as the DIPOLE law does (REFERENCE.md §3); the 2019 SI
// value differs from it by 5.5e-10 relative.
inline constexpr double kVacuumPermeability = 4e-7 * std::numbers::pi;

// A uniformly magnetised cuboid centred at the origin of its own axes, its edges along them.
struct Cuboid {
  Vector3 halfExtents = Vector3::Zero();    // m
  Vector3 magnetisation = Vector3::Zero();  // M, A/m, in the cuboid's axes (the polarisation is J = μ0·M)
};

// H (A/m) at `point` (m, in the cuboid's axes). Valid anywhere off the cuboid's surface: outside, B = μ0·H; inside,
// H is the demagnetising field and B = μ0·(H + M). Points in the plane of a face or on the line of an edge, but
// off the surface, give the finite limit (the field is continuous there); on an edge the field diverges
// logarithmically and the result is infinite. Far away the closed form's terms cancel down to the dipole field:
// its relative round-off is 2e-10 at 1000 sizes, 4e-8 at 10⁴, while the dipole field is off by (size/d)² (a cube:
// (size/d)⁴), so beyond some thousand sizes the point dipole is the better formula.
Vector3 cuboidField(const Cuboid& cuboid, const Vector3& point);

}  // namespace lodestone

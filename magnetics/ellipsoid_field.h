// The H field of a uniformly magnetised ellipsoid in closed form: its magnetic potential outside is
// φ(x) = (abc/2)·Σ_i M_i·x_i·∫_λ^∞ ds / ((a_i² + s)·√((a² + s)(b² + s)(c² + s))), λ the ellipsoidal coordinate of x
// (Osborn, Phys. Rev. 67, 351 (1945); Stratton, "Electromagnetic Theory", 1941, §3.27), the integrals Carlson's R_D
// (Boost.Math's ellint_rd), as for the demagnetising factors (demagnetising_factors.h).
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// An ellipsoid centred at the origin of its own axes, its semi-axes along them, uniformly magnetised.
struct Ellipsoid {
  Vector3 semiAxes = Vector3::Zero();       // a, b, c, m
  Vector3 magnetisation = Vector3::Zero();  // M, A/m, in the ellipsoid's axes (the polarisation is J = μ0·M)
};

// H (A/m) at `point` (m, in the ellipsoid's axes). Inside, the demagnetising field −N·M, uniform (N: Osborn's factors,
// ellipsoidDemagnetisingFactors), and B = μ0·(H + M). On the surface and outside, B = μ0·H with
//   H_i = −(abc/3)·M_i·R_D(a_j² + λ, a_k² + λ, a_i² + λ) + abc·(M·n)·n_i / √((a² + λ)(b² + λ)(c² + λ)),
// n the unit normal of the confocal ellipsoid through the point: the second term is φ's dependence through λ, which
// does not vanish (on the surface it is the jump (M·n)·n of the normal field across the charge σ = M·n). The field is
// continuous up to the surface from each side; a point on it gets one side's limit, whichever its rounded coordinates
// fall on. The two terms do not cancel far away (they are the dipole field's −M and 3(M·n)n), so the round-off stays
// near 1e-15 relative at any distance. Measured (tests/unit/magnetics_ellipsoid_field_test.cpp): against the charged
// surface integrated numerically, inside and out, within 9e-16 of |H|; a sphere-shaped one equals the dipole field to
// 7e-16; B·n and H×n are continuous across the surface within 1.2e-10 of |M|.
Vector3 ellipsoidField(const Ellipsoid& ellipsoid, const Vector3& point);

}  // namespace lodestone

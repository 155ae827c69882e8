// Magnetometric demagnetising factors of uniformly magnetised shapes: N such that the demagnetising field averaged over
// the body is −N·M along each of its axes. A soft sample's effective susceptibility χ/(1 + Nχ) takes them.
#pragma once

#include "solver/core/rotation.h"

namespace lodestone {

// A sphere's (and any ellipsoid of revolution's limit of equal axes): 1/3 along every axis.
Vector3 sphereDemagnetisingFactors();

// An ellipsoid with semi-axes (a, b, c) along its axes: N_x = (abc/2)·∫₀^∞ ds / ((s + a²)·√((s + a²)(s + b²)(s + c²)))
// (Osborn, Phys. Rev. 67, 351 (1945); Stoner, Phil. Mag. 36, 803 (1945)), in Carlson's form (abc/3)·R_D(b², c², a²)
// (Boost.Math's ellint_rd), likewise along y and z. Uniformly magnetised, an ellipsoid's demagnetising field is uniform
// inside it, −N·M exactly: one sample at its centre is the exact soft ellipsoid in a uniform field.
Vector3 ellipsoidDemagnetisingFactors(const Vector3& semiAxes);

// A rectangular prism with edges 2·halfExtents along its axes: Aharoni's closed form (A. Aharoni, "Demagnetizing
// factors for rectangular ferromagnetic prisms", J. Appl. Phys. 83, 3432 (1998), Eq. 1), each axis in turn. The three
// add up to 1 (to round-off). Its terms of order (longest/shortest)² cancel, so the relative error of the smallest
// factor grows as 1e-16·(longest/shortest)²: measured against 20-digit arithmetic, 2e-14 for a 1:1:0.01 plate, 4e-11
// for a 1:1:100 rod, 8e-8 at 1:2:1000, 4e-5 at 1:1:10⁴ (the factors along the short edges keep 1e-8 there).
Vector3 prismDemagnetisingFactors(const Vector3& halfExtents);

// A circular cylinder of `radius` and `halfLength`, its axis along z: the axial factor in closed form,
// N_z = 1 + 4/(3πτ)·[1 − √(1+τ²)·((1 − τ²)E(k) + τ²K(k))], τ = halfLength/radius, k² = 1/(1 + τ²), K and E the
// complete elliptic integrals (derived from N_z = (1/τ)∫₀^∞ (1 − e^{−2τu}) J₁(u)²/u² du, the volume average of the
// end discs' field; the form of Beleggia et al., J. Phys. D 38 (2005) 3333, for a circular section; 1 − N_z of
// Chen, Brug & Goldfarb, IEEE Trans. Magn. 27 (1991) 3601, Table I: 0.3116 at length = diameter). The transverse
// factors are (1 − N_z)/2 each by symmetry and the sum rule.
Vector3 cylinderDemagnetisingFactors(double radius, double halfLength);

// A frustum of `height` from `bottomRadius` to `topRadius` (one may be 0: a cone), its axis along z: the axial factor
// N_z = −(1/V)∫ H_z dV for M = ẑ, the closed-form field (frustum_field.h) integrated over the section in (ρ, z) by a
// 48 × 48 Gauss–Legendre rule in coordinates that crowd towards the section's ends, where the field is singular
// (logarithmically, at the rims); the transverse factors are (1 − N_z)/2 each, as a cylinder's. With equal radii the
// cylinder's closed form within 3e-11 (half-length/radius 0.1, 1, 10), in about 2 ms
// (tests/unit/magnetics_demagnetising_factors_test.cpp).
Vector3 frustumDemagnetisingFactors(double bottomRadius, double topRadius, double height);

}  // namespace lodestone

// The H field of a uniformly magnetised cylinder in closed form. Along its axis: Derby & Olbert, "Cylindrical magnets
// and ideal solenoids", Am. J. Phys. 78 (2010) 229, with their generalised complete elliptic integral evaluated by
// Bulirsch's algorithm (Numer. Math. 13 (1969) 305), which keeps its digits everywhere, on the axis included. Across
// it (diametral), the field of the mantle's charge σ = M·n reduced to the same integrals, as Caciagli et al., "Exact
// expression for the magnetic field of a finite cylinder with arbitrary uniform magnetization", J. Magn. Magn. Mater.
// 456 (2018) 423, reduce it to Legendre's K, E and Π; here through the Hessian of the cylinder's Newtonian potential,
// which both parts share (cylinder_field.cpp).
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// A cylinder centred at the origin of its own axes, its axis along z, uniformly magnetised: M = (M_x, M_y, M_z), the
// axial part M_z and the diametral part (M_x, M_y) kept apart, as their closed forms are.
struct Cylinder {
  double radius = 0;         // R, m
  double halfLength = 0;     // L, m: the end discs are at z = ±L
  double magnetisation = 0;  // M_z, A/m (the polarisation is J = μ0·M)
  Eigen::Vector2d diametralMagnetisation = Eigen::Vector2d::Zero();  // (M_x, M_y), A/m
};

// H (A/m) at `point` (m, in the cylinder's axes). Valid anywhere off the cylinder's surface: outside, B = μ0·H; inside,
// H is the demagnetising field and B = μ0·(H + M). On the axis, in the planes of the end discs beyond the rim and on
// the mantle's extension beyond the ends, the result is the (continuous) field's value; on the rims of the end discs
// the field diverges logarithmically and the result is not finite. Far away the two ends' terms cancel down to the
// dipole field, so its relative round-off grows as (d/size)²: 1.4e-12 at 100 sizes, 1.3e-10 at 1000, 7e-9 at 10⁴
// (measured against the charged end discs integrated numerically). The diametral part, against the mantle's charge
// integrated numerically inside and out, near the rims and the axis: within 6e-11 of |H|, the reference's own error (a
// 30-digit integration agrees within 2e-15); on the axis, Derby's elementary field's, within 1e-16 of |M|, and within
// 1e-11 of |M| 1e-5 R off it, where its two elliptic integrals cancel most
// (tests/unit/magnetics_cylinder_field_test.cpp). Far away it is its dipole to (size/d)², its round-off growing as the
// axial part's.
Vector3 cylinderField(const Cylinder& cylinder, const Vector3& point);

}  // namespace lodestone

// The H field of a cylinder uniformly magnetised along its axis, in closed form: Derby & Olbert, "Cylindrical magnets
// and ideal solenoids", Am. J. Phys. 78 (2010) 229, with their generalised complete elliptic integral evaluated by
// Bulirsch's algorithm (Numer. Math. 13 (1969) 305), which keeps its digits everywhere, on the axis included.
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// A cylinder centred at the origin of its own axes, its axis along z, uniformly magnetised along that axis. (Only axial
// magnetisation so far: a diametral one needs another closed form, Caciagli et al. 2018.)
struct Cylinder {
  double radius = 0;         // R, m
  double halfLength = 0;     // L, m: the end discs are at z = ±L
  double magnetisation = 0;  // M_z, A/m (the polarisation is J = μ0·M)
};

// H (A/m) at `point` (m, in the cylinder's axes). Valid anywhere off the cylinder's surface: outside, B = μ0·H; inside,
// H is the demagnetising field and B = μ0·(H + M). On the axis, in the planes of the end discs beyond the rim and on
// the mantle's extension beyond the ends, the result is the (continuous) field's value; on the rims of the end discs
// the field diverges logarithmically and the result is not finite. Far away the two ends' terms cancel down to the
// dipole field, so its relative round-off grows as (d/size)²: 1.4e-12 at 100 sizes, 1.3e-10 at 1000, 7e-9 at 10⁴
// (measured against the charged end discs integrated numerically).
Vector3 cylinderField(const Cylinder& cylinder, const Vector3& point);

}  // namespace lodestone

// The point dipole: its field, and the force and moments between two of them. A uniformly magnetised sphere's field
// outside it is exactly its dipole's, and so is the force and torque it feels in any field whose sources are outside
// it; other magnets approach it far away (magnet_pair.h says how far).
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// H (A/m) of the dipole `moment` (A·m²) at `offset` (m) from it: (3n(n·m) − m)/(4π|offset|³), n = offset/|offset|.
Vector3 pointDipoleField(const Vector3& moment, const Vector3& offset);

// A field H at a point and its gradient there, gradient(i, j) = ∂H_i/∂x_j (A/m, A/m²).
struct FieldWithGradient {
  Vector3 field = Vector3::Zero();
  Matrix3 gradient = Matrix3::Zero();
};

// The same field with its gradient, 3/(4πr⁵)·[(m·r)I + r mᵀ + m rᵀ − 5 r rᵀ(m·r)/r²] at r = offset: what a dipole does
// to an induced one (induced_magnetisation.h). Zero at the dipole itself.
FieldWithGradient pointDipoleFieldWithGradient(const Vector3& moment, const Vector3& offset);

struct PointDipoleInteraction {
  Vector3 forceOnSecond = Vector3::Zero();  // N; the first feels its opposite
  Vector3 momentOnFirst = Vector3::Zero(), momentOnSecond = Vector3::Zero();  // N·m, mᵢ × μ0·H of the other
};

// Dipoles m1 and m2, the second at `offset` from the first, n = offset/|offset|, r = |offset|:
// F2 = 3μ0/(4πr⁴)·[n(m1·m2) + m1(m2·n) + m2(m1·n) − 5n(m1·n)(m2·n)], M1 = m1 × μ0·H1(−offset) and M2 = m2 × μ0·H2.
// Coincident dipoles have no direction between them: the result is zero.
PointDipoleInteraction pointDipoleInteraction(const Vector3& m1, const Vector3& m2, const Vector3& offset);

}  // namespace lodestone

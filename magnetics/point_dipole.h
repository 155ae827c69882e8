// The point dipole: its field, and the force and moments between two of them. A uniformly magnetised sphere's field
// outside it is exactly its dipole's, and so is the force and torque it feels in any field whose sources are outside
// it; other magnets approach it far away (magnet_pair.h says how far).
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// H (A/m) of the dipole `moment` (A·m²) at `offset` (m) from it: (3n(n·m) − m)/(4π|offset|³), n = offset/|offset|.
Vector3 pointDipoleField(const Vector3& moment, const Vector3& offset);

struct PointDipoleInteraction {
  Vector3 forceOnSecond = Vector3::Zero();  // N; the first feels its opposite
  Vector3 momentOnFirst = Vector3::Zero(), momentOnSecond = Vector3::Zero();  // N·m, mᵢ × μ0·H of the other
};

// Dipoles m1 and m2, the second at `offset` from the first, n = offset/|offset|, r = |offset|:
// F2 = 3μ0/(4πr⁴)·[n(m1·m2) + m1(m2·n) + m2(m1·n) − 5n(m1·n)(m2·n)], M1 = m1 × μ0·H1(−offset) and M2 = m2 × μ0·H2.
// Coincident dipoles have no direction between them: the result is zero.
PointDipoleInteraction pointDipoleInteraction(const Vector3& m1, const Vector3& m2, const Vector3& offset);

}  // namespace lodestone

// The magnetic half of the DIPOLE law as pure functions, so tests (and later the element) can check the physics
// without building a contact: the force and moments between two point dipoles, and μ0 in a deck's units.
#pragma once

#include "solver/core/rotation.h"
#include "solver/core/units.h"

namespace lodestone {

struct DipoleInteraction {
  Vector3 forceOn1 = Vector3::Zero(), forceOn2 = Vector3::Zero();    // F1 = −F2
  Vector3 momentOn1 = Vector3::Zero(), momentOn2 = Vector3::Zero();  // mᵢ × B of the other dipole
};

// Dipoles m1 at r1 and m2 at r2 (ground axes), REFERENCE.md §3 DIPOLE: with n the unit vector from 1 to 2 and
// ρ = max(|r2 − r1|, cap), F2 = 3μ0/(4πρ⁴)·[n(m1·m2) + m1(m2·n) + m2(m1·n) − 5n(m1·n)(m2·n)], F1 = −F2,
// M2 = μ0/(4πρ³)·[3(m2×n)(m1·n) − m2×m1], M1 = μ0/(4πρ³)·[3(m1×n)(m2·n) − m1×m2]. Aligned coaxial dipoles attract.
// Coincident dipoles (r1 = r2) have no direction between them: the result is zero rather than NaN.
// Below the cap the force is that at the cap; the moments use the same ρ, so angular momentum is then conserved
// only approximately (residual ∝ 1 − |r2 − r1|/cap) — the cap is a regularisation, not physics.
DipoleInteraction magneticDipoleInteraction(const Vector3& m1, const Vector3& r1, const Vector3& m2,
                                            const Vector3& r2, double cap, double mu0);

// μ0 = 4π·10⁻⁷ N/A² in the deck's force unit (the length units cancel when moments are in A·length²). A force
// unit the table does not know cannot pass the deck reader; should one arrive, newtons are assumed, as
// UnitSystem::consistencyFactor does.
double vacuumPermeability(const UnitSystem& units);

}  // namespace lodestone

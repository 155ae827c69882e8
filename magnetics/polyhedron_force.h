// Force and torque on a uniformly magnetised polyhedron (a closed triangle mesh) in any source's field: the force on
// its triangles' charge σ = M·n in the source's field, integrated over each triangle by adaptive Gauss–Legendre
// quadrature on its collapsed square (surface_charge_force.h).
#pragma once

#include <vector>

#include "magnetics/polyhedron_field.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's triangles, c the target's reference point: the
// origin of its own axes, which `pose` places (with those axes) in the source's axes; results in the source's axes.
// The magnetisation stays uniform. ℓ = the largest distance of a vertex from that origin weighs torque against force
// in the accuracy asked for, relativeAccuracy·(|F| + |T|/ℓ). The magnets must not overlap, and the mesh's indices
// must be valid (polyhedronMeshProblem). Only triangles with σ ≠ 0 are integrated, so the cost grows with the number
// of charged triangles: a cube magnetised along an edge, as 12 triangles, has 4.
//
// Accuracy (the estimate is not a bound; surface_charge_force.h says how it is made): a 0.1 m cube as 12 triangles,
// magnetised obliquely, over a 0.1 m cube magnetised along z, gaps 0.1 mm to 150 mm, coaxial and offset: asking 1e-6,
// 1e-8, 1e-9, 1e-10 gave |δF|/|F| ≤ 2.0e-7, 5.0e-10, 3.9e-11, 8.0e-12 against the exact cube's interaction, for
// 2.9k–138k, 2.9k–235k, 2.9k–271k, 2.9k–307k field evaluations, the most at 0.1 mm (the exact cube as six rectangles:
// 1.5k–126k, 1.5k–199k, 1.5k–233k, 1.5k–267k); the same cube as 192 triangles agrees with it within 2e-12
// (tests/unit/magnetics_polyhedron_force_test.cpp). With a mesh as the source, each field evaluation costs what
// PolyhedronField's does (polyhedron_field.h).
MagnetInteraction polyhedronInteraction(const SourceField& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy = 1e-8);

// The target's charged triangles (those with M·n ≠ 0 and an area) placed by `pose`, and its torque length ℓ: what
// polyhedronInteraction integrates over, for callers that keep a quadrature layout (surface_charge_force.h).
std::vector<ChargedFace> chargedFaces(const Polyhedron& target, const MagnetPose& pose);
double torqueLength(const Polyhedron& target);

MagnetInteraction polyhedronInteraction(const Polyhedron& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy = 1e-8);
MagnetInteraction polyhedronInteraction(const Cuboid& source, const Polyhedron& target, const MagnetPose& pose,
                                        double relativeAccuracy = 1e-8);

}  // namespace lodestone

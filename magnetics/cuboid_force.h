// Force and torque between two uniformly magnetised cuboids in any relative pose: the force on the target's surface
// charge σ = M·n in the source's closed-form field (cuboid_field.h), integrated over the target's faces by
// adaptive Gauss–Legendre quadrature. Exact for the surface-charge model, which for rigid, uniformly magnetised
// bodies gives the same total force and torque as the Amperian-current model.
#pragma once

#include "magnetics/cuboid_field.h"

namespace lodestone {

// The target's centre and axes (the columns of `rotation`) in the source's axes.
struct CuboidPose {
  Matrix3 rotation = Matrix3::Identity();
  Vector3 position = Vector3::Zero();  // m
};

struct CuboidInteraction {
  Vector3 force = Vector3::Zero();   // N, on the target, in the source's axes
  Vector3 torque = Vector3::Zero();  // N·m, on the target about its centre, in the source's axes
  double errorEstimate = 0;          // of |δF| + |δT|/ℓ, ℓ = |target's half-extents| (see cuboidInteraction), N
  long fieldEvaluations = 0;
  bool converged = true;  // false when the panel budget ran out first; the result is then the best one found
};

// F = μ0 ∮ σ H dS and T = μ0 ∮ (r − c) × σ H dS over the target's faces (H: the source's field, c: the target's
// centre), the target's magnetisation staying uniform (rigid magnets, no induced magnetisation). The cuboids must
// not overlap; a gap of zero makes the integrand singular on the touching edges and convergence slow.
//
// Accuracy: each face is cut into panels, each integrated by a 7×7-point Gauss–Legendre rule; the panel whose rule
// differs most from the sum of its two halves' (halved across the direction where they differ most) is split,
// until those differences add up to at most relativeAccuracy·(|F| + |T|/ℓ). The differences estimate the error of
// the coarser rules, the result is the finer ones; the estimate is not a bound, but in every case measured the
// error was below the accuracy asked for. Between two 0.1 m cubes 0.1 mm to 150 mm apart, coaxial or offset,
// asking 1e-4, 1e-6, 1e-8, 1e-10 gave |δF|/|F| ≤ 8.3e-5, 1.7e-7, 1.1e-9, 2.6e-11 against Akoun & Yonnet's closed
// form, for 0.5k–41k, 0.5k–77k, 0.5k–107k, 0.5k–130k field evaluations (≈ 0.5 µs each), the most at 0.1 mm
// (tests/unit/magnetics_cuboid_force_test.cpp, tests/benchmark/magnet_cuboid_benchmark.cpp).
// A floor: far from a source its field keeps fewer digits (relative round-off 2e-10 at 1000 sizes, 4e-8 at 10⁴), so
// a target thousands of times larger than the source may not reach every accuracy; `converged` then says so. A 1 mm
// cube over a 200 mm plate reaches 1e-9 either way round.
CuboidInteraction cuboidInteraction(const Cuboid& source, const Cuboid& target, const CuboidPose& pose,
                                    double relativeAccuracy = 1e-8);

}  // namespace lodestone

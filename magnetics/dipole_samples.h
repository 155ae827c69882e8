// Magnetic interactions among many point-dipole samples (magnets sampled by dipoles, Westhofen et al. 2024, seeds/002):
// the field, force and torque on every sample from the samples of all other magnets, summed directly (O(N²), the
// reference) or over an octree whose far cells act through a truncated multipole expansion (O(N log N)).
#pragma once

#include <array>
#include <vector>

#include "solver/core/parallel_loop.h"
#include "solver/core/rotation.h"

namespace lodestone {

struct DipoleSample {
  Vector3 position = Vector3::Zero();  // length
  Vector3 moment = Vector3::Zero();    // m, A·length², ground axes
  int group = 0;  // the rigid magnet it belongs to: samples of one group do not act on each other (nor on themselves)
};

// What acts on one sample, in the units of `mu0` (SI: A/m, N, N·m).
struct SampleInteraction {
  Vector3 field = Vector3::Zero();   // H at the sample from all samples of other groups (without μ0)
  Vector3 force = Vector3::Zero();   // F = μ0 ∇(m·H) = μ0 (∇H) m, on the sample
  Vector3 torque = Vector3::Zero();  // m × μ0 H, about the sample (plugins/builtin/dipole.h's momentOn)
};

// Each pair (i, j) of samples in different groups, as plugins/builtin/dipole.h's magneticDipoleInteraction: the
// field of j at i and its gradient are taken along the true direction n but at ρ = max(|rᵢ − rⱼ|, cap), and
// coincident samples (rᵢ = rⱼ) have no direction and contribute nothing. With cap = 0 (or every pair farther apart than
// the cap) each sample's force and torque are the sums of magneticDipoleInteraction's over the other groups' samples;
// F summed over all samples is then zero, and Σ (rᵢ × Fᵢ + Tᵢ) is zero too, to round-off. Below the cap, as in
// dipole.h, angular momentum is only approximately conserved.
//
// Cost N² pair evaluations, ≈ 4 ns each (table below). Each sample's sum runs over the others in index order, in one
// thread: the result is the same bit for bit whatever `loop`'s thread count (nullptr: this thread only).
std::vector<SampleInteraction> directInteractions(const std::vector<DipoleSample>& samples, double cap, double mu0,
                                                  const ParallelLoop* loop = nullptr);

// The same by a Barnes–Hut octree: leaves of at most 16 samples; a cell with children acts on a sample x as one
// expansion about its centre c (the |m|-weighted centroid of its samples) when |x − c|·θ > b, b the largest |rᵢ − c|
// in the cell, and |x − c| − b > cap (so the cap never acts inside an expansion); otherwise it is opened. A leaf's
// samples always act one by one as in directInteractions: exact, and cheaper than an expansion. The expansion keeps
// the cell's total moment Σmᵢ, its first moment Σ mᵢ(rᵢ − c)ᵀ and its second moment Σ mᵢ(rᵢ − c)(rᵢ − c)ᵀ (see
// DipoleCluster), so the first term left out is of order (b/|x − c|)³ ≤ θ³ relative to the cell's own field, with large
// coefficients: the force is a fifth derivative of 1/r, whose Taylor series in b/|x − c| converges slowly.
// Samples of the sample's own group: a cell holding only them is skipped; a cell mixing them with others whose box
// meets the group's box is opened down to its leaves. A magnet of n_g samples touching others thus costs up to about
// n_g^(2/3) extra leaf visits per sample (its boundary), on top of the O(log N) of the tree.
//
// Error of the forces against directInteractions (measured, tests/unit/magnetics_dipole_samples_test.cpp, which
// bounds each by twice that): "rms" is √(Σ|ΔFᵢ|²/Σ|Fᵢ|²) over the samples, "max" maxᵢ |ΔFᵢ|/|Fᵢ| (large where a
// sample's neighbours' pulls nearly cancel), "net" the rms over the magnets' net forces Σ_{i in magnet} Fᵢ:
//                                                   θ = 0.2                 θ = 0.3                 θ = 0.4
//                                              rms     max     net     rms     max     net     rms     max     net
//   4³ touching 27-sample magnets, random M   3.8e-5  7.5e-4  3.6e-5  7.7e-4  2.3e-2  5.6e-4  5.7e-3  0.23    1.6e-3
//   two balls of 400 samples 1 cm apart       3.7e-4  2.0e-3  1.1e-4  3.1e-3  1.4e-2  9.9e-4  1.2e-2  5.0e-2  1.6e-3
//   1000 single-sample bodies in a cube       8.1e-9  3.7e-4  —       1.4e-7  2.6e-3  —       8.1e-7  4.5e-2  —
// The error is that of the nearest cells accepted, the same at every N: in the benchmark below it stays within a
// factor 2 from N = 1000 to 30 000. θ = 0.3 is a fair default for dynamics (net forces to ≈ 1e-3); in a 12³-sample
// magnet lattice θ = 0.5 and 0.7 gave rms 2.2e-2 and 0.13, max 0.33 and 2.2.
//
// θ = 0 opens every cell and gives directInteractions' sums in another order. The tree is built serially; each
// sample's traversal runs in one thread in a fixed order, so results are the same bit for bit whatever `loop`'s
// thread count.
std::vector<SampleInteraction> treeInteractions(const std::vector<DipoleSample>& samples, double cap, double mu0,
                                                double openingAngle, const ParallelLoop* loop = nullptr);

// H and its gradient ∂Hₐ/∂x_b (symmetric and traceless off the sources) at a point, without μ0.
struct FieldAndGradient {
  Vector3 field = Vector3::Zero();
  Matrix3 gradient = Matrix3::Zero();
};

// The far field of dipoles mᵢ at c + dᵢ, a tree cell's expansion: H(x) = Σᵢ T(x − c − dᵢ)mᵢ with T(r) = ∇∇(1/4π|r|)
// Taylor-expanded in dᵢ to first order, T(R)·Σmᵢ − ∇T(R):Σ mᵢdᵢᵀ (R = x − c). The second term vanishes when the
// moments are parallel (one uniformly magnetised magnet) and c is their |m|-weighted centroid, as chosen here.
struct DipoleCluster {
  Vector3 centre = Vector3::Zero();
  Vector3 moment = Vector3::Zero();   // Σ mᵢ
  Matrix3 spread = Matrix3::Zero();   // Σ mᵢ dᵢᵀ
  std::array<Matrix3, 3> secondMoment{Matrix3::Zero(), Matrix3::Zero(), Matrix3::Zero()};  // [b]: Σ m_b dᵢdᵢᵀ
  double radius = 0;                  // max |dᵢ|
};

DipoleCluster dipoleCluster(const std::vector<DipoleSample>& samples);

// The expansion's H and gradient at `point`; for |point − centre| ≫ radius.
FieldAndGradient clusterField(const DipoleCluster& cluster, const Vector3& point);

}  // namespace lodestone

// Magnetic interactions among many point-dipole samples (magnets sampled by dipoles, Westhofen et al. 2024, seeds/002):
// the field, force and torque on every sample from the samples of all other magnets, summed directly (O(N²), the
// reference) or over an octree whose far cells act through a truncated multipole expansion (O(N log N)).
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "solver/core/parallel_loop.h"
#include "solver/core/rotation.h"

namespace lodestone {

struct GroupedDipoleSample {
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
// Cost N² pair evaluations, ≈ 13 ns each (table below). Each sample's sum runs over the others in index order, in one
// thread: the result is the same bit for bit whatever `loop`'s thread count (nullptr: this thread only).
std::vector<SampleInteraction> directInteractions(const std::vector<GroupedDipoleSample>& samples, double cap,
                                                  double mu0, const ParallelLoop* loop = nullptr);

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
// The error is that of the nearest cells accepted and does not grow with N: in the benchmark below the rms varies
// within a factor 4, with no upward trend, from N = 1000 to 30 000. θ = 0.3 is a fair default for dynamics (net
// forces to ≈ 1e-3); in a 12³-sample magnet lattice θ = 0.5 and 0.7 gave rms 2.2e-2 and 0.13, max 0.33 and 2.2.
//
// Cost (tests/benchmark/magnet_samples_benchmark.cpp, 2026-11-29, Release, Debian 12 VM with 2 cores shared with four
// builds, load 7–16: CPU time of one thread, median of 3; "2 thr" is wall time with two threads, inflated by the load).
// Touching 27-sample magnets in a block, random directions; errors of the forces against the direct sum as above
// (rms / max per sample / rms of the magnets' net forces); direct at 100 008 extrapolated as N² from 29 997.
//               cost per evaluation [ms]                force error: rms / max per sample / rms net
//       N   direct   θ=0.2   θ=0.3   θ=0.4  0.3,2thr  θ = 0.2              θ = 0.3              θ = 0.4
//     108    0.120   0.138   0.134   0.117     1.35  3e-16  6e-16  6e-17  6.3e-4 8.8e-3 2.7e-4  5.9e-3 0.10   1.2e-3
//     297    1.07    1.15    1.08    0.928    12.0   1.4e-5 7.9e-4 1.1e-5 3.8e-4 7.0e-3 2.2e-4  2.3e-3 0.040  9.1e-4
//     999   12.9    10.8     7.85    6.22     52.1   8.4e-5 3.2e-3 7.8e-5 1.8e-3 2.8e-2 1.0e-3  1.0e-2 0.27   3.5e-3
//    2997  120      99.8    59.9    40.1     224     3.2e-5 2.5e-3 3.2e-5 5.7e-4 1.0e-2 5.1e-4  3.9e-3 0.10   2.9e-3
//    9990 1349     525     283     181      1116     5.5e-5 3.4e-3 5.4e-5 9.5e-4 0.17   7.0e-4  6.3e-3 0.40   2.1e-3
//   29997 11960   3590    1641     902      6274     4.0e-5 2.0e-3 4.4e-5 4.9e-4 1.5e-2 4.7e-4  3.2e-3 0.23   2.6e-3
//  100008 ≈132900 16710   7121    3904     18230     (direct not run)
// Fitted exponent of cost against N, N ≥ 1000: direct 2.00, θ = 0.2 1.49, θ = 0.3 1.38, θ = 0.4 1.32; from 30 000 to
// 100 000 alone 1.28, 1.22, 1.22. The tree is N log N with a large cost per level (at N = 27 000, ≈ 1000, 470 and 260
// expansions per sample at θ = 0.2, 0.3, 0.4, ≈ 130 ns each): at small N its lowest levels are direct sums, and the
// logarithm's share grows until N ≈ 10⁵, so the fit over this range sits above N log N's ≈ 1.1. The tree is cheaper
// than the direct sum from N ≈ 300 (θ = 0.3) and 19 times cheaper at N = 100 000.
//
// θ = 0 opens every cell and gives directInteractions' sums in another order. The tree is built serially; each
// sample's traversal runs in one thread in a fixed order, so results are the same bit for bit whatever `loop`'s
// thread count.
std::vector<SampleInteraction> treeInteractions(const std::vector<GroupedDipoleSample>& samples, double cap,
                                                double mu0, double openingAngle, const ParallelLoop* loop = nullptr);

// treeInteractions' octree (cap 0) kept for many evaluations over samples whose groups are fixed and whose positions
// are fixed or move by little, while their moments change: an induction solve's operator products, a Jacobian's
// differenced states (magnetics/induced_magnetisation.h). Two differences from treeInteractions:
// - Each cell expands about its samples' mean position, not their |m|-weighted centroid: the result is then linear in
//   the moments, as the induction solve's Krylov methods need (with the weighted centre the product would depend on
//   the iterate's directions nonlinearly). The first-order term kept in the expansion makes up for the centre; the
//   error stays third order in b/|x − c| (tests/unit/magnetics_dipole_samples_test.cpp measures it against the direct
//   sum on soft-magnet blocks).
// - The cells, their samples, and which cells act on which sample as expansions are those of the positions it was built
//   with; an evaluation at other positions (the same samples, in the same order, moved) keeps those choices and sums
//   the expansions and leaves at the positions given. The result is then a smooth function of the positions, which a
//   Jacobian by differences needs: a cell accepted at one state and opened at a state 1e-8 away would otherwise add
//   the expansion's error, ≈ 1e-5 of the force, divided by 1e-8 to the derivative. The acceptance test was passed at
//   the built positions, so a small displacement changes the accuracy by as little.
// Deterministic as treeInteractions: the same bits whatever `loop`'s thread count, and for the same input every call.
class DipoleSampleTree {
 public:
  // `groups` as GroupedDipoleSample's; openingAngle θ as treeInteractions' (0 opens every cell: the direct sum).
  DipoleSampleTree(const std::vector<Vector3>& positions, const std::vector<int>& groups, double openingAngle);
  ~DipoleSampleTree();
  DipoleSampleTree(DipoleSampleTree&&) noexcept;
  DipoleSampleTree& operator=(DipoleSampleTree&&) noexcept;

  int size() const;
  double openingAngle() const { return openingAngle_; }
  // H at each sample from the samples of the other groups (no μ0), the samples at `positions` with `moments`, as
  // many and in the order the tree was built with. About half the cost of interactions(): no gradients.
  std::vector<Vector3> fields(const std::vector<Vector3>& positions, const std::vector<Vector3>& moments,
                              const ParallelLoop* loop = nullptr) const;
  // Field, force and torque on each sample, as treeInteractions'.
  std::vector<SampleInteraction> interactions(const std::vector<Vector3>& positions,
                                              const std::vector<Vector3>& moments, double mu0,
                                              const ParallelLoop* loop = nullptr) const;

 private:
  struct Structure;
  template <bool kGradient>
  std::vector<SampleInteraction> evaluate(const std::vector<Vector3>& positions, const std::vector<Vector3>& moments,
                                          double mu0, const ParallelLoop* loop) const;
  std::unique_ptr<const Structure> structure_;
  double openingAngle_ = 0;
};

// H and its gradient ∂Hₐ/∂x_b (symmetric and traceless off the sources) at a point, without μ0.
struct FieldAndGradient {
  Vector3 field = Vector3::Zero();
  Matrix3 gradient = Matrix3::Zero();
};

// The far field of dipoles mᵢ at c + dᵢ, a tree cell's expansion: H(x) = Σᵢ T(x − c − dᵢ)mᵢ with T(r) = ∇∇(1/4π|r|)
// Taylor-expanded in dᵢ to second order, T(R)·Σmᵢ − ∇T(R):Σ mᵢdᵢᵀ + ½∇∇T(R):Σ mᵢdᵢdᵢᵀ (R = x − c). The first-order
// term vanishes when the moments are parallel (one uniformly magnetised magnet) and c is their |m|-weighted centroid,
// as chosen here.
struct DipoleCluster {
  Vector3 centre = Vector3::Zero();
  Vector3 moment = Vector3::Zero();   // Σ mᵢ
  Matrix3 spread = Matrix3::Zero();   // Σ mᵢ dᵢᵀ
  std::array<Matrix3, 3> secondMoment{Matrix3::Zero(), Matrix3::Zero(), Matrix3::Zero()};  // [b]: Σ m_b dᵢdᵢᵀ
  double radius = 0;                  // max |dᵢ|
};

DipoleCluster dipoleCluster(const std::vector<GroupedDipoleSample>& samples);

// The expansion's H and gradient at `point`; for |point − centre| ≫ radius.
FieldAndGradient clusterField(const DipoleCluster& cluster, const Vector3& point);

}  // namespace lodestone

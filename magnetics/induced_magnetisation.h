// The magnetisation induced in soft (linear) magnetic samples by the permanent magnets' field and by each other, solved
// for all samples together, and the forces and torques it brings (Westhofen et al. 2024, §3.3.2, their Eq. 18).
#pragma once

#include <string>
#include <vector>

#include "magnetics/demagnetising_factors.h"
#include "magnetics/point_dipole.h"
#include "magnetics/surface_charge_force.h"

namespace lodestone {

// One dipole sample of a soft body: a piece of the body small enough for the field to be uniform over it, its
// magnetisation M = χ·H_inside. Samples of one rigid body share a `group` and do not induce each other, as in the paper
// (Eq. 18 sums over the samples of the other bodies only; its B_ext, Eq. 11, is the field without the body's own):
// the body's own field on itself is its demagnetising field −N·M, which `demagnetisingFactors` (those of the body's
// shape, in the axes `axes`) already holds — adding the neighbours' dipole fields as well would count it twice. Then
// M = χ(H_other − N·M) gives m = V·χ_eff·H_other, χ_eff = R·diag(χ/(1 + N_k·χ))·Rᵀ (the paper takes a sphere's N = 1/3
// for every body; here it is the body's shape). This is exact for an ellipsoid in a uniform field and an approximation
// where the other bodies' field varies across the body. To resolve a body's
// own non-uniform magnetisation instead, give each of its samples its own group and sphere factors (1/3): the
// samples then induce each other as in a discrete-dipole model, and V should be the volume each sample stands for.
struct SoftSample {
  Vector3 position = Vector3::Zero();  // m, in ground
  double volume = 0;                   // V, m³
  double susceptibility = 0;           // χ > −1 (dimensionless, SI): < 0 diamagnets, ~10³ soft iron
  Vector3 demagnetisingFactors = sphereDemagnetisingFactors();  // N along `axes`, each in [0, 1], summing to 1
  Matrix3 axes = Matrix3::Identity();                           // the shape's axes (columns) in ground
  int group = 0;                                                // the rigid body the sample belongs to
};

// χ_eff = R·diag(χ/(1 + N_k·χ))·Rᵀ: the moment per volume per unit field from the other bodies. For χ → ∞ it tends to
// R·diag(1/N_k)·Rᵀ: a sphere's to 3, however soft the material.
Matrix3 effectiveSusceptibility(const SoftSample& sample);

// How the coupled system m = D·(H0 + T·m) is solved, D = diag(V_i·χ_eff,i), (T·m)_i = Σ_{j in another group}
// H_dipole(m_j, x_i − x_j), H0 the permanent sources' field plus the uniform one: as (I − D·T)·m = D·H0.
enum class InductionMethod {
  // kDense up to InductionSettings::denseUpTo samples, kGmres beyond.
  kAutomatic,
  // The 3n × 3n matrix, LU with partial pivoting: exact to round-off, O(n³) time and O(n²) memory.
  kDense,
  // The paper's Eq. 18 iterated, m ← D·(H0 + T·m): converges if and only if the spectral radius of D·T is below 1
  // (fixedPointContractionBound bounds it), which strong coupling — large χ, samples close together — breaks; the
  // error then grows by that radius each step.
  kFixedPoint,
  // Eigen's BiCGSTAB, matrix-free: O(n²) per operator product, O(n) memory.
  kBiCgStab,
  // Eigen's restarted GMRES, matrix-free: no worse than the fixed point within its first restart cycle (its residual is
  // the least over a space that holds the fixed point's iterates), and it converges where the fixed point diverges.
  kGmres,
};

enum class InductionOutcome {
  kConverged,       // relative residual ≤ the tolerance
  kIterationLimit,  // the iterations ran out first; the moments are the best (fixed point) or the last iterate
  kDiverged,        // the fixed point's residual grew 10⁶-fold: the coupling is too strong for it (use kGmres)
  kInaccurate,      // the dense solve's residual exceeds the tolerance: the system is (nearly) singular
};

struct InductionSettings {
  InductionMethod method = InductionMethod::kAutomatic;
  // Of the residual, ‖D·H0 − (I − D·T)·m‖ / ‖D·H0‖. The moments' relative error is at most the condition number of
  // I − D·T times it: near 1 for weak coupling, larger as χ and the packing grow.
  double relativeTolerance = 1e-10;
  int maxIterations = 1000;  // of the iterative methods, counted in operator products
  int denseUpTo = 300;       // samples: kAutomatic switches to kGmres beyond (both took 0.07 s at 300)
  // Beyond treeFrom samples the iterative methods' operator products T·m and inducedSampleForces' sums over the other
  // soft samples go over an octree (magnetics/dipole_samples.h, DipoleSampleTree) at opening angle treeOpeningAngle:
  // about O(N log N) where the direct sums are O(N²); up to treeFrom nothing changes, bit for bit. The Krylov methods
  // then solve (I − D·T̃)·m = D·H0 for the tree's T̃ (linear in m), and their residual is measured on it.
  //
  // Measured (tests/benchmark/soft_magnet_benchmark.cpp, 2026-11-30, Release, the 2-core VM shared with another
  // session's builds; CPU time of one thread per inducedMagnetLoads evaluation: GMRES's 16–17 products and the forces):
  // a block of nickel spheres (χ = 100, 8 samples each, 12 mm pitch) over a permanent sphere; errors of the bodies'
  // moments and net forces against the direct sums: rms over the bodies, "max" the worst body against its own force
  // (large inside the block, where the pulls nearly cancel), "worst" the worst body's against the rms net force.
  //        cost per evaluation [ms]           errors against the direct sums: moments rms; forces rms, max, worst
  //      N   direct  θ=0.15   θ=0.2   θ=0.3   θ = 0.15                     θ = 0.2                      θ = 0.3: F
  //    216     12.7    13.1    13.3    13.4   0      4e-16  9e-16  1e-15   0      4e-16  9e-16  1e-15   2.9e-5 1.1e-4
  //    512     84.3    28.9    29.1    28.6   2e-16  7e-16  3e-15  2e-15   2e-16  7e-16  3e-15  2e-15   2.2e-5 8.6e-5
  //   1000      323     112    99.5    77.0   6.8e-7 5.7e-7 2.5e-5 2.3e-6  1.5e-5 1.9e-5 3.2e-4 5.5e-5  4.3e-4 1.2e-3
  //   1728     1019     350     266     167   1.1e-6 7.2e-7 5.3e-5 2.5e-6  2.0e-5 1.7e-5 1.7e-3 5.1e-5  3.6e-4 1.3e-3
  //   2744     2605     856     670     370   8.0e-7 4.6e-7 3.2e-5 3.4e-6  1.1e-5 9.0e-6 4.1e-4 3.8e-5  2.4e-4 7.5e-4
  //   4096     5793    1861    1402     767   1.0e-6 3.6e-7 6.6e-5 1.5e-6  1.2e-5 9.7e-6 4.5e-4 4.9e-5  1.6e-4 6.1e-4
  //   8000    22690    5492    4265    2247   1.4e-5 8.2e-6 1.3e-3 4.0e-5  4.0e-5 3.6e-5 2.6e-3 2.5e-4  6.3e-4 5.3e-3
  //  17576   110800   16720   11380    5500   7.4e-6 3.3e-6 6.8e-4 —       3.1e-5 1.8e-5 4.3e-3 —       4.3e-4 —
  //  32768  ≈385000   47210   28030   12480   (direct not run: extrapolated as N² from 17 576)
  // (17 576: the direct sums and the errors from an earlier run of the same code, without the "worst" column; 32 768
  // measured while the test suite ran on the other core.) GMRES took 16–17 products at every N, tree or not. From 4096
  // to 17 576 samples the direct cost grows as N^2.03 and the tree's as N^1.51 (θ = 0.15), N^1.67 on to 32 768: at
  // these sizes the tree's lowest levels are still direct sums, and it is 8 times cheaper than the direct sums at
  // 32 768, not yet the N log N of large N.
  // θ = 0.15 (default): the tree's error is also the size of the jumps the forces make as the bodies move and cells
  // switch between expansion and opened (each state's tree is its own), and it keeps them at ≈ 1e-5 of the forces
  // (rms; the worst body's ≤ 4e-5 of the rms force), below the 1e-4 of the forces that an integrator's usual
  // tolerance allows (integr_tol 1e-3 to 1e-6 on the states); θ = 0.2 costs a quarter less but its worst body's error
  // reaches 2.5e-4 of the rms force, θ = 0.3 costs half as much with errors of 1e-4 to 5e-3 (its last two columns
  // are the forces' rms and worst). The errors grew with the block from 4096 to 8000 samples (more cells accepted)
  // and not beyond, at 17 576.
  // treeFrom = 300 = denseUpTo: up to 300 samples the dense LU has no products to replace and the forces' sums cost
  // the same either way (13 ms at 216); from there the tree, still opening nearly every cell at θ = 0.15 (errors
  // 1e-15 at 512), is cheaper at once: the direct products build a 3 × 3 block per pair.
  // The tree is built serially and each sample's sum runs in a fixed order: the same input gives the same bits every
  // call. It runs in the calling thread (the force element's), so the thread count cannot change them either.
  int treeFrom = 300;
  double treeOpeningAngle = 0.15;
};

struct InducedMagnetisation {
  std::vector<Vector3> moments;                      // m_i, A·m², in ground
  InductionMethod method = InductionMethod::kDense;  // the one that ran
  InductionOutcome outcome = InductionOutcome::kConverged;
  int iterations = 0;           // operator products of the iterative methods; 0 for kDense
  bool fromBase = false;        // kDense: solved from an InductionDifferencing scope's base factors
  double relativeResidual = 0;  // of the moments returned (InductionSettings::relativeTolerance says of what)
  bool converged() const { return outcome == InductionOutcome::kConverged; }
};

// A Jacobian by differences: while one exists on a thread, the first dense solve on that thread (the base state's)
// keeps its matrix and LU factors, and each later dense solve of the same size whose matrix differs from the base's
// in the rows and columns of a few samples (a differenced body's own: 3 per sample) is solved from the base's
// factors by the Woodbury identity, (A + U·Vᵀ)⁻¹b with U, V of 2q columns for q changed rows and columns: O(q·n²)
// instead of the O(n³) of a new factorisation. Within a scope the base is always the scope's first solve, so the
// result does not depend on the thread count; a result whose residual misses the tolerance is solved afresh.
// Beyond InductionSettings::treeFrom samples the scope also freezes the octree: every state of the scope is evaluated
// on the base state's tree, its cells and its choice of which cells act as expansions on which sample kept, the sums
// taken at the state's own positions (DipoleSampleTree). A differenced state's loads are then a smooth function of the
// step, and their differences the derivatives of one approximation: a tree of its own would switch a cell between
// expansion and opened for a step of 1e-8 m wherever a sample crosses a cell's boundary or a test is borderline, and
// its error, ≈ 1e-6 of the force at θ = 0.15, divided by the step would swamp the column (measured at θ = 0.3 on a
// sample carried across the root cell's middle: the column 37 % off, against 5.8e-4 on the frozen tree;
// tests/unit/magnetics_soft_tree_test.cpp). Inside a scope a state other than the base thus has loads that differ from
// those it has outside one by the tree's error at most; the base state's are the same bit for bit.
class InductionDifferencing {
 public:
  InductionDifferencing();
  ~InductionDifferencing();
  InductionDifferencing(const InductionDifferencing&) = delete;
  InductionDifferencing& operator=(const InductionDifferencing&) = delete;
  // The number of the open outermost scope on this thread (a new one for each), 0 outside any: what a caller keeps
  // for the scope's base state is valid while it is unchanged.
  static long current();
};

// m for every sample: `sourceField[i]` is H (A/m, ground) of the permanent magnets at sample i (the caller evaluates
// their closed forms or dipoles; empty for none), `uniformField` a background H everywhere.
InducedMagnetisation solveInducedMagnetisation(const std::vector<SoftSample>& samples,
                                               const std::vector<Vector3>& sourceField, const Vector3& uniformField,
                                               const InductionSettings& settings = {});

// max_i ‖V_i·χ_eff,i‖ · Σ_{j in another group} 2/(4π|x_i − x_j|³), a bound on the spectral radius of D·T (2/(4πr³) is
// the norm of one dipole-field block). Below 1 the fixed point surely converges, at least as fast as this factor per
// step; above 1 it may still converge, but the bound no longer says so.
double fixedPointContractionBound(const std::vector<SoftSample>& samples);

// One line for a log or a diagnostic: method, outcome, iterations, residual against the tolerance.
std::string describeInduction(const InducedMagnetisation& result, const InductionSettings& settings);


// A closed form's (cuboidField, cylinderField, placed in ground by the caller), the gradient by central differences of
// `step`: truncation ∝ step², round-off ∝ 1/step. A step of 1e-5 of the distance to the source balances them near
// 1e-10 relative (3e-10 measured on a dipole's field; 3e-8 at 1e-4 of the distance).
FieldWithGradient fieldWithGradientByDifferences(const SourceField& field, const Vector3& point, double step);

struct InducedForces {
  std::vector<Vector3> forces;   // N, on each sample, in ground
  std::vector<Vector3> torques;  // N·m, on each sample about its position, in ground
};

// On each induced moment m_i (held at its solved value): F_i = μ0·∇(m_i·H_other)(x_i) and T_i = μ0·m_i × H_other(x_i),
// H_other the permanent sources' field (`source[i]`, empty for none), the uniform one and the dipole fields of the
// samples of the other groups; μ0 in SI (kVacuumPermeability). Holding m fixed under ∇ is right for a linear material:
// the energy −½μ0·m·H, with m ∝ H, has the same gradient. A sample with isotropic χ_eff feels no torque (m ∥ H_other);
// an elongated one is turned towards the field. The reaction on the permanent magnets is the caller's: on a single
// one, −Σ F_i and, about its centre c, −Σ (T_i + (x_i − c) × F_i). Forces between the samples of one group are left
// out: they are internal to the rigid body and cancel. Beyond settings.treeFrom samples the sums over the other soft
// samples go over the octree (InductionSettings): F and the field of each sample from DipoleSampleTree::interactions.
InducedForces inducedSampleForces(const std::vector<SoftSample>& samples, const std::vector<Vector3>& moments,
                                  const std::vector<FieldWithGradient>& source, const Vector3& uniformField,
                                  const InductionSettings& settings = {});

}  // namespace lodestone

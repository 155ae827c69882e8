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
// out: they are internal to the rigid body and cancel.
InducedForces inducedSampleForces(const std::vector<SoftSample>& samples, const std::vector<Vector3>& moments,
                                  const std::vector<FieldWithGradient>& source, const Vector3& uniformField);

}  // namespace lodestone

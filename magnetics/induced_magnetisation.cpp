// The induced moments as one linear system (I − D·T)·m = D·H0, solved densely, by the paper's fixed point or by
// Eigen's Krylov solvers through a matrix-free operator; the forces from the field gradients at the samples.
#include "magnetics/induced_magnetisation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <optional>

#include <Eigen/IterativeLinearSolvers>
#include <unsupported/Eigen/IterativeSolvers>

#include "magnetics/dipole_samples.h"
#include "solver/core/thread_scratch.h"

namespace lodestone {
namespace {
// The operator m ↦ (I − D·T)·m without its 3n × 3n matrix, in the form Eigen's iterative solvers accept ("Matrix-free
// solvers" in Eigen's manual): a class with its size and a product, declared to Eigen as sparse-like.
class InductionOperator;
}  // namespace
}  // namespace lodestone

namespace Eigen::internal {
template <>
struct traits<lodestone::InductionOperator> : public traits<SparseMatrix<double>> {};
}  // namespace Eigen::internal

namespace lodestone {
namespace {

using Vector = Eigen::VectorXd;

// The dipole-field block T_ij: H at x_i of m_j at x_j is T_ij·m_j, T_ij = (3 n nᵀ − I)/(4π r³), n = (x_i − x_j)/r.
Matrix3 dipoleBlock(const Vector3& separation) {
  const double r2 = separation.squaredNorm();
  const double r = std::sqrt(r2);
  return (3 * separation * separation.transpose() / r2 - Matrix3::Identity()) / (4 * std::numbers::pi * r2 * r);
}

// dipoleBlock(separation)·moment without forming the block: the direct sums' inner loop, N² times per product.
Vector3 dipoleField(const Vector3& separation, const Vector3& moment) {
  const double r2 = separation.squaredNorm();
  const double r = std::sqrt(r2);
  return (3 * separation * (separation.dot(moment) / r2) - moment) / (4 * std::numbers::pi * r2 * r);
}

Vector3 block(const Vector& v, size_t i) { return v.segment<3>(3 * static_cast<Eigen::Index>(i)); }

class InductionOperator : public Eigen::EigenBase<InductionOperator> {
 public:
  using Scalar = double;
  using RealScalar = double;
  using StorageIndex = int;
  enum { ColsAtCompileTime = Eigen::Dynamic, MaxColsAtCompileTime = Eigen::Dynamic, IsRowMajor = false };

  // With a tree, T·m is its field (DipoleSampleTree::fields); without, the direct sum.
  InductionOperator(const std::vector<SoftSample>& samples, const std::vector<Matrix3>& polarisability,
                    const DipoleSampleTree* tree = nullptr)
      : samples_(samples), polarisability_(polarisability), tree_(tree) {
    if (tree_) {
      for (const SoftSample& sample : samples_) positions_.push_back(sample.position);
    }
  }

  Eigen::Index rows() const { return 3 * static_cast<Eigen::Index>(samples_.size()); }
  Eigen::Index cols() const { return rows(); }

  template <class Rhs>
  Eigen::Product<InductionOperator, Rhs, Eigen::AliasFreeProduct> operator*(const Eigen::MatrixBase<Rhs>& x) const {
    return Eigen::Product<InductionOperator, Rhs, Eigen::AliasFreeProduct>(*this, x.derived());
  }

  // D·T·m: the field of the other groups' moments at each sample, times V·χ_eff there.
  Vector inducedBy(const Vector& moments) const {
    Vector result(rows());
    if (tree_) {
      std::vector<Vector3> unstacked(samples_.size());
      for (size_t j = 0; j < samples_.size(); ++j) unstacked[j] = block(moments, j);
      const std::vector<Vector3> fields = tree_->fields(positions_, unstacked);
      for (size_t i = 0; i < samples_.size(); ++i) {
        result.segment<3>(3 * static_cast<Eigen::Index>(i)) = polarisability_[i] * fields[i];
      }
      return result;
    }
    for (size_t i = 0; i < samples_.size(); ++i) {
      Vector3 field = Vector3::Zero();
      for (size_t j = 0; j < samples_.size(); ++j) {
        if (samples_[j].group == samples_[i].group) continue;
        field += dipoleField(samples_[i].position - samples_[j].position, block(moments, j));
      }
      result.segment<3>(3 * static_cast<Eigen::Index>(i)) = polarisability_[i] * field;
    }
    return result;
  }

  Vector apply(const Vector& moments) const { return moments - inducedBy(moments); }

 private:
  const std::vector<SoftSample>& samples_;
  const std::vector<Matrix3>& polarisability_;  // V·χ_eff of each sample
  const DipoleSampleTree* tree_;
  std::vector<Vector3> positions_;  // the samples', for the tree
};

}  // namespace
}  // namespace lodestone

namespace Eigen::internal {
template <class Rhs>
struct generic_product_impl<lodestone::InductionOperator, Rhs, SparseShape, DenseShape, GemvProduct>
    : generic_product_impl_base<lodestone::InductionOperator, Rhs,
                                generic_product_impl<lodestone::InductionOperator, Rhs>> {
  template <class Destination>
  static void scaleAndAddTo(Destination& destination, const lodestone::InductionOperator& induction, const Rhs& rhs,
                            const double& alpha) {
    destination += alpha * induction.apply(rhs);
  }
};
}  // namespace Eigen::internal

namespace lodestone {
namespace {

constexpr int kGmresRestart = 50;
constexpr double kDivergenceGrowth = 1e6;

std::vector<Vector3> unstacked(const Vector& stacked) {
  std::vector<Vector3> moments(static_cast<size_t>(stacked.size() / 3));
  for (size_t i = 0; i < moments.size(); ++i) moments[i] = block(stacked, i);
  return moments;
}

// The paper's Eq. 18: m_{k+1} = D·H0 + D·T·m_k, whose step m_{k+1} − m_k is the residual of m_k. The iterate
// returned is the one with the smallest residual, so a diverging run hands back its best.
void solveByFixedPoint(const InductionOperator& induction, const Vector& rightHandSide,
                       const InductionSettings& settings, Vector& moments, InducedMagnetisation& result) {
  const double scale = rightHandSide.norm();
  moments = Vector::Zero(rightHandSide.size());
  Vector best = moments;
  double bestResidual = 1;  // that of m = 0
  result.outcome = InductionOutcome::kIterationLimit;
  for (result.iterations = 1; result.iterations <= settings.maxIterations; ++result.iterations) {
    Vector next = rightHandSide + induction.inducedBy(moments);
    const double residual = (next - moments).norm() / scale;
    if (residual < bestResidual) {
      bestResidual = residual;
      best = moments;
    }
    if (residual <= settings.relativeTolerance) {
      result.outcome = InductionOutcome::kConverged;
      break;
    }
    if (!std::isfinite(residual) || residual > kDivergenceGrowth * bestResidual) {
      result.outcome = InductionOutcome::kDiverged;
      break;
    }
    moments = std::move(next);
  }
  result.iterations = std::min(result.iterations, settings.maxIterations);
  moments = std::move(best);
  result.relativeResidual = bestResidual;
}

// Eigen's solvers stop on their recurrence's residual, which drifts from the true one b − A·x; the true one decides,
// and a solve that stopped short of it continues from where it stopped while iterations remain.
template <class Solver>
void solveByKrylov(Solver& solver, const InductionOperator& induction, const Vector& rightHandSide,
                   const InductionSettings& settings, Vector& moments, InducedMagnetisation& result) {
  const double scale = rightHandSide.norm();
  solver.setTolerance(settings.relativeTolerance);
  solver.compute(induction);
  moments = Vector::Zero(rightHandSide.size());
  result.iterations = 0;
  for (;;) {
    solver.setMaxIterations(std::max(1, settings.maxIterations - result.iterations));
    moments = solver.solveWithGuess(rightHandSide, moments);
    result.iterations += static_cast<int>(solver.iterations()) + 1;  // + the true residual's product
    result.relativeResidual = (rightHandSide - induction.apply(moments)).norm() / scale;
    if (result.relativeResidual <= settings.relativeTolerance) {
      result.outcome = InductionOutcome::kConverged;
      return;
    }
    if (result.iterations >= settings.maxIterations || solver.iterations() == 0) {
      result.outcome = InductionOutcome::kIterationLimit;
      return;
    }
  }
}

// The base state of an InductionDifferencing scope on this thread.
struct DenseBase {
  int scopes = 0;     // open InductionDifferencing scopes
  long opened = 0;    // outermost scopes opened on this thread so far: the current one's number while scopes > 0
  bool held = false;  // the scope's first dense solve is kept
  std::vector<SoftSample> samples;
  std::vector<Matrix3> polarisability;
  Eigen::MatrixXd matrix;
  Eigen::PartialPivLU<Eigen::MatrixXd> factors;
  // The matrix's inverse, from the factors at the first update: each differenced state's update needs A⁻¹ times its
  // changed samples' unit columns (columns of A⁻¹, no work) and their changed columns (a product, where two
  // triangular solves cost twice as much).
  Eigen::MatrixXd inverse;
};

DenseBase& denseBase() { return threadScratch<DenseBase, struct InductionDenseBase>(); }

// More changed rows and columns than this part of the size: a new factorisation costs less than the update.
constexpr double kMostChangedForUpdate = 0.25;

// The samples whose position or polarisability differ from the base's; nullopt when the base cannot serve (none held,
// other samples, or too many changed for the update to pay).
std::optional<std::vector<size_t>> samplesChangedFromBase(const DenseBase& base, const std::vector<SoftSample>& samples,
                                                          const std::vector<Matrix3>& polarisability) {
  if (base.scopes == 0 || !base.held || base.samples.size() != samples.size()) return std::nullopt;
  std::vector<size_t> changed;
  for (size_t i = 0; i < samples.size(); ++i) {
    if (samples[i].group != base.samples[i].group) return std::nullopt;
    if (samples[i].position == base.samples[i].position && polarisability[i] == base.polarisability[i]) continue;
    changed.push_back(i);
  }
  const bool updatePays =
      static_cast<double>(changed.size()) <= kMostChangedForUpdate * static_cast<double>(samples.size());
  return updatePays ? std::optional(changed) : std::nullopt;
}

// Block (i, j) of (I − D·T): −P_i·T_ij between samples of different groups, 0 within a group (off the diagonal).
void setInductionBlock(Eigen::MatrixXd& matrix, const std::vector<SoftSample>& samples,
                       const std::vector<Matrix3>& polarisability, size_t i, size_t j) {
  if (i == j) return;
  const Eigen::Index row = 3 * static_cast<Eigen::Index>(i), column = 3 * static_cast<Eigen::Index>(j);
  if (samples[j].group == samples[i].group) {
    matrix.block<3, 3>(row, column).setZero();
  } else {
    matrix.block<3, 3>(row, column) = -polarisability[i] * dipoleBlock(samples[i].position - samples[j].position);
  }
}

Eigen::MatrixXd inductionMatrix(const std::vector<SoftSample>& samples, const std::vector<Matrix3>& polarisability) {
  const Eigen::Index size = 3 * static_cast<Eigen::Index>(samples.size());
  Eigen::MatrixXd matrix = Eigen::MatrixXd::Identity(size, size);
  for (size_t i = 0; i < samples.size(); ++i) {
    for (size_t j = 0; j < samples.size(); ++j) setInductionBlock(matrix, samples, polarisability, i, j);
  }
  return matrix;
}

// The base's matrix with the rows and columns of the `changed` samples computed again: block (i, j) depends on samples
// i and j only, so the others are the base's bit for bit.
Eigen::MatrixXd inductionMatrixFromBase(const DenseBase& base, const std::vector<SoftSample>& samples,
                                        const std::vector<Matrix3>& polarisability,
                                        const std::vector<size_t>& changed) {
  Eigen::MatrixXd matrix = base.matrix;
  for (const size_t c : changed) {
    for (size_t j = 0; j < samples.size(); ++j) {
      setInductionBlock(matrix, samples, polarisability, c, j);
      setInductionBlock(matrix, samples, polarisability, j, c);
    }
  }
  return matrix;
}

// `matrix`·m = `rightHandSide` from the base's inverse, when the `changed` samples alone differ from the base's: the
// change E = matrix − base lies in their rows and columns K, E = P_K·E[K,:] + (E[:,K] − P_K·E[K,K])·P_Kᵀ = U·Vᵀ, and
// Woodbury's identity solves it. False when the small system is singular.
bool solveFromBase(DenseBase& base, const std::vector<size_t>& changed, const Eigen::MatrixXd& matrix,
                   const Vector& rightHandSide, Vector& moments) {
  if (changed.empty()) {  // the base state again: its own factors, bit for bit
    moments = base.factors.solve(rightHandSide);
    return true;
  }
  if (base.inverse.size() == 0) base.inverse = base.factors.inverse();
  const Eigen::Index size = matrix.rows();
  std::vector<Eigen::Index> rows;
  for (const size_t c : changed) {
    for (Eigen::Index k = 0; k < 3; ++k) rows.push_back(3 * static_cast<Eigen::Index>(c) + k);
  }
  const Eigen::Index q = static_cast<Eigen::Index>(rows.size());
  const Vector base0 = base.inverse * rightHandSide;
  // Z = A⁻¹·U: the unit columns' part is A⁻¹'s columns K; the other part a product with E[:,K] less its rows K.
  Eigen::MatrixXd changedColumns(size, q), z(size, 2 * q), vt = Eigen::MatrixXd::Zero(2 * q, size);
  for (Eigen::Index a = 0; a < q; ++a) {
    const Eigen::Index k = rows[static_cast<size_t>(a)];
    z.col(a) = base.inverse.col(k);
    vt.row(a) = matrix.row(k) - base.matrix.row(k);
    changedColumns.col(a) = matrix.col(k) - base.matrix.col(k);
    for (const Eigen::Index other : rows) changedColumns(other, a) = 0;  // E[K,K] is in the rows' part already
    vt(q + a, k) = 1;
  }
  z.rightCols(q).noalias() = base.inverse * changedColumns;
  const Eigen::MatrixXd small = Eigen::MatrixXd::Identity(2 * q, 2 * q) + vt * z;
  const Eigen::FullPivLU<Eigen::MatrixXd> smallFactors(small);
  if (!smallFactors.isInvertible()) return false;
  moments = base0 - z * smallFactors.solve(vt * base0);
  return moments.allFinite();
}

void solveDensely(const std::vector<SoftSample>& samples, const std::vector<Matrix3>& polarisability,
                  const Vector& rightHandSide, const InductionSettings& settings, Vector& moments,
                  InducedMagnetisation& result) {
  DenseBase& base = denseBase();
  const std::optional<std::vector<size_t>> changed = samplesChangedFromBase(base, samples, polarisability);
  Eigen::MatrixXd matrix = changed ? inductionMatrixFromBase(base, samples, polarisability, *changed)
                                   : inductionMatrix(samples, polarisability);
  const auto residualOf = [&] { return (rightHandSide - matrix * moments).norm() / rightHandSide.norm(); };
  bool solved = changed && solveFromBase(base, *changed, matrix, rightHandSide, moments);
  if (solved) {
    result.relativeResidual = residualOf();
    solved = result.relativeResidual <= settings.relativeTolerance;
  }
  result.fromBase = solved;
  if (!solved) {
    Eigen::PartialPivLU<Eigen::MatrixXd> factors(matrix);
    moments = factors.solve(rightHandSide);
    result.relativeResidual = residualOf();
    if (base.scopes > 0 && !base.held) {
      base.samples = samples;
      base.polarisability = polarisability;
      base.matrix = std::move(matrix);
      base.factors = std::move(factors);
      base.inverse.resize(0, 0);
      base.held = true;
    }
  }
  result.outcome = result.relativeResidual <= settings.relativeTolerance ? InductionOutcome::kConverged
                                                                         : InductionOutcome::kInaccurate;
}

bool usesTree(const std::vector<SoftSample>& samples, const InductionSettings& settings) {
  return static_cast<int>(samples.size()) > settings.treeFrom;
}

// The tree this thread last built, and the InductionDifferencing scope whose base state it was built at.
struct TreeMemo {
  long scope = 0;  // 0: none, or a scope that has closed
  std::vector<Vector3> positions;
  std::vector<int> groups;
  double openingAngle = 0;
  std::optional<DipoleSampleTree> tree;
};

// The octree over the samples. Outside an InductionDifferencing scope it is the tree of these positions: the last one
// built if they are the same exactly (the solve's tree serves the forces), a new one otherwise, the same either way.
// Inside a scope, every state is evaluated on the tree of the scope's base state (its first), its cells and choices
// of expansions frozen (DipoleSampleTree): the differenced states' loads are then smooth functions of the positions,
// and their differences the derivatives of the approximation, not its jumps from one acceptance to another.
const DipoleSampleTree& sampleTree(const std::vector<SoftSample>& samples, const InductionSettings& settings) {
  TreeMemo& memo = threadScratch<TreeMemo, struct InductionSampleTree>();
  const long scope = InductionDifferencing::current();
  std::vector<Vector3> positions;
  std::vector<int> groups;
  for (const SoftSample& sample : samples) {
    positions.push_back(sample.position);
    groups.push_back(sample.group);
  }
  const bool sameSamples = memo.tree && groups == memo.groups && settings.treeOpeningAngle == memo.openingAngle;
  if (sameSamples && scope != 0 && memo.scope == scope) return *memo.tree;
  if (sameSamples && positions == memo.positions) {
    memo.scope = scope;  // inside a scope, the base is its first state: this one
    return *memo.tree;
  }
  memo.tree.emplace(positions, groups, settings.treeOpeningAngle);
  memo.positions = std::move(positions);
  memo.groups = std::move(groups);
  memo.openingAngle = settings.treeOpeningAngle;
  memo.scope = scope;
  return *memo.tree;
}

const char* methodName(InductionMethod method) {
  switch (method) {
    case InductionMethod::kAutomatic:
      return "automatic";
    case InductionMethod::kDense:
      return "dense LU";
    case InductionMethod::kFixedPoint:
      return "fixed point";
    case InductionMethod::kBiCgStab:
      return "BiCGSTAB";
    case InductionMethod::kGmres:
      return "GMRES";
  }
  return "?";
}

}  // namespace

InductionDifferencing::InductionDifferencing() {
  DenseBase& base = denseBase();
  if (base.scopes++ == 0) ++base.opened;
}

long InductionDifferencing::current() {
  const DenseBase& base = denseBase();
  return base.scopes > 0 ? base.opened : 0;
}

InductionDifferencing::~InductionDifferencing() {
  DenseBase& base = denseBase();
  if (--base.scopes == 0) base.held = false;
}

Matrix3 effectiveSusceptibility(const SoftSample& sample) {
  const double chi = sample.susceptibility;
  const Vector3& factors = sample.demagnetisingFactors;
  // Equal factors (a sphere, a cube): isotropic whatever the axes, and exactly so, so that a sample turned about its
  // own position is the same sample bit for bit (a Jacobian's differenced turns of a body leave it unchanged).
  if (factors.x() == factors.y() && factors.y() == factors.z()) {
    return chi / (1 + factors.x() * chi) * Matrix3::Identity();
  }
  const Vector3 principal = (chi / (1 + factors.array() * chi)).matrix();
  return sample.axes * principal.asDiagonal() * sample.axes.transpose();
}

InducedMagnetisation solveInducedMagnetisation(const std::vector<SoftSample>& samples,
                                               const std::vector<Vector3>& sourceField, const Vector3& uniformField,
                                               const InductionSettings& settings) {
  InducedMagnetisation result;
  result.method = settings.method;
  if (result.method == InductionMethod::kAutomatic) {
    result.method =
        static_cast<int>(samples.size()) <= settings.denseUpTo ? InductionMethod::kDense : InductionMethod::kGmres;
  }
  std::vector<Matrix3> polarisability(samples.size());
  Vector rightHandSide(3 * static_cast<Eigen::Index>(samples.size()));
  for (size_t i = 0; i < samples.size(); ++i) {
    polarisability[i] = samples[i].volume * effectiveSusceptibility(samples[i]);
    const Vector3 applied = uniformField + (sourceField.empty() ? Vector3::Zero() : sourceField[i]);
    rightHandSide.segment<3>(3 * static_cast<Eigen::Index>(i)) = polarisability[i] * applied;
  }
  if (rightHandSide.isZero(0)) {  // no field, no moments: every method's answer, without 0/0 in the residual
    result.moments.assign(samples.size(), Vector3::Zero());
    return result;
  }
  const bool iterative = result.method != InductionMethod::kDense;
  const DipoleSampleTree* tree = iterative && usesTree(samples, settings) ? &sampleTree(samples, settings) : nullptr;
  const InductionOperator induction(samples, polarisability, tree);
  Vector moments;
  switch (result.method) {
    case InductionMethod::kAutomatic:
    case InductionMethod::kDense:
      solveDensely(samples, polarisability, rightHandSide, settings, moments, result);
      break;
    case InductionMethod::kFixedPoint:
      solveByFixedPoint(induction, rightHandSide, settings, moments, result);
      break;
    case InductionMethod::kBiCgStab: {
      Eigen::BiCGSTAB<InductionOperator, Eigen::IdentityPreconditioner> solver;
      solveByKrylov(solver, induction, rightHandSide, settings, moments, result);
      break;
    }
    case InductionMethod::kGmres: {
      Eigen::GMRES<InductionOperator, Eigen::IdentityPreconditioner> solver;
      solver.set_restart(kGmresRestart);
      solveByKrylov(solver, induction, rightHandSide, settings, moments, result);
      break;
    }
  }
  result.moments = unstacked(moments);
  return result;
}

double fixedPointContractionBound(const std::vector<SoftSample>& samples) {
  double bound = 0;
  for (const SoftSample& sample : samples) {
    double coupling = 0;
    for (const SoftSample& other : samples) {
      if (other.group == sample.group) continue;
      const double r = (sample.position - other.position).norm();
      coupling += 2 / (4 * std::numbers::pi * r * r * r);
    }
    // The 2-norm of a symmetric matrix is its largest |eigenvalue|.
    const double polarisability = sample.volume * effectiveSusceptibility(sample).eigenvalues().cwiseAbs().maxCoeff();
    bound = std::max(bound, polarisability * coupling);
  }
  return bound;
}

std::string describeInduction(const InducedMagnetisation& result, const InductionSettings& settings) {
  const char* outcome = "converged";
  switch (result.outcome) {
    case InductionOutcome::kConverged:
      break;
    case InductionOutcome::kIterationLimit:
      outcome = "did not converge within the iteration limit";
      break;
    case InductionOutcome::kDiverged:
      outcome = "diverged (the coupling is too strong for it; use GMRES)";
      break;
    case InductionOutcome::kInaccurate:
      outcome = "is inaccurate (the system is nearly singular)";
      break;
  }
  char line[256];
  std::snprintf(
      line, sizeof line, "induced magnetisation by %s %s: %d iterations, relative residual %.3g (tolerance %.3g)",
      methodName(result.method), outcome, result.iterations, result.relativeResidual, settings.relativeTolerance);
  return line;
}

FieldWithGradient fieldWithGradientByDifferences(const SourceField& field, const Vector3& point, double step) {
  FieldWithGradient result{field(point), Matrix3::Zero()};
  for (int j = 0; j < 3; ++j) {
    const Vector3 offset = step * Vector3::Unit(j);
    result.gradient.col(j) = (field(point + offset) - field(point - offset)) / (2 * step);
  }
  return result;
}

InducedForces inducedSampleForces(const std::vector<SoftSample>& samples, const std::vector<Vector3>& moments,
                                  const std::vector<FieldWithGradient>& source, const Vector3& uniformField,
                                  const InductionSettings& settings) {
  InducedForces result{std::vector<Vector3>(samples.size()), std::vector<Vector3>(samples.size())};
  std::vector<Vector3> field(samples.size(), uniformField);
  for (size_t i = 0; i < samples.size(); ++i) {
    result.forces[i] = Vector3::Zero();
    if (source.empty()) continue;
    field[i] += source[i].field;
    // ∇(m·H) with m held: ∂/∂x_k of m_j·H_j is (gradientᵀ·m)_k.
    result.forces[i] = kVacuumPermeability * source[i].gradient.transpose() * moments[i];
  }
  if (usesTree(samples, settings)) {
    std::vector<Vector3> positions;
    for (const SoftSample& sample : samples) positions.push_back(sample.position);
    const std::vector<SampleInteraction> others =
        sampleTree(samples, settings).interactions(positions, moments, kVacuumPermeability);
    for (size_t i = 0; i < samples.size(); ++i) {
      result.forces[i] += others[i].force;
      result.torques[i] = kVacuumPermeability * moments[i].cross(field[i] + others[i].field);
    }
    return result;
  }
  // Each pair of samples once: the dipole–dipole force on one is minus that on the other, and the dipole field is even
  // in the offset, so one distance serves both fields.
  for (size_t i = 0; i < samples.size(); ++i) {
    for (size_t j = i + 1; j < samples.size(); ++j) {
      if (samples[j].group == samples[i].group) continue;
      const Vector3 offset = samples[i].position - samples[j].position;
      const double r2 = offset.squaredNorm();
      if (r2 == 0) continue;  // coincident samples have no direction between them
      const double r = std::sqrt(r2);
      const Vector3 n = offset / r;
      const double ni = n.dot(moments[i]), nj = n.dot(moments[j]);
      const double fieldScale = 1 / (4 * std::numbers::pi * r2 * r);
      field[i] += fieldScale * (3 * nj * n - moments[j]);
      field[j] += fieldScale * (3 * ni * n - moments[i]);
      const Vector3 onI = 3 * kVacuumPermeability * fieldScale / r *
                          (n * moments[i].dot(moments[j]) + moments[j] * ni + moments[i] * nj - 5 * n * ni * nj);
      result.forces[i] += onI;
      result.forces[j] -= onI;
    }
  }
  for (size_t i = 0; i < samples.size(); ++i) result.torques[i] = kVacuumPermeability * moments[i].cross(field[i]);
  return result;
}

}  // namespace lodestone

// Dense and compressed-sparse-column assembly of the iteration matrix from blocks.
#include "jacobian_assembly.h"

#include <algorithm>
#include <atomic>
#include <cassert>
#include <cmath>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <utility>

#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "sundials_check.h"

namespace lodestone {

int JacobianPattern::addBlock(const JacobianBlock& block) {
  if (block.rowOffset < 0 || block.columnOffset < 0 || block.rows <= 0 || block.columns <= 0 ||
      block.rowOffset + block.rows > size_ || block.columnOffset + block.columns > size_) {
    throw std::logic_error("Jacobian block outside the state");
  }
  blocks_.push_back(block);
  active_.push_back(1);
  nonZeros_ += static_cast<long>(block.rows) * block.columns;
  ++revision_;
  return static_cast<int>(blocks_.size()) - 1;
}

void JacobianPattern::setActive(int index, bool active) {
  if (isActive(index) == active) return;
  active_[static_cast<size_t>(index)] = active;
  const JacobianBlock& block = blocks_[static_cast<size_t>(index)];
  nonZeros_ += (active ? 1 : -1) * static_cast<long>(block.rows) * block.columns;
  ++revision_;
}

namespace {

class DenseAssembler final : public JacobianAssembler {
 public:
  explicit DenseAssembler(const JacobianPattern& pattern) : pattern_(pattern) {}

  SUNMatrix createMatrix(SUNContext context) const override {
    return checkCreated(SUNDenseMatrix(pattern_.size(), pattern_.size(), context), "SUNDenseMatrix");
  }

  void begin(SUNMatrix matrix) override {
    matrix_ = matrix;
    checkSundials(SUNMatZero(matrix), "SUNMatZero");
  }

  void addBlock(int blockIndex, const double* values) override {
    const JacobianBlock& block = pattern_.blocks()[static_cast<size_t>(blockIndex)];
    for (int column = 0; column < block.columns; ++column) {
      double* target = SUNDenseMatrix_Column(matrix_, block.columnOffset + column) + block.rowOffset;
      const double* source = values + static_cast<size_t>(column) * static_cast<size_t>(block.rows);
      for (int row = 0; row < block.rows; ++row) target[row] += source[row];
    }
  }

 private:
  const JacobianPattern& pattern_;
  SUNMatrix matrix_ = nullptr;
};

// Compressed sparse columns. The structure (column starts, row indices) is computed when the pattern changes;
// SUNMatZero wipes it before every Jacobian evaluation, so begin() copies it back — O(non-zeros), like writing
// the values.
class SparseColumnAssembler final : public JacobianAssembler {
 public:
  explicit SparseColumnAssembler(const JacobianPattern& pattern) : pattern_(pattern) { layOutStructure(); }

  void layOutStructure() {
    const JacobianPattern& pattern = pattern_;
    const int size = pattern.size();
    // Which blocks touch each column, ordered by first row, so each column's row indices come out sorted.
    std::vector<std::vector<int>> blocksInColumn(static_cast<size_t>(size));
    for (int b = 0; b < static_cast<int>(pattern.blocks().size()); ++b) {
      if (!pattern.isActive(b)) continue;
      const JacobianBlock& block = pattern.blocks()[static_cast<size_t>(b)];
      for (int c = 0; c < block.columns; ++c) blocksInColumn[static_cast<size_t>(block.columnOffset + c)].push_back(b);
    }
    columnStarts_.assign(static_cast<size_t>(size) + 1, 0);
    rowIndices_.clear();
    blockColumnStarts_.assign(pattern.blocks().size(), {});
    for (size_t b = 0; b < pattern.blocks().size(); ++b) {
      if (pattern.isActive(static_cast<int>(b))) {
        blockColumnStarts_[b].resize(static_cast<size_t>(pattern.blocks()[b].columns));
      }
    }
    for (int column = 0; column < size; ++column) {
      auto& blocks = blocksInColumn[static_cast<size_t>(column)];
      std::sort(blocks.begin(), blocks.end(), [&](int a, int b) {
        return pattern.blocks()[static_cast<size_t>(a)].rowOffset < pattern.blocks()[static_cast<size_t>(b)].rowOffset;
      });
      sunindextype next = columnStarts_[static_cast<size_t>(column)];
      int previousEnd = 0;
      for (int b : blocks) {
        const JacobianBlock& block = pattern.blocks()[static_cast<size_t>(b)];
        if (block.rowOffset < previousEnd) throw std::logic_error("overlapping Jacobian blocks");
        previousEnd = block.rowOffset + block.rows;
        blockColumnStarts_[static_cast<size_t>(b)][static_cast<size_t>(column - block.columnOffset)] = next;
        for (int row = 0; row < block.rows; ++row) rowIndices_.push_back(block.rowOffset + row);
        next += block.rows;
      }
      columnStarts_[static_cast<size_t>(column) + 1] = next;
    }
    laidOutRevision_ = pattern.revision();
  }

  SUNMatrix createMatrix(SUNContext context) const override {
    const sunindextype nonZeros = std::max<sunindextype>(1, static_cast<sunindextype>(rowIndices_.size()));
    return checkCreated(SUNSparseMatrix(pattern_.size(), pattern_.size(), nonZeros, CSC_MAT, context),
                        "SUNSparseMatrix");
  }

  void begin(SUNMatrix matrix) override {
    if (laidOutRevision_ != pattern_.revision()) {
      layOutStructure();
      const sunindextype needed = static_cast<sunindextype>(rowIndices_.size());
      if (SUNSparseMatrix_NNZ(matrix) < needed) {
        checkSundials(SUNSparseMatrix_Reallocate(matrix, needed), "SUNSparseMatrix_Reallocate");
      }
      structureChanged_ = true;
    }
    assert(SUNSparseMatrix_NNZ(matrix) >= static_cast<sunindextype>(rowIndices_.size()));
    matrix_ = matrix;
    values_ = SUNSparseMatrix_Data(matrix);
    std::memcpy(SUNSparseMatrix_IndexPointers(matrix), columnStarts_.data(), columnStarts_.size() * sizeof(sunindextype));
    std::memcpy(SUNSparseMatrix_IndexValues(matrix), rowIndices_.data(), rowIndices_.size() * sizeof(sunindextype));
    std::fill(values_, values_ + rowIndices_.size(), 0.0);
  }

  bool takeStructureChange() override { return std::exchange(structureChanged_, false); }

  void addBlock(int blockIndex, const double* values) override {
    const JacobianBlock& block = pattern_.blocks()[static_cast<size_t>(blockIndex)];
    const auto& starts = blockColumnStarts_[static_cast<size_t>(blockIndex)];
    assert(!starts.empty() && "a block set aside is written");
    for (int column = 0; column < block.columns; ++column) {
      double* target = values_ + starts[static_cast<size_t>(column)];
      const double* source = values + static_cast<size_t>(column) * static_cast<size_t>(block.rows);
      for (int row = 0; row < block.rows; ++row) target[row] += source[row];
    }
  }

 private:
  const JacobianPattern& pattern_;
  std::vector<sunindextype> columnStarts_;
  std::vector<sunindextype> rowIndices_;
  // For each block and each of its columns: where its first row's value sits in the data array.
  std::vector<std::vector<sunindextype>> blockColumnStarts_;
  long laidOutRevision_ = -1;
  bool structureChanged_ = false;
  SUNMatrix matrix_ = nullptr;
  double* values_ = nullptr;
};

}  // namespace

std::unique_ptr<JacobianAssembler> makeJacobianAssembler(JacobianStorage storage, const JacobianPattern& pattern) {
  if (storage == JacobianStorage::Dense) return std::make_unique<DenseAssembler>(pattern);
  return std::make_unique<SparseColumnAssembler>(pattern);
}

void BlockJacobian::begin(SUNMatrix) {
  const std::vector<JacobianBlock>& blocks = pattern_.blocks();
  if (valueOffsets_.size() != blocks.size()) {
    for (size_t b = valueOffsets_.size(); b < blocks.size(); ++b) {
      if (blocks[b].rowOffset == blocks[b].columnOffset && blocks[b].rows == blocks[b].columns) {
        inverseOffsets_.push_back(diagonalInverses_.size());
        factoredBySchur_.push_back(0);
        diagonalInverses_.resize(diagonalInverses_.size() +
                                 static_cast<size_t>(blocks[b].rows) * static_cast<size_t>(blocks[b].rows));
        diagonalBlocks_.push_back(static_cast<int>(b));
      }
    }
    groupBlocksByRows();
  }
  // The values are not zeroed: a block's first addBlock since begin() writes it, and the others are read as zero.
  // (Zeroing them took 4 % of the 100-sphere pile's instructions: the couplings of every contact that has ever been.)
  written_.assign(blocks.size(), 0);
}

void BlockJacobian::groupBlocksByRows() {
  // Sweep the blocks by first row: a group closes where the next block starts below none of its rows.
  const std::vector<JacobianBlock>& blocks = pattern_.blocks();
  std::vector<int> byRow(blocks.size());
  std::iota(byRow.begin(), byRow.end(), 0);
  std::stable_sort(byRow.begin(), byRow.end(), [&](int a, int b) {
    return blocks[static_cast<size_t>(a)].rowOffset < blocks[static_cast<size_t>(b)].rowOffset;
  });
  std::vector<int> groupStarts;
  int groupEnd = -1;
  for (size_t i = 0; i < byRow.size(); ++i) {
    const JacobianBlock& block = blocks[static_cast<size_t>(byRow[i])];
    if (block.rowOffset >= groupEnd) groupStarts.push_back(static_cast<int>(i));
    groupEnd = std::max(groupEnd, block.rowOffset + block.rows);
  }
  groupStarts.push_back(static_cast<int>(byRow.size()));
  // Pattern order within each group; the values are laid out in that order, so a product reads them front to back
  // (begin() zeroes them all anyway).
  rowGroupStarts_ = groupStarts;
  groupedBlocks_.clear();
  valueOffsets_.assign(blocks.size(), 0);
  size_t next = 0;
  for (size_t g = 0; g + 1 < groupStarts.size(); ++g) {
    std::sort(byRow.begin() + groupStarts[g], byRow.begin() + groupStarts[g + 1]);
    for (int i = groupStarts[g]; i < groupStarts[g + 1]; ++i) {
      const size_t b = static_cast<size_t>(byRow[static_cast<size_t>(i)]);
      valueOffsets_[b] = next;
      groupedBlocks_.push_back({blocks[b], next, static_cast<int>(b)});
      next += static_cast<size_t>(blocks[b].rows) * static_cast<size_t>(blocks[b].columns);
    }
  }
  values_.resize(next);
}

void BlockJacobian::addBlock(int blockIndex, const double* columnMajorValues) {
  const JacobianBlock& block = pattern_.blocks()[static_cast<size_t>(blockIndex)];
  double* target = values_.data() + valueOffsets_[static_cast<size_t>(blockIndex)];
  const size_t count = static_cast<size_t>(block.rows) * static_cast<size_t>(block.columns);
  char& written = written_[static_cast<size_t>(blockIndex)];
  if (written) {
    for (size_t i = 0; i < count; ++i) target[i] += columnMajorValues[i];
  } else {
    std::copy_n(columnMajorValues, count, target);
    written = 1;
  }
}

namespace {

// The driver's blocks are 13×13 (a body, body_state::kSize) and 6×13 (a contact coupling).
constexpr int kBodyBlockSize = 13;

// The least work per task for the threads (and the most a model may have and stay in one thread), so that a task
// outweighs TBB's cost of handing it out, a microsecond or two. Measured per body on the peers' pile (see
// block_jacobian_benchmark): an inversion 1.1 µs, a row group of a product (the body's block and its contacts'
// couplings) 0.13 µs, a preconditioner solve 0.03 µs.
constexpr int kInversionsPerTask = 16;
constexpr int kRowGroupsPerTask = 32;
constexpr int kSolvesPerTask = 128;

// A·x for a fixed-size column-major A, column by column: fixed-length axpys the compiler vectorises, where Eigen's
// product of a matrix of more than a few entries takes its general matrix-vector kernel (6 % of the 1000-sphere pile's
// run; block_jacobian_benchmark's product 132 -> 105 us).
template <int Rows, int Columns>
Eigen::Matrix<double, Rows, 1> timesColumns(const double* a, const double* x) {
  using Column = Eigen::Matrix<double, Rows, 1>;
  Column sum = Column::Zero();
  for (int j = 0; j < Columns; ++j) sum += Eigen::Map<const Column>(a + j * Rows) * x[j];
  return sum;
}

// y += scale · B x for one block; the shapes bodies and contacts use get fixed-size code (several times faster
// than the general path on blocks this small).
template <int Rows, int Columns>
void multiplyAddBlock(double scale, const double* values, const double* x, double* y, int rows, int columns) {
  using Matrix = Eigen::Matrix<double, Rows, Columns>;
  using Input = Eigen::Matrix<double, Columns, 1>;
  using Output = Eigen::Matrix<double, Rows, 1>;
  if constexpr (Rows != Eigen::Dynamic && Columns != Eigen::Dynamic) {
    Eigen::Map<Output>(y) += scale * timesColumns<Rows, Columns>(values, x);
  } else {
    Eigen::Map<Output>(y, rows).noalias() +=
        scale * (Eigen::Map<const Matrix>(values, rows, columns) * Eigen::Map<const Input>(x, columns));
  }
}

}  // namespace

void BlockJacobian::multiplyAdd(double scale, const double* x, double* y) const {
  const auto multiplyGroups = [&](int begin, int end) {
    for (int g = begin; g < end; ++g) {
      for (int i = rowGroupStarts_[static_cast<size_t>(g)]; i < rowGroupStarts_[static_cast<size_t>(g) + 1]; ++i) {
        const auto& [block, valueOffset, index] = groupedBlocks_[static_cast<size_t>(i)];
        if (!written_[static_cast<size_t>(index)]) continue;
        const double* values = values_.data() + valueOffset;
        const double* input = x + block.columnOffset;
        double* output = y + block.rowOffset;
        if (block.columns == kBodyBlockSize && block.rows == kBodyBlockSize) {
          multiplyAddBlock<kBodyBlockSize, kBodyBlockSize>(scale, values, input, output, block.rows, block.columns);
        } else if (block.columns == kBodyBlockSize && block.rows == 6) {
          multiplyAddBlock<6, kBodyBlockSize>(scale, values, input, output, block.rows, block.columns);
        } else {
          multiplyAddBlock<Eigen::Dynamic, Eigen::Dynamic>(scale, values, input, output, block.rows, block.columns);
        }
      }
    }
  };
  parallel_->run(static_cast<int>(rowGroupStarts_.size()) - 1, kRowGroupsPerTask, multiplyGroups);
}

namespace {

// Writes the inverse of the square block `values` (column-major, size × size) to `inverse`; false if it is singular
// or not finite. The bodies' 13×13 blocks get fixed-size code: on the peers' 1000-sphere pile the general path spent
// several times longer per block, and was a tenth of the run.
template <int Size>
bool invertBlock(const double* values, int size, double* inverse) {
  using Matrix = Eigen::Matrix<double, Size, Size>;
  const Eigen::PartialPivLU<Matrix> factors(Eigen::Map<const Matrix>(values, size, size));
  const Matrix& lu = factors.matrixLU();
  if (!lu.allFinite() || (lu.diagonal().array() == 0.0).any()) return false;
  Eigen::Map<Matrix>(inverse, size, size) = factors.inverse();
  return true;
}

// A body's 13×13 block of the iteration matrix, in the state's order (position p 3, Euler parameters e 4, velocity v 3,
// angular velocity ω 3), is [A B; C D] with A the kinematic rows' dependence on (p, e) and B on (v, ω). A body's
// kinematic equations p' = v and e' = ½·G(e)ᵀω tie p to v and e to ω only, so A = diag(A_pp, A_ee) and B = diag(B_pv,
// B_eω) — the zeros are checked, not assumed. Then the block solves through the 6×6 Schur complement of A:
//   x2 = S⁻¹(r2 − C·A⁻¹r1),  x1 = A⁻¹r1 − Y·x2,  with Y = A⁻¹B = diag(A_pp⁻¹B_pv, A_ee⁻¹B_eω) and S = D − C·Y,
// which is 3×3, 4×4 and 6×6 inversions and small products: about a third of the 13×13 inversion's arithmetic, and a
// solve cheaper than the 13×13 product. On the peers' 1000-sphere pile the 13×13 inversions were a fifth of the run.
struct BodyBlockFactors {
  // Views of the 124 values kept in the block's 169 inverse slots.
  static constexpr int kStored = 9 + 16 + 9 + 12 + 36 + 42;
  Eigen::Map<Eigen::Matrix3d> positionInverse;                      // A_pp⁻¹
  Eigen::Map<Eigen::Matrix4d> eulerInverse;                         // A_ee⁻¹
  Eigen::Map<Eigen::Matrix3d> positionByVelocity;                   // Y_pv = A_pp⁻¹ B_pv
  Eigen::Map<Eigen::Matrix<double, 4, 3>> eulerByAngularVelocity;  // Y_eω = A_ee⁻¹ B_eω
  Eigen::Map<Eigen::Matrix<double, 6, 6>> schurInverse;            // S⁻¹
  Eigen::Map<Eigen::Matrix<double, 6, 7>> loadRowsOnPose;          // C

  explicit BodyBlockFactors(double* slots)
      : positionInverse(slots), eulerInverse(slots + 9), positionByVelocity(slots + 25),
        eulerByAngularVelocity(slots + 34), schurInverse(slots + 46), loadRowsOnPose(slots + 82) {}
};

static_assert(BodyBlockFactors::kStored <= kBodyBlockSize * kBodyBlockSize, "the factors fit the inverse's slots");

using BodyMatrix = Eigen::Matrix<double, kBodyBlockSize, kBodyBlockSize>;
using BodyVector = Eigen::Matrix<double, kBodyBlockSize, 1>;

// Whether the block's kinematic rows have a body's shape (see BodyBlockFactors).
bool hasBodyKinematicShape(const BodyMatrix& block) {
  return block.block<3, 4>(0, 3).isZero(0) && block.block<4, 3>(3, 0).isZero(0) &&
         block.block<3, 3>(0, 10).isZero(0) && block.block<4, 3>(3, 7).isZero(0);
}

// The inverse of a small fixed-size matrix, false if it has none (a zero or non-finite pivot or determinant). Up to
// 4×4 by cofactors (Eigen's closed forms, a tenth of an LU's time): A_pp = cj·I and A_ee = cj·I − ½·∂(Gᵀω)/∂e, whose
// eigenvalues are cj ± i|ω|/2, are far from singular; the 6×6 Schur complement by LU with partial pivoting.
template <int Size>
bool invertSmall(const Eigen::Matrix<double, Size, Size>& matrix, Eigen::Map<Eigen::Matrix<double, Size, Size>> inverse) {
  if constexpr (Size <= 4) {
    Eigen::Matrix<double, Size, Size> result;
    double determinant = 0;
    bool invertible = false;
    matrix.computeInverseAndDetWithCheck(result, determinant, invertible, 0.0);
    if (!invertible || !std::isfinite(determinant) || !result.allFinite()) return false;
    inverse = result;
    return true;
  }
  return invertBlock<Size>(matrix.data(), Size, inverse.data());
}

// The 6×6 Schur complement's inverse through its 3×3 blocks [P Q; R T] (translation and rotation), with W = T − R·P⁻¹Q:
//   S⁻¹ = [P⁻¹ + P⁻¹Q·W⁻¹·R·P⁻¹, −P⁻¹Q·W⁻¹; −W⁻¹·R·P⁻¹, W⁻¹],
// two 3×3 inversions by cofactors and small products where Eigen's LU of a 6×6 with its inverse took a generic
// triangular solve (4 % of the 1000-sphere pile's run). Without pivoting: where P or W is singular (it is dominated by
// cj·m and cj·J for a body, so only an odd block gets there) the LU with partial pivoting takes over.
bool invertSchurComplement(const Eigen::Matrix<double, 6, 6>& schur, Eigen::Map<Eigen::Matrix<double, 6, 6>> inverse) {
  Eigen::Matrix3d translationInverse;
  if (invertSmall<3>(schur.topLeftCorner<3, 3>(), Eigen::Map<Eigen::Matrix3d>(translationInverse.data()))) {
    const Eigen::Matrix3d byRotation = translationInverse * schur.topRightCorner<3, 3>();  // P⁻¹Q
    const Eigen::Matrix3d reduced = schur.bottomRightCorner<3, 3>() - schur.bottomLeftCorner<3, 3>() * byRotation;
    Eigen::Matrix3d reducedInverse;
    if (invertSmall<3>(reduced, Eigen::Map<Eigen::Matrix3d>(reducedInverse.data()))) {
      const Eigen::Matrix3d fromTranslation = reducedInverse * schur.bottomLeftCorner<3, 3>() * translationInverse;
      inverse.bottomRightCorner<3, 3>() = reducedInverse;
      inverse.bottomLeftCorner<3, 3>() = -fromTranslation;
      inverse.topRightCorner<3, 3>() = -byRotation * reducedInverse;
      inverse.topLeftCorner<3, 3>() = translationInverse + byRotation * fromTranslation;
      return inverse.allFinite();
    }
  }
  return invertSmall<6>(schur, inverse);
}

bool factoriseBodyBlock(const BodyMatrix& block, double* slots) {
  BodyBlockFactors f(slots);
  if (!invertSmall<3>(block.block<3, 3>(0, 0), f.positionInverse)) return false;
  if (!invertSmall<4>(block.block<4, 4>(3, 3), f.eulerInverse)) return false;
  f.positionByVelocity.noalias() = f.positionInverse * block.block<3, 3>(0, 7);
  f.eulerByAngularVelocity.noalias() = f.eulerInverse * block.block<4, 3>(3, 10);
  f.loadRowsOnPose = block.block<6, 7>(7, 0);
  Eigen::Matrix<double, 6, 6> schur = block.block<6, 6>(7, 7);
  schur.leftCols<3>().noalias() -= f.loadRowsOnPose.leftCols<3>() * f.positionByVelocity;
  schur.rightCols<3>().noalias() -= f.loadRowsOnPose.rightCols<4>() * f.eulerByAngularVelocity;
  return invertSchurComplement(schur, f.schurInverse) && f.schurInverse.allFinite();
}

void solveBodyBlock(const double* slots, const double* r, double* z) {
  BodyBlockFactors f(const_cast<double*>(slots));
  const Eigen::Map<const BodyVector> rhs(r);
  Eigen::Matrix<double, 7, 1> pose;  // A⁻¹r1, then x1
  pose.head<3>().noalias() = f.positionInverse * rhs.head<3>();
  pose.tail<4>().noalias() = f.eulerInverse * rhs.segment<4>(3);
  const Eigen::Matrix<double, 6, 1> rates = rhs.tail<6>() - timesColumns<6, 7>(f.loadRowsOnPose.data(), pose.data());
  const Eigen::Matrix<double, 6, 1> x2 = timesColumns<6, 6>(f.schurInverse.data(), rates.data());
  pose.head<3>().noalias() -= f.positionByVelocity * x2.head<3>();
  pose.tail<4>().noalias() -= f.eulerByAngularVelocity * x2.tail<3>();
  Eigen::Map<BodyVector> solution(z);
  solution.head<7>() = pose;
  solution.tail<6>() = x2;
}

}  // namespace

bool BlockJacobian::factoriseDiagonalBlocks() {
  std::atomic<bool> regular = true;
  const auto invertBlocks = [&](int begin, int end) {
    for (int d = begin; d < end; ++d) {
      const size_t b = static_cast<size_t>(diagonalBlocks_[static_cast<size_t>(d)]);
      const int size = pattern_.blocks()[b].rows;
      double* values = values_.data() + valueOffsets_[b];
      if (!written_[b]) std::fill_n(values, static_cast<size_t>(size) * static_cast<size_t>(size), 0.0);  // reads as 0
      double* inverse = diagonalInverses_.data() + inverseOffsets_[static_cast<size_t>(d)];
      bool invertible = false;
      char& bySchur = factoredBySchur_[static_cast<size_t>(d)];
      bySchur = 0;
      if (size == kBodyBlockSize) {
        const Eigen::Map<const BodyMatrix> block(values);
        bySchur = hasBodyKinematicShape(block);
        invertible = bySchur ? factoriseBodyBlock(block, inverse) : invertBlock<kBodyBlockSize>(values, size, inverse);
      } else {
        invertible = invertBlock<Eigen::Dynamic>(values, size, inverse);
      }
      if (!invertible) {
        regular = false;
        return;
      }
    }
  };
  parallel_->run(static_cast<int>(diagonalBlocks_.size()), kInversionsPerTask, invertBlocks);
  return regular;
}

void BlockJacobian::solveDiagonalBlocks(const double* r, double* z) const {
  if (z != r) std::copy_n(r, pattern_.size(), z);
  const auto solveBlocks = [&](int begin, int end) {
    for (int d = begin; d < end; ++d) {
      const JacobianBlock& block = pattern_.blocks()[static_cast<size_t>(diagonalBlocks_[static_cast<size_t>(d)])];
      const int size = block.rows;
      const double* inverse = diagonalInverses_.data() + inverseOffsets_[static_cast<size_t>(d)];
      // Products evaluate into a temporary first, so z may be r.
      if (factoredBySchur_[static_cast<size_t>(d)]) {
        solveBodyBlock(inverse, r + block.rowOffset, z + block.rowOffset);
      } else if (size == kBodyBlockSize) {
        const BodyVector solution = timesColumns<kBodyBlockSize, kBodyBlockSize>(inverse, r + block.rowOffset);
        Eigen::Map<BodyVector>(z + block.rowOffset) = solution;
      } else {
        Eigen::Map<Eigen::VectorXd>(z + block.rowOffset, size) =
            Eigen::Map<const Eigen::MatrixXd>(inverse, size, size) *
            Eigen::Map<const Eigen::VectorXd>(r + block.rowOffset, size);
      }
    }
  };
  parallel_->run(static_cast<int>(diagonalBlocks_.size()), kSolvesPerTask, solveBlocks);
}

}  // namespace lodestone

// The iteration matrix ∂F/∂y + cj·∂F/∂y' as a list of dense blocks — each body's own 13×13 block now, element
// couplings between bodies later — written into dense storage (SUNDIALS' dense LU, for the smallest models) or
// compressed sparse columns (KLU) behind one interface. The structure is fixed when the model
// is built, so cost per Jacobian is proportional to the number of blocks, never to the square of the size.
#pragma once

#include <memory>
#include <vector>

#include <Eigen/Dense>

#include <sundials/sundials_context.h>
#include <sundials/sundials_matrix.h>

#include "solver/core/parallel_loop.h"

namespace lodestone {

// Rows [rowOffset, rowOffset + rows) × columns [columnOffset, columnOffset + columns) of the state.
struct JacobianBlock {
  int rowOffset = 0;
  int rows = 0;
  int columnOffset = 0;
  int columns = 0;
};

// The blocks that may be non-zero. Blocks must not overlap; each is filled by exactly one addBlock per assembly.
// Blocks may be added between assemblies (contacts between moving bodies couple them), and set aside and restored
// (a coupling that has long been zero or too weak to matter): the assembler then lays down the new structure at its
// next begin(). A block set aside keeps its index and must not be written until it is restored.
class JacobianPattern {
 public:
  explicit JacobianPattern(int size) : size_(size) {}
  int addBlock(const JacobianBlock& block);  // returns its index
  void setActive(int index, bool active);
  bool isActive(int index) const { return active_[static_cast<size_t>(index)] != 0; }
  int size() const { return size_; }
  const std::vector<JacobianBlock>& blocks() const { return blocks_; }
  long nonZeros() const { return nonZeros_; }  // of the active blocks
  // Changes whenever a block is added, set aside or restored.
  long revision() const { return revision_; }

 private:
  int size_;
  std::vector<JacobianBlock> blocks_;
  std::vector<char> active_;
  long nonZeros_ = 0;
  long revision_ = 0;
};

enum class JacobianStorage { Dense, SparseColumns };

// Writes blocks of a pattern into a SUNMatrix of the matching kind.
class JacobianAssembler {
 public:
  virtual ~JacobianAssembler() = default;
  // Creates a matrix of the right kind and size for the pattern.
  virtual SUNMatrix createMatrix(SUNContext context) const = 0;
  // Zeroes `matrix` and (for sparse columns) lays down the structure; subsequent addBlock calls write into it.
  virtual void begin(SUNMatrix matrix) = 0;
  // Adds block `blockIndex` of the pattern, given column-major. Blocks whose entries do not overlap may be added
  // from several threads at once.
  virtual void addBlock(int blockIndex, const double* columnMajorValues) = 0;
  // True once after a begin() that laid down a new structure (blocks were added to the pattern, set aside or
  // restored): a sparse factorisation must then analyse the matrix afresh.
  virtual bool takeStructureChange() { return false; }
};

std::unique_ptr<JacobianAssembler> makeJacobianAssembler(JacobianStorage storage, const JacobianPattern& pattern);

// The blocks themselves, kept as written, for the matrix-free Krylov path: a product with a vector costs one pass
// over the blocks, and the square blocks on the diagonal (each body's own) give a block-Jacobi preconditioner.
// There is no SUNMatrix: begin() takes none. Products, inversions and solves are spread over `loop`'s threads (it
// must outlive the blocks; serial without one) with each element of a result written by one thread, in the same
// order as serially: the results are the same bit for bit whatever the thread count.
class BlockJacobian final : public JacobianAssembler {
 public:
  explicit BlockJacobian(const JacobianPattern& pattern, const ParallelLoop* loop = nullptr)
      : pattern_(pattern), parallel_(loop ? loop : &serialLoop_) {}

  SUNMatrix createMatrix(SUNContext) const override { return nullptr; }
  void begin(SUNMatrix = nullptr) override;  // takes in blocks added to the pattern since; every block reads as zero
  void addBlock(int blockIndex, const double* columnMajorValues) override;

  // y += scale · A x over the blocks written since the latest begin().
  void multiplyAdd(double scale, const double* x, double* y) const;
  // Inverts every square block on the diagonal (LU with partial pivoting). False if one is singular.
  bool factoriseDiagonalBlocks();
  // z = D⁻¹ r with D the diagonal blocks inverted last; variables outside them pass through unchanged.
  void solveDiagonalBlocks(const double* r, double* z) const;

 private:
  void groupBlocksByRows();

  const JacobianPattern& pattern_;
  ParallelLoop serialLoop_{1};
  const ParallelLoop* parallel_;
  std::vector<size_t> valueOffsets_;  // where each block's column-major values start in values_, group by group
  std::vector<double> values_;
  std::vector<int> diagonalBlocks_;   // pattern indices of the square blocks on the diagonal
  // Their inverses, column-major one after another: applying an explicit 13×13 inverse is one fixed-size
  // product, several times faster than two triangular solves. A body's block whose kinematic rows have the shape a
  // body's equations give them keeps its Schur factors there instead (BodyBlockFactors in the .cpp).
  std::vector<double> diagonalInverses_;
  std::vector<size_t> inverseOffsets_;  // where each diagonal block's inverse starts in diagonalInverses_
  std::vector<char> factoredBySchur_;   // per diagonal block: Schur factors rather than an inverse
  // The blocks in groups whose rows no other group's blocks touch (a body's own block and its contact couplings),
  // each group's blocks in pattern order: a product can give each group to any thread and every element of y still
  // sums its blocks' contributions in pattern order. Group g is groupedBlocks_[rowGroupStarts_[g], [g + 1]).
  struct GroupedBlock {
    JacobianBlock block;
    size_t valueOffset;
    int index;  // in the pattern
  };
  std::vector<int> rowGroupStarts_{0};
  std::vector<GroupedBlock> groupedBlocks_;
  // Per pattern block: written since the latest begin(). A product skips the others, which are zero: a contact that
  // has ended keeps its coupling blocks in the pattern, and on the peers' piles about half of them are such.
  std::vector<char> written_;
};

}  // namespace lodestone

// Dense and compressed-sparse-column assembly of the iteration matrix from blocks.
#include "jacobian_assembly.h"

#include <algorithm>
#include <cassert>
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
  nonZeros_ += static_cast<long>(block.rows) * block.columns;
  return static_cast<int>(blocks_.size()) - 1;
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
      const JacobianBlock& block = pattern.blocks()[static_cast<size_t>(b)];
      for (int c = 0; c < block.columns; ++c) blocksInColumn[static_cast<size_t>(block.columnOffset + c)].push_back(b);
    }
    columnStarts_.assign(static_cast<size_t>(size) + 1, 0);
    rowIndices_.clear();
    blockColumnStarts_.assign(pattern.blocks().size(), {});
    for (size_t b = 0; b < pattern.blocks().size(); ++b) {
      blockColumnStarts_[b].resize(static_cast<size_t>(pattern.blocks()[b].columns));
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
    laidOutBlocks_ = pattern.blocks().size();
  }

  SUNMatrix createMatrix(SUNContext context) const override {
    const sunindextype nonZeros = std::max<sunindextype>(1, static_cast<sunindextype>(rowIndices_.size()));
    return checkCreated(SUNSparseMatrix(pattern_.size(), pattern_.size(), nonZeros, CSC_MAT, context),
                        "SUNSparseMatrix");
  }

  void begin(SUNMatrix matrix) override {
    if (laidOutBlocks_ != pattern_.blocks().size()) {
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
  size_t laidOutBlocks_ = 0;
  bool structureChanged_ = false;
  SUNMatrix matrix_ = nullptr;
  double* values_ = nullptr;
};

}  // namespace

std::unique_ptr<JacobianAssembler> makeJacobianAssembler(JacobianStorage storage, const JacobianPattern& pattern) {
  if (storage == JacobianStorage::Dense) return std::make_unique<DenseAssembler>(pattern);
  return std::make_unique<SparseColumnAssembler>(pattern);
}

}  // namespace lodestone

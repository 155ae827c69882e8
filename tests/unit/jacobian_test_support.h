// What the Jacobian tests share: a SUNDIALS sparse matrix as a dense one, and the iteration matrix by central
// differences of the whole residual, the reference each analytic block is checked against.
#pragma once

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>
#include <sunmatrix/sunmatrix_sparse.h>

#include "solver/driver/multibody_system.h"

namespace lodestone {

inline Eigen::MatrixXd denseCopyOfSparse(SUNMatrix matrix) {
  const sunindextype columns = SUNSparseMatrix_Columns(matrix);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(SUNSparseMatrix_Rows(matrix), columns);
  const sunindextype* starts = SUNSparseMatrix_IndexPointers(matrix);
  const sunindextype* rows = SUNSparseMatrix_IndexValues(matrix);
  const double* values = SUNSparseMatrix_Data(matrix);
  for (sunindextype c = 0; c < columns; ++c) {
    for (sunindextype k = starts[c]; k < starts[c + 1]; ++k) dense(rows[k], c) += values[k];
  }
  return dense;
}

// ∂F/∂y + cj·∂F/∂y' of the system's residual at (time, y, y'), by central differences: each y entry moved by
// `step`·max(1, |y|). F is linear in y', so its step (1e-6·max(1, |y'|)) is exact.
inline Eigen::MatrixXd numericIterationMatrix(MultibodySystem& system, double time, const std::vector<double>& y,
                                              const std::vector<double>& yp, double cj, double step) {
  const int size = static_cast<int>(y.size());
  Eigen::MatrixXd numeric(size, size);
  std::vector<double> plus(y.size()), minus(y.size());
  for (int column = 0; column < size; ++column) {
    const size_t c = static_cast<size_t>(column);
    for (const bool rate : {false, true}) {
      std::vector<double> shiftedY = y, shiftedRate = yp;
      std::vector<double>& shifted = rate ? shiftedRate : shiftedY;
      const double h = (rate ? 1e-6 : step) * std::max(1.0, std::fabs(shifted[c]));
      shifted[c] += h;
      system.residual(time, shiftedY.data(), shiftedRate.data(), plus.data());
      shifted[c] -= 2 * h;
      system.residual(time, shiftedY.data(), shiftedRate.data(), minus.data());
      for (int row = 0; row < size; ++row) {
        const double derivative = (plus[static_cast<size_t>(row)] - minus[static_cast<size_t>(row)]) / (2 * h);
        numeric(row, column) = rate ? numeric(row, column) + cj * derivative : derivative;
      }
    }
  }
  return numeric;
}

}  // namespace lodestone

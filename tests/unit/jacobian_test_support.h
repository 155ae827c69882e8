// What the Jacobian tests share: a model built from an inline deck and its system, a SUNDIALS sparse matrix as a dense
// one, and the iteration matrix by central differences of the whole residual, the reference each analytic block is
// checked against.
#pragma once

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <Eigen/Dense>
#include <gtest/gtest.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "elements/model_builder.h"
#include "solver/driver/multibody_system.h"
#include "solver/driver/sundials_check.h"
#include "solver/xml/deck_reader.h"

namespace lodestone {

// The model of the inline deck `text` (named `name` in messages); throws with its diagnostics when it does not build.
inline Model modelOfDeck(const std::string& text, const std::string& name) {
  Diagnostics diagnostics;
  std::optional<ModelSpec> spec = readDeckText(text, name, diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) throw std::runtime_error(diagnostics.formatAll());
  return std::move(*model);
}

// A deck of ground and a spinning body 2 (CG marker 20, turned and off its origin; marker 21 elsewhere on it) with
// `elements` from line 8 on: what the Control_Diff and control-system rows read.
inline std::string spinningBodyDeck(const std::string& elements) {
  return R"deck(<?xml version="1.0"?>
<MultiBodySystem><Model>
  <Body_Rigid id="1" isground="TRUE"/>
  <Body_Rigid id="2" mass="0.5" cg_id="20" inertia_xx="2e-3" inertia_yy="3e-3" inertia_zz="4e-3"
     v_ic_x="0.3" v_ic_y="-0.1" w_ic_x="2" w_ic_z="3"/>
  <Reference_Marker id="20" body_id="2" pos_x="0.4" pos_y="0.1" pos_z="0.2" psi="0.1" theta="0.2" phi="0.3"/>
  <Reference_Marker id="21" body_id="2" pos_x="0.6" pos_y="0.3" pos_z="0.1"/>
)deck" + elements + R"deck(
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)deck";
}

// A SUNDIALS context and the system of a model (which must outlive it), as the Jacobian tests take them.
class SystemUnderTest {
 public:
  explicit SystemUnderTest(const Model& model) : context_(newContext()), system_(model, times_) {}
  SUNContext context() const { return context_.get(); }
  MultibodySystem& system() { return system_; }

 private:
  static SUNContext newContext() {
    SUNContext context = nullptr;
    if (SUNContext_Create(nullptr, &context) != 0) throw std::runtime_error("SUNContext_Create failed");
    return context;
  }
  SundialsContextPtr context_;
  PhaseTimes times_;
  MultibodySystem system_;
};

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

// The last `rows` rows of the iteration matrix at (time, y, y') and cj: as the system's blocks write it (analytic),
// and by central differences of the residual with relative step 1e-7 (numeric).
struct IterationRows {
  Eigen::MatrixXd analytic, numeric;
  int first = 0;  // the index of their first row in the state vector
};
inline IterationRows lastIterationRows(MultibodySystem& system, SUNContext context, double time,
                                       const std::vector<double>& y, const std::vector<double>& yp, double cj,
                                       int rows) {
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr matrix(sparse->createMatrix(context));
  system.prepareJacobian(time, y.data(), yp.data());
  sparse->begin(matrix.get());
  system.writeJacobian(cj, *sparse);
  return {denseCopyOfSparse(matrix.get()).bottomRows(rows),
          numericIterationMatrix(system, time, y, yp, cj, 1e-7).bottomRows(rows),
          static_cast<int>(y.size()) - rows};
}

// Passes when the analytic rows are the numeric ones to `tolerance` times the numeric rows' largest entry; names the
// worst entry's row and column otherwise.
inline ::testing::AssertionResult agreeWithin(const IterationRows& rows, const MultibodySystem& system,
                                              double tolerance) {
  const double scale = rows.numeric.cwiseAbs().maxCoeff();
  Eigen::Index row = 0, column = 0;
  const double worst = (rows.analytic - rows.numeric).cwiseAbs().maxCoeff(&row, &column);
  if (worst < tolerance * scale) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "worst " << worst << " (limit " << tolerance * scale << ") at row "
                                       << rows.first + row << ", column " << column << " ("
                                       << system.describeVariable(static_cast<int>(column)) << "): analytic "
                                       << rows.analytic(row, column) << ", numeric " << rows.numeric(row, column);
}

}  // namespace lodestone

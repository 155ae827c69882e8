// Assembly of the iteration matrix: the whole system's Jacobian against a finite difference of the whole
// residual, dense and sparse (CSC) storage holding the same numbers, and integration with dense LU and KLU
// giving the same motion.
#include <cmath>
#include <random>

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "solver/driver/multibody_system.h"
#include "solver/driver/simulation.h"
#include "solver/driver/sundials_check.h"

namespace lodestone {
namespace {

Model spinningBodies(int count) {
  std::mt19937 random(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  Model model;
  model.gravity = {0, -9.81, 0};
  model.units.massFactor = 1.0;
  for (int i = 0; i < count; ++i) {
    RigidBody body;
    body.id = 10 + i;
    body.mass = 1.0 + i;
    body.inertia << 0.2 + 0.1 * i, 0.01, 0, 0.01, 0.3, -0.02, 0, -0.02, 0.45;
    body.position = {1.0 * i, 0, 0};
    body.eulerParameters = Vector4(1, unit(random), unit(random), unit(random)).normalized();
    body.velocity = {unit(random), unit(random), unit(random)};
    body.angularVelocity = 5 * Vector3(unit(random), unit(random), unit(random));
    model.bodies.push_back(body);
  }
  return model;
}

Eigen::MatrixXd denseCopy(SUNMatrix matrix) {
  const sunindextype size = SUNDenseMatrix_Rows(matrix);
  Eigen::MatrixXd copy(size, size);
  for (sunindextype column = 0; column < size; ++column) {
    for (sunindextype row = 0; row < size; ++row) copy(row, column) = SUNDenseMatrix_Column(matrix, column)[row];
  }
  return copy;
}

Eigen::MatrixXd denseCopyOfSparse(SUNMatrix matrix) {
  const sunindextype size = SUNSparseMatrix_Rows(matrix);
  Eigen::MatrixXd copy = Eigen::MatrixXd::Zero(size, size);
  const sunindextype* starts = SUNSparseMatrix_IndexPointers(matrix);
  const sunindextype* rows = SUNSparseMatrix_IndexValues(matrix);
  const double* values = SUNSparseMatrix_Data(matrix);
  for (sunindextype column = 0; column < size; ++column) {
    for (sunindextype k = starts[column]; k < starts[column + 1]; ++k) copy(rows[k], column) += values[k];
  }
  return copy;
}

struct Evaluation {
  std::vector<double> y, yp;
};

Evaluation somewhereOffTheSolution(const MultibodySystem& system) {
  Evaluation point;
  point.y.resize(static_cast<size_t>(system.layout().size()));
  point.yp.resize(point.y.size());
  system.initialState(point.y);
  std::mt19937 random(9);
  std::normal_distribution<double> normal;
  for (double& value : point.yp) value = normal(random);
  for (double& value : point.y) value += 0.01 * normal(random);  // Euler parameters slightly off unit length too
  return point;
}

class SundialsMatrices : public ::testing::Test {
 protected:
  void SetUp() override {
    SUNContext raw = nullptr;
    checkSundials(SUNContext_Create(nullptr, &raw), "SUNContext_Create");
    context.reset(raw);
  }
  SundialsContextPtr context;
};

TEST_F(SundialsMatrices, SystemJacobianMatchesFiniteDifferenceOfTheResidual) {
  const Model model = spinningBodies(3);
  PhaseTimes times;
  MultibodySystem system(model, times);
  const Evaluation point = somewhereOffTheSolution(system);
  const double cj = 12.5;
  const int size = system.layout().size();

  auto assembler = makeJacobianAssembler(JacobianStorage::Dense, system.jacobianPattern());
  SunMatrixPtr matrix(assembler->createMatrix(context.get()));
  system.prepareJacobian(0.0, point.y.data(), point.yp.data());
  assembler->begin(matrix.get());
  system.writeJacobian(cj, *assembler);
  const Eigen::MatrixXd analytic = denseCopy(matrix.get());

  Eigen::MatrixXd numeric(size, size);
  std::vector<double> plus(static_cast<size_t>(size)), minus(plus.size());
  const double h = 1e-6;
  for (int column = 0; column < size; ++column) {
    std::vector<double> y = point.y, yp = point.yp;
    y[static_cast<size_t>(column)] += h;
    system.residual(0.0, y.data(), yp.data(), plus.data());
    y[static_cast<size_t>(column)] -= 2 * h;
    system.residual(0.0, y.data(), yp.data(), minus.data());
    for (int row = 0; row < size; ++row) numeric(row, column) = (plus[static_cast<size_t>(row)] - minus[static_cast<size_t>(row)]) / (2 * h);
    y[static_cast<size_t>(column)] += h;
    yp[static_cast<size_t>(column)] += h;
    system.residual(0.0, y.data(), yp.data(), plus.data());
    yp[static_cast<size_t>(column)] -= 2 * h;
    system.residual(0.0, y.data(), yp.data(), minus.data());
    for (int row = 0; row < size; ++row) numeric(row, column) += cj * (plus[static_cast<size_t>(row)] - minus[static_cast<size_t>(row)]) / (2 * h);
  }
  // Central differences, h = 1e-6, entries up to ~|cj·J| ≈ 10: error well below 1e-7.
  EXPECT_LT((analytic - numeric).cwiseAbs().maxCoeff(), 1e-7);
  // Bodies do not couple (gravity depends on nothing): everything off the diagonal blocks is zero.
  for (int row = 0; row < size; ++row) {
    for (int column = 0; column < size; ++column) {
      if (row / 13 != column / 13) {
        EXPECT_EQ(analytic(row, column), 0.0);
      }
    }
  }
}

TEST_F(SundialsMatrices, DenseAndSparseStorageHoldTheSameMatrix) {
  const Model model = spinningBodies(4);
  PhaseTimes times;
  MultibodySystem system(model, times);
  const Evaluation point = somewhereOffTheSolution(system);
  EXPECT_EQ(system.jacobianPattern().nonZeros(), 4 * 13 * 13);

  auto dense = makeJacobianAssembler(JacobianStorage::Dense, system.jacobianPattern());
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr denseMatrix(dense->createMatrix(context.get()));
  SunMatrixPtr sparseMatrix(sparse->createMatrix(context.get()));
  for (int repeat = 0; repeat < 2; ++repeat) {  // the second time after SUNDIALS has wiped the structure
    checkSundials(SUNMatZero(sparseMatrix.get()), "SUNMatZero");
    system.prepareJacobian(0.0, point.y.data(), point.yp.data());
    dense->begin(denseMatrix.get());
    sparse->begin(sparseMatrix.get());
    system.writeJacobian(3.0, *dense);
    system.writeJacobian(3.0, *sparse);
    EXPECT_EQ(denseCopy(denseMatrix.get()), denseCopyOfSparse(sparseMatrix.get()));
  }
  // Row indices within each column are sorted, as KLU requires.
  const sunindextype* starts = SUNSparseMatrix_IndexPointers(sparseMatrix.get());
  const sunindextype* rows = SUNSparseMatrix_IndexValues(sparseMatrix.get());
  for (int column = 0; column < system.layout().size(); ++column) {
    for (sunindextype k = starts[column] + 1; k < starts[column + 1]; ++k) EXPECT_LT(rows[k - 1], rows[k]);
  }
}

TEST(JacobianPatternTest, RejectsBlocksOutsideTheState) {
  JacobianPattern pattern(26);
  EXPECT_NO_THROW(pattern.addBlock({13, 13, 0, 13}));
  EXPECT_THROW(pattern.addBlock({20, 13, 0, 13}), std::logic_error);
}

std::vector<double> finalState(LinearSolverKind solver) {
  SimulationOptions options;
  options.integrator.linearSolver = solver;
  Model model = spinningBodies(3);
  model.integrator.integrTol = 1e-8;
  Simulation simulation(std::move(model), options);
  EXPECT_EQ(simulation.linearSolver(), solver);
  const SegmentOutcome outcome = simulation.run({{}, 0.0, 2.0, 0.1});
  EXPECT_TRUE(outcome.completed) << outcome.reason;
  return {simulation.state().begin(), simulation.state().end()};
}

TEST(LinearSolverTest, DenseLuAndKluIntegrateTheSameMotion) {
  const std::vector<double> dense = finalState(LinearSolverKind::Dense);
  const std::vector<double> sparse = finalState(LinearSolverKind::SparseKlu);
  ASSERT_EQ(dense.size(), sparse.size());
  // Both solve the same Newton systems; they differ only by rounding in the factorisations, far below the
  // integration tolerance (1e-8).
  for (size_t i = 0; i < dense.size(); ++i) EXPECT_NEAR(dense[i], sparse[i], 1e-9 * std::max(1.0, std::fabs(dense[i]))) << i;
}

TEST(LinearSolverTest, ChoiceFollowsModelSizeUnlessRequested) {
  EXPECT_EQ(chooseLinearSolver(kDenseLinearSolverMaxBodies, std::nullopt), LinearSolverKind::Dense);
  EXPECT_EQ(chooseLinearSolver(kDenseLinearSolverMaxBodies + 1, std::nullopt), LinearSolverKind::SparseKlu);
  EXPECT_EQ(chooseLinearSolver(1000, LinearSolverKind::Dense), LinearSolverKind::Dense);
}

}  // namespace
}  // namespace lodestone

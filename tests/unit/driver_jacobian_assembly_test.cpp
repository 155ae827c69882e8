// Assembly of the iteration matrix: the whole system's Jacobian against a finite difference of the whole
// residual, dense and sparse (CSC) storage holding the same numbers, and integration with dense LU and KLU
// giving the same motion; the block storage behind the Krylov solver multiplies and preconditions with the same
// numbers, the same to the last bit on two threads as on one, and GMRES integrates the same contact motion as KLU.
#include <algorithm>
#include <cmath>
#include <random>

#include <gtest/gtest.h>
#include <nvector/nvector_serial.h>
#include <sunmatrix/sunmatrix_dense.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "elements/model_builder.h"
#include "solver/driver/multibody_system.h"
#include "solver/core/parallel_loop.h"
#include "solver/driver/simulation.h"
#include "solver/driver/sundials_check.h"
#include "solver/xml/deck_reader.h"
#include "support/solver_runs.h"
#include "jacobian_test_support.h"

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

// A block set aside leaves the compressed columns (fewer non-zeros: the factorisation's work) and comes back when
// restored; each change of structure is reported once, for a fresh analysis.
TEST_F(SundialsMatrices, ABlockSetAsideLeavesTheSparseStructureUntilRestored) {
  JacobianPattern pattern(8);
  const int first = pattern.addBlock({0, 4, 0, 4}), second = pattern.addBlock({4, 4, 4, 4});
  const int upper = pattern.addBlock({0, 2, 4, 3});
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, pattern);
  SunMatrixPtr matrix(sparse->createMatrix(context.get()));
  const Eigen::Matrix4d identity = Eigen::Matrix4d::Identity();
  Eigen::MatrixXd upperValues(2, 3);
  upperValues << 1, 2, 3, 4, 5, 6;
  const auto assemble = [&](bool withUpper) {
    sparse->begin(matrix.get());
    sparse->addBlock(first, identity.data());
    sparse->addBlock(second, identity.data());
    if (withUpper) sparse->addBlock(upper, upperValues.data());
    return denseCopyOfSparse(matrix.get());
  };
  Eigen::MatrixXd full = Eigen::MatrixXd::Identity(8, 8);
  full.block(0, 4, 2, 3) = upperValues;
  EXPECT_EQ(assemble(true), full);
  EXPECT_FALSE(sparse->takeStructureChange());

  const long revision = pattern.revision();
  pattern.setActive(upper, false);
  EXPECT_GT(pattern.revision(), revision);
  EXPECT_EQ(pattern.nonZeros(), 32);
  EXPECT_EQ(assemble(false), Eigen::MatrixXd::Identity(8, 8));
  EXPECT_TRUE(sparse->takeStructureChange());
  EXPECT_EQ(SUNSparseMatrix_IndexPointers(matrix.get())[8], 32);
  EXPECT_FALSE(sparse->takeStructureChange());

  pattern.setActive(upper, true);
  EXPECT_EQ(pattern.nonZeros(), 38);
  EXPECT_EQ(assemble(true), full);
  EXPECT_TRUE(sparse->takeStructureChange());
}

TEST(JacobianPatternTest, RejectsBlocksOutsideTheState) {
  JacobianPattern pattern(26);
  EXPECT_NO_THROW(pattern.addBlock({13, 13, 0, 13}));
  EXPECT_THROW(pattern.addBlock({20, 13, 0, 13}), std::logic_error);
}

// Three tumbling bodies over 2 s at integr_tol 1e-8.
std::vector<double> finalState(LinearSolverKind solver) {
  Model model = spinningBodies(3);
  model.integrator.integrTol = 1e-8;
  return testing::integrateWith(std::move(model), solver, 2.0, 0.1).state;
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
  EXPECT_EQ(chooseLinearSolver(kKrylovMinBodies - 1, std::nullopt), LinearSolverKind::SparseKlu);
  EXPECT_EQ(chooseLinearSolver(kKrylovMinBodies, std::nullopt), LinearSolverKind::Krylov);
  EXPECT_EQ(chooseLinearSolver(1000, LinearSolverKind::Dense), LinearSolverKind::Dense);
  // With joints: a factorisation, even when GMRES is asked for.
  EXPECT_EQ(chooseLinearSolver(kKrylovMinBodies, std::nullopt, true), LinearSolverKind::SparseKlu);
  EXPECT_EQ(chooseLinearSolver(1000, LinearSolverKind::Krylov, true), LinearSolverKind::SparseKlu);
  EXPECT_EQ(chooseLinearSolver(1000, LinearSolverKind::Krylov, false), LinearSolverKind::Krylov);
}

}  // namespace
}  // namespace lodestone

namespace lodestone {
namespace {

// The model of a deck given as text (`name` in its messages); throws with the deck's errors.
Model modelOfDeck(const std::string& text, const std::string& name) {
  Diagnostics diagnostics;
  std::optional<ModelSpec> spec = readDeckText(text, name, diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) throw std::runtime_error(diagnostics.formatAll());
  return *model;
}

// Two spheres pressed into each other and sliding, and one of them on the floor: contact couples the bodies. Both
// bodies are turned about the vertical, so that the body axes of the angular velocity states differ from ground's
// (about the vertical only: the box still rests on the sphere's top, and the tessellated sphere's pole stays there).
// `enableAnalytical`: "TRUE", or "FALSE" for the same contact between the shapes' tessellations.
// A floor (graphic 100 on ground, its top at z = 0) and a 0.1 m sphere (graphic 200 on body 2, id 20 its centre
// marker) pressed 0.5 mm into it, turned and moving: the opening of the decks below.
const std::string kFloorAndSphere = R"(<?xml version="1.0"?>
<MultiBodySystem><Model>
  <Force_Gravity grav_z="-9.81"/>
  <Body_Rigid id="1" isground="TRUE"/>
  <Reference_Marker id="11" body_id="1" pos_z="-0.5"/>
  <Post_Graphic id="100" type="BoxDefinedFromCenter" center_marker_id="11" length_x="2" length_y="2" length_z="1"/>
  <Body_Rigid id="2" mass="0.5" cg_id="20" inertia_xx="2e-3" inertia_yy="3e-3" inertia_zz="4e-3"
     v_ic_x="0.3" v_ic_y="-0.1" v_ic_z="-0.2" w_ic_x="2" w_ic_y="-1" w_ic_z="3"/>
  <Reference_Marker id="20" body_id="2" pos_z="0.0995" psi="0.3"/>
  <Post_Graphic id="200" type="Sphere" center_marker_id="20" radius="0.1"/>
)";

Model spheresInContact(const std::string& enableAnalytical = "TRUE") {
  std::string text = kFloorAndSphere + R"(
  <Body_Rigid id="3" mass="0.7" cg_id="30" inertia_xx="3e-3" inertia_yy="3e-3" inertia_zz="2e-3"
     v_ic_x="-0.4" v_ic_z="0.1" w_ic_y="4"/>
  <Reference_Marker id="30" body_id="3" pos_x="0.07" pos_y="0.05" pos_z="0.24" psi="0.4"/>
  <Post_Graphic id="300" type="BoxDefinedFromCenter" center_marker_id="30" length_x="0.1" length_y="0.12" length_z="0.1"/>
  <Force_Contact id="1" i_graphics_id="200 300" j_graphics_id="100 200" cnf_type="HUNT_CROSSLEY" stiffness="1e6"
     exponent="1.5" damping="50" cff_type="COULOMB_ON" mu_static="0.5" mu_dynamic="0.4" stiction_trans_vel="0.05"
     friction_trans_vel="0.1" enable_analytical="ANALYTICAL"/>
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)";
  text.replace(text.find("ANALYTICAL"), 10, enableAnalytical);
  return modelOfDeck(text, "contact.xml");
}

// The iteration matrix (cj = 40, the law's own friction slope) at the model's initial state as the system writes it
// (sparse), and by central differences of the whole residual; how many non-zeros writing it added to the pattern,
// and whether the assembler reported that change.
struct IterationMatrices {
  Eigen::MatrixXd analytic, numeric;
  long addedNonZeros = 0;
  bool structureChanged = false;
};
IterationMatrices iterationMatricesAtStart(const Model& model, SUNContext context) {
  PhaseTimes times;
  MultibodySystem system(model, times);
  system.setJacobianFrictionSlope(ContactEvaluator::FrictionSlope::Law);
  const int size = system.layout().size();
  std::vector<double> y(static_cast<size_t>(size)), yp(y.size(), 0.0);
  system.initialState(y);
  const double cj = 40.0;
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr matrix(sparse->createMatrix(context));
  IterationMatrices matrices;
  const long nonZerosBefore = system.jacobianPattern().nonZeros();
  system.prepareJacobian(0.0, y.data(), yp.data());
  sparse->begin(matrix.get());
  system.writeJacobian(cj, *sparse);
  matrices.structureChanged = sparse->takeStructureChange();
  matrices.addedNonZeros = system.jacobianPattern().nonZeros() - nonZerosBefore;
  matrices.analytic = denseCopyOfSparse(matrix.get());
  matrices.numeric = numericIterationMatrix(system, 0.0, y, yp, cj, 1e-7);
  return matrices;
}

// The contact blocks of `model` at its initial state against central differences of the residual.
void expectContactJacobianMatchesFiniteDifferences(const Model& model, SUNContext context);

TEST_F(SundialsMatrices, ContactJacobianMatchesFiniteDifferenceOfTheResidualAndGrowsTheSparseStructure) {
  expectContactJacobianMatchesFiniteDifferences(spheresInContact(), context.get());
}

// Mesh pairs too: their velocity columns reuse the contact points measured at the unperturbed state.
TEST_F(SundialsMatrices, MeshContactJacobianMatchesFiniteDifferenceOfTheResidual) {
  expectContactJacobianMatchesFiniteDifferences(spheresInContact("FALSE"), context.get());
}

// A force element on a body that touches nothing reads the contact's loads: 1 % of the floor's push on the sphere
// (CONTACT(1,0,4,0): Fz on I) along z and a tenth of the contact's normal velocity (CONTACT(1,6,0), which only the
// contact's measures have) along x. Its load rows depend on the sphere's state through the contact alone, a block
// the Jacobian has only when the contacts are evaluated again at each state it moves the sphere to.
TEST_F(SundialsMatrices, ForceElementReadingAContactHasItsBlockOverTheContactsBodies) {
  const Model model = modelOfDeck(kFloorAndSphere + R"deck(
  <Body_Rigid id="3" mass="0.7" cg_id="30" inertia_xx="3e-3" inertia_yy="3e-3" inertia_zz="2e-3" v_ic_x="-0.4"/>
  <Reference_Marker id="30" body_id="3" pos_x="3" pos_z="1"/>
  <Force_Contact id="1" i_graphics_id="200" j_graphics_id="100" cnf_type="HUNT_CROSSLEY" stiffness="1e6"
     exponent="1.5" damping="50" cff_type="COULOMB_ON" mu_static="0.5" mu_dynamic="0.4" stiction_trans_vel="0.05"
     friction_trans_vel="0.1"/>
  <Force_Vector_OneBody id="40" type="FORCEONLY" marker_id="30" fx_expression="0.1*CONTACT(1,6,0)"
     fz_expression="0.01*CONTACT(1,0,4,0)"/>
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)deck",
                                  "force_reads_contact.xml");
  const auto [analytic, numeric, added, changed] = iterationMatricesAtStart(model, context.get());
  // As the contact blocks above: forward differences against central ones, to 1e-4 of the largest entry.
  const double scale = numeric.cwiseAbs().maxCoeff();
  EXPECT_LT((analytic - numeric).cwiseAbs().maxCoeff(), 1e-4 * scale);
  // Body 3's load rows over body 2's states: there (its height and its vertical velocity), and in the matrix.
  const Eigen::MatrixXd coupling = numeric.block(13 + 7, 0, 6, 13);
  EXPECT_GT(coupling.cwiseAbs().maxCoeff(), 1e-4 * scale);
  EXPECT_LT((analytic.block(13 + 7, 0, 6, 13) - coupling).cwiseAbs().maxCoeff(), 1e-4 * coupling.cwiseAbs().maxCoeff());
}

// Detection keeps what it found while no graphic has moved: the residual at a state is what a fresh system gives
// there, whatever was evaluated before — a moved body is detected afresh, and a changed velocity (same positions)
// still reaches the contact's damping and friction.
TEST(ContactDetection, ResidualDoesNotDependOnTheStatesEvaluatedBefore) {
  for (const std::string analytical : {"TRUE", "FALSE"}) {
    const Model model = spheresInContact(analytical);
    PhaseTimes times;
    MultibodySystem warm(model, times);
    const size_t size = static_cast<size_t>(warm.layout().size());
    std::vector<double> y(size), yp(size, 0.0);
    warm.initialState(y);
    const auto residual = [&](MultibodySystem& system, const std::vector<double>& state) {
      std::vector<double> r(size);
      system.residual(0.0, state.data(), yp.data(), r.data());
      return r;
    };
    std::vector<double> moved = y;
    moved[2] -= 1e-4;  // body 2 (the sphere) 0.1 mm lower: deeper into the floor and the box
    std::vector<double> faster = y;
    faster[9] -= 0.05;  // body 2 moving down faster: more damping
    for (const std::vector<double>* state : {&y, &moved, &y, &faster, &y}) {
      MultibodySystem fresh(model, times);
      EXPECT_EQ(residual(warm, *state), residual(fresh, *state)) << analytical;
    }
  }
}

void expectContactJacobianMatchesFiniteDifferences(const Model& model, SUNContext context) {
  const auto [analytic, numeric, added, changed] = iterationMatricesAtStart(model, context);
  // The sphere and the box touch, so each body's load rows now depend on the other body's state.
  EXPECT_TRUE(changed);
  EXPECT_EQ(added, 2 * 6 * 13);
  // The contact blocks are forward differences with a relative step of 1.5e-8 against a central reference: with
  // contact stiffness entries up to ~1e5 here, agreement to 1e-4 of the largest entry shows the blocks are right
  // (a missing or misplaced block would differ by its whole size).
  const double scale = numeric.cwiseAbs().maxCoeff();
  EXPECT_LT((analytic - numeric).cwiseAbs().maxCoeff(), 1e-4 * scale);
  // And the coupling is really there: some entry of body 3's load rows depends on body 2's position.
  EXPECT_GT(numeric.block(13 + 7, 0, 6, 3).cwiseAbs().maxCoeff(), 1e-3 * scale);
}

// A sphere sliding on the floor at 0.5 m/s, beyond both transition velocities, without spin: μ is flat there (μ' = 0),
// so along the slip the law's slope is 0 and the chord's μd·N/v; across the slip both are μd·N/v. N = k·δ^1.5 with
// δ = 0.5 mm (the sphere does not move along its normal: no damping). The iteration matrix's entries of the sphere's
// force rows against its velocity take −∂f/∂v.
// A contact's coupling blocks stay in the pattern while it lasts and a few Jacobians after it ends (contacts come
// and go from step to step); then they leave it, so that the sparse factorisation no longer works on them, and they
// come back when the bodies touch again.
TEST_F(SundialsMatrices, AnEndedContactsCouplingsLeaveThePatternAndComeBackWithIt) {
  const Model model = spheresInContact();
  PhaseTimes times;
  MultibodySystem system(model, times);
  std::vector<double> touching(static_cast<size_t>(system.layout().size())), yp(touching.size(), 0.0);
  system.initialState(touching);
  std::vector<double> apart = touching;
  apart[13 + 2] += 1.0;  // the box (the second body) a metre above the sphere
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr matrix(sparse->createMatrix(context.get()));
  const auto jacobianAt = [&](const std::vector<double>& y) {
    system.prepareJacobian(0.0, y.data(), yp.data(), 40.0);
    sparse->begin(matrix.get());
    system.writeJacobian(40.0, *sparse);
    return sparse->takeStructureChange();
  };
  const long bodiesOnly = 2 * 13 * 13, coupled = bodiesOnly + 2 * 6 * 13;
  EXPECT_TRUE(jacobianAt(touching));
  EXPECT_EQ(system.jacobianPattern().nonZeros(), coupled);
  // Apart: the couplings are zero, and stay in the structure for the first two Jacobians.
  EXPECT_FALSE(jacobianAt(apart));
  EXPECT_FALSE(jacobianAt(apart));
  EXPECT_EQ(system.jacobianPattern().nonZeros(), coupled);
  EXPECT_TRUE(jacobianAt(apart));
  EXPECT_EQ(system.jacobianPattern().nonZeros(), bodiesOnly);
  EXPECT_EQ(SUNSparseMatrix_IndexPointers(matrix.get())[system.layout().size()], bodiesOnly);
  EXPECT_EQ(system.couplingBlocksRetired(), 2);
  // Touching again: the same blocks back, holding the same numbers as a fresh system's.
  EXPECT_TRUE(jacobianAt(touching));
  EXPECT_EQ(system.jacobianPattern().nonZeros(), coupled);
  const Eigen::MatrixXd again = denseCopyOfSparse(matrix.get());
  MultibodySystem fresh(model, times);
  auto freshSparse = makeJacobianAssembler(JacobianStorage::SparseColumns, fresh.jacobianPattern());
  SunMatrixPtr freshMatrix(freshSparse->createMatrix(context.get()));
  fresh.prepareJacobian(0.0, touching.data(), yp.data(), 40.0);
  freshSparse->begin(freshMatrix.get());
  fresh.writeJacobian(40.0, *freshSparse);
  EXPECT_EQ(again, denseCopyOfSparse(freshMatrix.get()));
}

TEST_F(SundialsMatrices, ContactJacobianTakesFrictionAlongTheSlipAsTheChordFromZeroSlip) {
  const std::string text = R"(<?xml version="1.0"?>
<MultiBodySystem><Model>
  <Body_Rigid id="1" isground="TRUE"/>
  <Reference_Marker id="11" body_id="1" pos_z="-0.5"/>
  <Post_Graphic id="100" type="BoxDefinedFromCenter" center_marker_id="11" length_x="2" length_y="2" length_z="1"/>
  <Body_Rigid id="2" mass="0.5" cg_id="20" inertia_xx="2e-3" inertia_yy="2e-3" inertia_zz="2e-3" v_ic_x="0.5"/>
  <Reference_Marker id="20" body_id="2" pos_z="0.0995"/>
  <Post_Graphic id="200" type="Sphere" center_marker_id="20" radius="0.1"/>
  <Force_Contact id="1" i_graphics_id="200" j_graphics_id="100" cnf_type="IMPACT" stiffness="1e6" exponent="1.5"
     damping="0" dmax="1e-4" cff_type="COULOMB_ON" mu_static="0.5" mu_dynamic="0.4" stiction_trans_vel="0.05"
     friction_trans_vel="0.1"/>
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)";
  const Model model = modelOfDeck(text, "sliding.xml");
  const auto iterationMatrix = [&](ContactEvaluator::FrictionSlope slope) {
    PhaseTimes times;
    MultibodySystem system(model, times);
    system.setJacobianFrictionSlope(slope);
    std::vector<double> y(static_cast<size_t>(system.layout().size())), yp(y.size(), 0.0);
    system.initialState(y);
    auto dense = makeJacobianAssembler(JacobianStorage::Dense, system.jacobianPattern());
    SunMatrixPtr matrix(dense->createMatrix(context.get()));
    system.prepareJacobian(0.0, y.data(), yp.data());
    dense->begin(matrix.get());
    system.writeJacobian(40.0, *dense);
    return denseCopy(matrix.get());
  };
  const Eigen::MatrixXd chord = iterationMatrix(ContactEvaluator::FrictionSlope::Chord);
  const Eigen::MatrixXd law = iterationMatrix(ContactEvaluator::FrictionSlope::Law);
  const double normalForce = 1e6 * std::pow(5e-4, 1.5);
  const double slope = 0.4 * normalForce / 0.5;  // μd·N/v: 8.94 N·s/m
  const int vx = body_state::kVelocity, vy = vx + 1;  // the sphere's states and its force rows
  // Forward differences of a step 1.5e-8 relative: agreement to 1e-5 of the slope.
  EXPECT_NEAR(chord(vx, vx) - law(vx, vx), slope, 1e-5 * slope);
  EXPECT_NEAR(chord(vy, vy), law(vy, vy), 1e-5 * slope);
  EXPECT_NEAR(law(vy, vy) - 40.0 * 0.5, slope, 1e-5 * slope);
}

TEST_F(SundialsMatrices, BlockStorageMultipliesAndPreconditionsWithTheAssembledMatrix) {
  const Model model = spheresInContact();
  PhaseTimes times;
  MultibodySystem system(model, times);
  const int size = system.layout().size();
  std::vector<double> y(static_cast<size_t>(size)), yp(y.size(), 0.0);
  system.initialState(y);
  const double cj = 40.0, laterCj = 55.0;

  system.prepareJacobian(0.0, y.data(), yp.data());
  auto dense = makeJacobianAssembler(JacobianStorage::Dense, system.jacobianPattern());
  SunMatrixPtr matrix(dense->createMatrix(context.get()));
  BlockJacobian blocks(system.jacobianPattern());
  dense->begin(matrix.get());
  system.writeJacobian(laterCj, *dense);
  const Eigen::MatrixXd atLaterCj = denseCopy(matrix.get());
  dense->begin(matrix.get());
  system.writeJacobian(cj, *dense);
  const Eigen::MatrixXd atCj = denseCopy(matrix.get());
  blocks.begin();
  system.writeJacobian(cj, blocks);

  std::mt19937 random(3);
  std::uniform_real_distribution<double> unit(-1, 1);
  Eigen::VectorXd v(size);
  for (int i = 0; i < size; ++i) v(i) = unit(random);
  // A(cj)·v from the blocks, and A(cj') = A(cj) + (cj' − cj)·∂F/∂y' with the system's product by ∂F/∂y'.
  Eigen::VectorXd product = Eigen::VectorXd::Zero(size);
  blocks.multiplyAdd(1.0, v.data(), product.data());
  EXPECT_LT((product - atCj * v).cwiseAbs().maxCoeff(), 1e-12 * (atCj * v).cwiseAbs().maxCoeff());
  system.multiplyAddRateJacobian(laterCj - cj, v.data(), product.data());
  EXPECT_LT((product - atLaterCj * v).cwiseAbs().maxCoeff(), 1e-12 * (atLaterCj * v).cwiseAbs().maxCoeff());

  // The preconditioner inverts each body's own 13×13 block of A(cj), also in place (z = r).
  ASSERT_TRUE(blocks.factoriseDiagonalBlocks());
  Eigen::MatrixXd blockDiagonal = Eigen::MatrixXd::Zero(size, size);
  for (int body = 0; body < system.layout().bodyCount(); ++body) {
    const int offset = system.layout().bodyOffset(body);
    blockDiagonal.block(offset, offset, 13, 13) = atCj.block(offset, offset, 13, 13);
  }
  Eigen::VectorXd r = blockDiagonal * v, z(size);
  blocks.solveDiagonalBlocks(r.data(), z.data());
  EXPECT_LT((z - v).cwiseAbs().maxCoeff(), 1e-9);
  blocks.solveDiagonalBlocks(r.data(), r.data());
  EXPECT_LT((r - v).cwiseAbs().maxCoeff(), 1e-9);
}

// Blocks shaped like a pile's: 300 bodies' 13×13 blocks, 6×13 contact couplings added between assemblies in no
// particular order, and blocks of other sizes, one of them straddling two bodies' rows (their rows then go to one
// thread together).
struct PileOfBlocks {
  static constexpr int kBodies = 300;
  JacobianPattern pattern{13 * kBodies + 5};
  std::mt19937 random{11};

  PileOfBlocks() {
    for (int body = 0; body < kBodies; ++body) pattern.addBlock({13 * body, 13, 13 * body, 13});
    pattern.addBlock({13 * kBodies, 5, 13 * kBodies, 5});
    pattern.addBlock({13 * 7 + 10, 8, 13 * 40, 13});
    addCouplings(200);
  }
  void addCouplings(int count) {
    std::uniform_int_distribution<int> body(0, kBodies - 1);
    std::vector<std::pair<int, int>> taken;
    for (const JacobianBlock& block : pattern.blocks()) taken.emplace_back(block.rowOffset, block.columnOffset);
    for (int added = 0; added < count;) {
      const int row = body(random), column = body(random);
      if (row == column || std::find(taken.begin(), taken.end(), std::pair(13 * row + 7, 13 * column)) != taken.end()) {
        continue;
      }
      taken.emplace_back(13 * row + 7, 13 * column);
      pattern.addBlock({13 * row + 7, 6, 13 * column, 13});
      ++added;
    }
  }
  // Random values, with the diagonal blocks made comfortably invertible; body `badBody`'s own block all `bad`.
  std::vector<Eigen::MatrixXd> values(int badBody = -1, double bad = 0) const {
    std::mt19937 generator(4);
    std::uniform_real_distribution<double> unit(-1, 1);
    std::vector<Eigen::MatrixXd> blocks;
    for (size_t b = 0; b < pattern.blocks().size(); ++b) {
      const JacobianBlock& block = pattern.blocks()[b];
      Eigen::MatrixXd& entries = blocks.emplace_back(block.rows, block.columns);
      for (double& entry : entries.reshaped()) entry = unit(generator);
      if (block.rowOffset == block.columnOffset) entries.diagonal().array() += 10.0;
      if (static_cast<int>(b) == badBody) entries.setConstant(bad);
    }
    return blocks;
  }
  void write(BlockJacobian& blocks, const std::vector<Eigen::MatrixXd>& values) const {
    blocks.begin();
    for (size_t b = 0; b < values.size(); ++b) blocks.addBlock(static_cast<int>(b), values[b].data());
  }
  // y += scale · A x block by block in pattern order, each shape as BlockJacobian multiplies it.
  template <int Rows, int Columns>
  static void multiplyAddBlock(double scale, const Eigen::MatrixXd& values, const double* x, double* y) {
    using Output = Eigen::Matrix<double, Rows, 1>;
    using Input = Eigen::Matrix<double, Columns, 1>;
    if constexpr (Rows != Eigen::Dynamic && Columns != Eigen::Dynamic) {
      Output sum = Output::Zero();  // column by column
      for (int j = 0; j < Columns; ++j) sum += values.col(j) * x[j];
      Eigen::Map<Output>(y) += scale * sum;
    } else {
      Eigen::Map<Output>(y, values.rows()).noalias() +=
          scale * (Eigen::Map<const Eigen::Matrix<double, Rows, Columns>>(values.data(), values.rows(), values.cols()) *
                   Eigen::Map<const Input>(x, values.cols()));
    }
  }
  Eigen::VectorXd multiplyAddInPatternOrder(const std::vector<Eigen::MatrixXd>& values, double scale,
                                            const Eigen::VectorXd& x, Eigen::VectorXd y) const {
    for (size_t b = 0; b < values.size(); ++b) {
      const JacobianBlock& block = pattern.blocks()[b];
      const double* input = x.data() + block.columnOffset;
      double* output = y.data() + block.rowOffset;
      if (block.rows == 13 && block.columns == 13) {
        multiplyAddBlock<13, 13>(scale, values[b], input, output);
      } else if (block.rows == 6 && block.columns == 13) {
        multiplyAddBlock<6, 13>(scale, values[b], input, output);
      } else {
        multiplyAddBlock<Eigen::Dynamic, Eigen::Dynamic>(scale, values[b], input, output);
      }
    }
    return y;
  }
};

TEST(BlockJacobianTest, TwoThreadsMultiplyInvertAndSolveBitForBitAsOne) {
  PileOfBlocks pile;
  const ParallelLoop twoThreads(2);
  BlockJacobian serial(pile.pattern), parallel(pile.pattern, &twoThreads);
  std::mt19937 random(8);
  std::uniform_real_distribution<double> unit(-1, 1);
  Eigen::VectorXd x(pile.pattern.size());
  for (double& value : x) value = unit(random);
  for (int assembly = 0; assembly < 2; ++assembly) {
    const std::vector<Eigen::MatrixXd> values = pile.values();
    pile.write(serial, values);
    pile.write(parallel, values);
    Eigen::VectorXd one = x, two = x;
    serial.multiplyAdd(0.7, x.data(), one.data());
    parallel.multiplyAdd(0.7, x.data(), two.data());
    // Every element sums its blocks in pattern order, however the rows were shared out.
    EXPECT_EQ(one, pile.multiplyAddInPatternOrder(values, 0.7, x, x));
    EXPECT_EQ(one, two);

    ASSERT_TRUE(serial.factoriseDiagonalBlocks());
    ASSERT_TRUE(parallel.factoriseDiagonalBlocks());
    serial.solveDiagonalBlocks(x.data(), one.data());
    parallel.solveDiagonalBlocks(x.data(), two.data());
    EXPECT_EQ(one, two);
    two = x;
    parallel.solveDiagonalBlocks(two.data(), two.data());
    EXPECT_EQ(one, two);
    pile.addCouplings(100);  // the next assembly takes in new couplings and groups the rows afresh
  }
}

TEST(BlockJacobianTest, TwoThreadsReportASingularOrNonFiniteBodyBlockAsOneDoes) {
  PileOfBlocks pile;
  const ParallelLoop twoThreads(2);
  BlockJacobian serial(pile.pattern), parallel(pile.pattern, &twoThreads);
  for (const double bad : {0.0, std::nan("")}) {
    for (BlockJacobian* blocks : {&serial, &parallel}) {
      pile.write(*blocks, pile.values(250, bad));  // body 250's own block
      EXPECT_FALSE(blocks->factoriseDiagonalBlocks()) << bad;
      pile.write(*blocks, pile.values());  // and the next Jacobian, a regular one, factorises
      EXPECT_TRUE(blocks->factoriseDiagonalBlocks()) << bad;
    }
  }
}

// A body's own block whose kinematic rows tie p to v and e to ω only (as a body's equations do) is solved through
// its 6×6 Schur complement; any other block through its inverse. Both solve the block to round-off, and a block whose
// Schur complement is singular (so is the block: det = det(A)·det(S)) is reported.
TEST(BlockJacobianTest, BlocksNotWrittenSinceBeginReadAsZeroAndBlocksWrittenTwiceAddUp) {
  // begin() does not zero the values: a block's first addBlock writes it, later ones add, and a block left out (the
  // couplings of a contact that has ended) must weigh nothing in a product and make its diagonal block singular.
  PileOfBlocks pile;
  BlockJacobian blocks(pile.pattern);
  const std::vector<Eigen::MatrixXd> values = pile.values();
  pile.write(blocks, values);  // every block, so that stale values would show below
  std::vector<Eigen::MatrixXd> next = pile.values(-1, 0);
  const size_t coupling = pile.pattern.blocks().size() - 1, twice = 3;
  next[coupling].setZero();                  // left out
  blocks.begin();
  for (size_t b = 0; b < next.size(); ++b) {
    if (b != coupling) blocks.addBlock(static_cast<int>(b), next[b].data());
  }
  blocks.addBlock(static_cast<int>(twice), next[twice].data());  // body 3's block once more
  std::vector<Eigen::MatrixXd> expected = next;
  expected[twice] *= 2;
  Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(pile.pattern.size(), -1, 1);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(pile.pattern.size());
  blocks.multiplyAdd(1.0, x.data(), y.data());
  Eigen::VectorXd reference = Eigen::VectorXd::Zero(pile.pattern.size());
  for (size_t b = 0; b < expected.size(); ++b) {
    const JacobianBlock& block = pile.pattern.blocks()[b];
    reference.segment(block.rowOffset, block.rows) += expected[b] * x.segment(block.columnOffset, block.columns);
  }
  EXPECT_LT((y - reference).lpNorm<Eigen::Infinity>(), 1e-12);
  // A body's own block left out is zero, so singular.
  blocks.begin();
  for (size_t b = 1; b < values.size(); ++b) blocks.addBlock(static_cast<int>(b), values[b].data());
  EXPECT_FALSE(blocks.factoriseDiagonalBlocks());
}

TEST(BlockJacobianTest, BodyShapedBlocksSolveThroughTheirSchurComplementToRoundOff) {
  JacobianPattern pattern(13 * 3);
  for (int body = 0; body < 3; ++body) pattern.addBlock({13 * body, 13, 13 * body, 13});
  std::mt19937 generator(5);
  std::uniform_real_distribution<double> unit(-1, 1);
  const auto bodyShaped = [&](double cj) {
    Eigen::MatrixXd block(13, 13);
    for (double& entry : block.reshaped()) entry = unit(generator);
    block.diagonal().array() += 10.0;
    block.block(0, 3, 3, 4).setZero();   // p' = v: position rows see neither e
    block.block(0, 10, 3, 3).setZero();  //   nor ω
    block.block(3, 0, 4, 3).setZero();   // e' = ½Gᵀω: Euler rows see neither p
    block.block(3, 7, 4, 3).setZero();   //   nor v
    block.block(0, 0, 3, 3) = cj * Eigen::Matrix3d::Identity();
    block.block(0, 7, 3, 3) = -Eigen::Matrix3d::Identity();
    return block;
  };
  std::vector<Eigen::MatrixXd> values = {bodyShaped(1e3), Eigen::MatrixXd::Random(13, 13), bodyShaped(2.5)};
  values[1].diagonal().array() += 10.0;
  BlockJacobian blocks(pattern);
  const auto write = [&] {
    blocks.begin();
    for (int b = 0; b < 3; ++b) blocks.addBlock(b, values[static_cast<size_t>(b)].data());
  };
  write();
  ASSERT_TRUE(blocks.factoriseDiagonalBlocks());
  Eigen::VectorXd r(39);
  for (double& entry : r) entry = unit(generator);
  Eigen::VectorXd z(39);
  blocks.solveDiagonalBlocks(r.data(), z.data());
  for (int b = 0; b < 3; ++b) {
    const Eigen::VectorXd expected = values[static_cast<size_t>(b)].fullPivLu().solve(r.segment(13 * b, 13));
    EXPECT_LT((z.segment(13 * b, 13) - expected).cwiseAbs().maxCoeff(), 1e-13 * expected.cwiseAbs().maxCoeff())
        << "body " << b;
  }
  // In place too.
  Eigen::VectorXd inPlace = r;
  blocks.solveDiagonalBlocks(inPlace.data(), inPlace.data());
  EXPECT_EQ(inPlace, z);

  // Load rows all zero (C = 0, D = 0): S = 0, and the block is singular.
  values[2].bottomRows(6).setZero();
  write();
  EXPECT_FALSE(blocks.factoriseDiagonalBlocks());
}

// The spheres in contact over 0.3 s at the given integr_tol.
testing::SolverRun contactRun(LinearSolverKind solver, double integrTol) {
  Model model = spheresInContact();
  model.integrator.integrTol = integrTol;
  return testing::integrateWith(std::move(model), solver, 0.3, 0.1);
}

TEST(LinearSolverTest, KrylovAndKluIntegrateTheSameContactMotion) {
  // GMRES stops at a fraction of Newton's tolerance, so the two runs take different steps; each is compared with a
  // run a thousand times tighter. Their errors at integr_tol 1e-8 (1e-8 per step over a few hundred steps, and
  // three contacts that begin and end): measured 2.4e-6 (KLU) and 5.4e-6 (GMRES) at most. (At 1e-7 the two differ
  // by up to 5e-5 and each misses the reference by up to 1e-4: less than a hundredth of the error allowed at 1e-5,
  // 6.9e-3, but how much depends on where each restarts at the located contact events.)
  const std::vector<double> reference = contactRun(LinearSolverKind::SparseKlu, 1e-11).state;
  const testing::SolverRun kluRun = contactRun(LinearSolverKind::SparseKlu, 1e-8);
  const testing::SolverRun krylovRun = contactRun(LinearSolverKind::Krylov, 1e-8);
  for (const std::vector<double>* run : {&kluRun.state, &krylovRun.state}) {
    ASSERT_EQ(run->size(), reference.size());
    for (size_t i = 0; i < reference.size(); ++i) {
      EXPECT_NEAR((*run)[i], reference[i], 1e-5 * std::max(1.0, std::fabs(reference[i])))
          << (run == &kluRun.state ? "KLU " : "GMRES ") << i;
    }
  }
  EXPECT_GT(krylovRun.statistics.linearIterations, 0);
  EXPECT_EQ(kluRun.statistics.linearIterations, 0);
}


// ---- force elements ------------------------------------------------------------------------------------------------

// Three moving bodies joined by every force element, whose expressions also read a fourth body (4) through its
// markers and through a Reference_Variable: body 4 receives no load, but the loads on bodies 2 and 3 depend on it.
Model bodiesJoinedByForces() {
  const std::string text = R"deck(<?xml version="1.0"?>
<MultiBodySystem><Model>
  <Body_Rigid id="1" isground="TRUE"/>
  <Reference_Marker id="10" body_id="1"/>
  <Body_Rigid id="2" mass="1" cg_id="20" inertia_xx="0.2" inertia_yy="0.3" inertia_zz="0.4"
     v_ic_x="0.3" v_ic_y="-0.1" w_ic_x="1" w_ic_y="-2" w_ic_z="3"/>
  <Reference_Marker id="20" body_id="2" pos_x="0.1" pos_y="0.2"/>
  <Reference_Marker id="21" body_id="2" pos_x="0.5" pos_y="0.25" pos_z="0.1" psi="0.3" theta="0.2"/>
  <Body_Rigid id="3" mass="2" cg_id="30" inertia_xx="0.5" inertia_yy="0.4" inertia_zz="0.3"
     v_ic_z="0.4" w_ic_x="-1" w_ic_z="2"/>
  <Reference_Marker id="30" body_id="3" pos_x="1" pos_y="0.3" pos_z="0.2" psi="0.5"/>
  <Reference_Marker id="31" body_id="3" pos_x="0.6" pos_y="0.3" pos_z="0.15" psi="0.4" theta="0.1"/>
  <Body_Rigid id="4" mass="1.5" cg_id="40" inertia_xx="0.3" inertia_yy="0.3" inertia_zz="0.3"
     v_ic_x="-0.2" w_ic_y="1.5"/>
  <Reference_Marker id="40" body_id="4" pos_y="-1" theta="0.7"/>
  <Reference_Variable id="1" expr="VX(40, 10) + 2*WZ(40)"/>
  <Force_Bushing id="1" i_marker_id="21" j_marker_id="31" kx="100" ky="200" kz="300" ktx="10" kty="20" ktz="30"
     cx="1" cy="2" cz="3" ctx="0.1" cty="0.2" ctz="0.3" preload_x="1" preload_tz="-0.5"/>
  <Force_SpringDamper id="2" type="TRANSLATIONAL" i_marker_id="20" j_marker_id="30" stiffness="50" damping="2"
     length="0.5" preload="3"/>
  <Force_SpringDamper id="3" type="ROTATIONAL" i_marker_id="21" j_marker_id="31" stiffness="5" damping="0.5"
     length="0.1" preload="0.2"/>
  <Force_Vector_TwoBody id="4" type="ForceAndTorque" i_marker_id="21" j_floating_marker_id="31" ref_marker_id="40"
     fx_expression="2*DX(40,20) + VARVAL(1)" fy_expression="VY(21,31)" fz_expression="1"
     tx_expression="0" ty_expression="0.5" tz_expression="WZ(40)"/>
  <Force_Scalar_TwoBody id="5" type="FORCE" i_marker_id="30" j_marker_id="20" val_expression="3*DM(30,20) + VZ(40)"/>
  <Force_Scalar_TwoBody id="6" type="FORCE" is_action_only="TRUE" i_marker_id="20" j_marker_id="40" val="2"/>
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)deck";
  return modelOfDeck(text, "forces.xml");
}

// The force elements' blocks (forward differences over the states of the bodies each element reads) against
// central differences of the whole residual. Fails when an element's dependence on a body it reads only through
// an expression or a variable is missing (body 4's columns), or when a block lands on the wrong rows.
TEST_F(SundialsMatrices, ForceElementJacobianMatchesFiniteDifferenceOfTheResidual) {
  const Model model = bodiesJoinedByForces();
  PhaseTimes times;
  MultibodySystem system(model, times);
  const Evaluation point = somewhereOffTheSolution(system);
  const double cj = 25.0;

  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr matrix(sparse->createMatrix(context.get()));
  system.prepareJacobian(0.3, point.y.data(), point.yp.data());
  sparse->begin(matrix.get());
  system.writeJacobian(cj, *sparse);
  const Eigen::MatrixXd analytic = denseCopyOfSparse(matrix.get());

  const Eigen::MatrixXd numeric = numericIterationMatrix(system, 0.3, point.y, point.yp, cj, 1e-6);
  // Forward differences with a relative step of 1.5e-8 against central ones: agreement to 1e-6 of the largest
  // entry (a missing block would differ by its whole size, here up to ~3e2).
  const double scale = numeric.cwiseAbs().maxCoeff();
  EXPECT_LT((analytic - numeric).cwiseAbs().maxCoeff(), 1e-6 * scale);
  // Body 4 (states 26..38) moves the loads on bodies 2 and 3 (load rows 7..12 and 20..25) through the vector force's
  // reference axes and expressions, the variable and the scalar force's expression.
  EXPECT_GT(numeric.block(7, 26, 6, 13).cwiseAbs().maxCoeff(), 1e-2);
  EXPECT_GT(numeric.block(13 + 7, 26, 6, 13).cwiseAbs().maxCoeff(), 1e-2);
  // Body 4 itself receives nothing: its load rows depend on no other body.
  EXPECT_EQ(analytic.block(26 + 7, 0, 6, 26).cwiseAbs().maxCoeff(), 0.0);
}

}  // namespace
}  // namespace lodestone

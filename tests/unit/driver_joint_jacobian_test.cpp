// Joints in the iteration matrix: for every joint type, the analytic and forward-difference blocks the
// ConstraintSystem writes against central differences of the whole residual, at a moving state with reactions.
#include <cmath>
#include <random>

#include <gtest/gtest.h>
#include <sunmatrix/sunmatrix_sparse.h>

#include "elements/model_builder.h"
#include "solver/driver/multibody_system.h"
#include "solver/driver/sundials_check.h"
#include "solver/xml/deck_reader.h"
#include "jacobian_test_support.h"

namespace lodestone {
namespace {

// Two moving bodies: body 2 hangs from ground by joint 1 (`groundJoint`), body 3 from body 2 by joint 2 (`type`).
// The markers are placed so that every type is satisfied in the deck's configuration, with axes that are not
// the ground axes.
Model twoBodies(const std::string& groundJoint, const std::string& type, const std::string& extra = "",
                const std::string& more = "") {
  const std::string text = R"(<?xml version="1.0"?>
<MultiBodySystem><Model>
  <Force_Gravity grav_z="-9.81"/>
  <Body_Rigid id="1" isground="TRUE"/>
  <Reference_Marker id="10" body_id="1" pos_x="0.1" pos_y="0.2" pos_z="0.3" psi="0.3" theta="0.4" phi="0.5"/>
  <Body_Rigid id="2" mass="0.5" cg_id="20" inertia_xx="2e-3" inertia_yy="3e-3" inertia_zz="4e-3"
     v_ic_x="0.3" v_ic_y="-0.1" v_ic_z="-0.2" w_ic_x="2" w_ic_y="-1" w_ic_z="3"/>
  <Reference_Marker id="20" body_id="2" pos_x="0.4" pos_y="0.1" pos_z="0.2" psi="0.1" theta="0.2" phi="0.3"/>
  <Reference_Marker id="21" body_id="2" pos_x="0.1" pos_y="0.2" pos_z="0.3" psi="0.3" theta="0.4" phi="0.5"/>
  <Reference_Marker id="22" body_id="2" pos_x="0.6" pos_y="-0.1" pos_z="0.4" psi="-0.2" theta="0.7" phi="0.1"/>
  <Body_Rigid id="3" mass="0.7" cg_id="30" inertia_xx="3e-3" inertia_yy="3e-3" inertia_zz="2e-3"
     v_ic_x="-0.4" v_ic_z="0.1" w_ic_y="4"/>
  <Reference_Marker id="30" body_id="3" pos_x="0.9" pos_y="0.1" pos_z="0.5" psi="1" theta="0.3" phi="-0.4"/>
  <Reference_Marker id="31" body_id="3" pos_x="0.65" pos_y="-0.12" pos_z="0.43" psi="0.5" theta="1.9" phi="-0.8"/>
  <Constraint_Joint id="1" type=")" + groundJoint + R"(" i_marker_id="21" j_marker_id="10"/>
  <Constraint_Joint id="2" type=")" + type + R"(" i_marker_id="31" j_marker_id="22" )" + extra + R"(/>
  )" + more + R"(
</Model><Command><Simulate end_time="1" print_interval="0.1"/></Command></MultiBodySystem>
)";
  Diagnostics diagnostics;
  std::optional<ModelSpec> spec = readDeckText(text, "joints.xml", diagnostics);
  std::optional<Model> model = spec ? buildModel(*spec, diagnostics) : std::nullopt;
  if (!model) throw std::runtime_error(diagnostics.formatAll());
  return *model;
}

void expectJacobianMatchesFiniteDifferences(const Model& model) {
  SUNContext context = nullptr;
  ASSERT_EQ(SUNContext_Create(nullptr, &context), 0);
  SundialsContextPtr contextOwner(context);
  PhaseTimes times;
  MultibodySystem system(model, times);
  const int size = system.layout().size();
  const int bodyStates = system.layout().bodyStateSize();
  ASSERT_GT(size, bodyStates);
  std::vector<double> y(static_cast<size_t>(size)), yp(y.size(), 0.0);
  system.initialState(y);
  // Reactions λ of a few newtons; μ stays zero, as on every solution (its position derivatives are left out).
  std::mt19937 random(7);
  std::uniform_real_distribution<double> draw(-5, 5);
  const int multipliers = system.layout().multiplierCount();
  for (int k = 0; k < multipliers; ++k) {
    // Each joint's λ come first, then its μ: only the first half of each joint's columns is λ. Setting every
    // multiplier and then clearing the μ keeps this test independent of that order.
    y[static_cast<size_t>(bodyStates + k)] = draw(random);
  }
  for (int k = 0; k < multipliers; ++k) {
    if (system.describeVariable(bodyStates + k).find("stabilising") != std::string::npos) {
      y[static_cast<size_t>(bodyStates + k)] = 0;
    }
  }
  const double cj = 40.0;
  auto sparse = makeJacobianAssembler(JacobianStorage::SparseColumns, system.jacobianPattern());
  SunMatrixPtr matrix(sparse->createMatrix(context));
  system.prepareJacobian(0.0, y.data(), yp.data());
  sparse->begin(matrix.get());
  system.writeJacobian(cj, *sparse);
  const Eigen::MatrixXd analytic = denseCopyOfSparse(matrix.get());

  const Eigen::MatrixXd numeric = numericIterationMatrix(system, 0.0, y, yp, cj, 1e-7);
  // Forward differences (relative step 1.5e-8) against central ones: agreement to 1e-5 of the largest entry; a
  // missing block, a wrong sign or a transposed axis differs by the size of its entries (order 1 to 40 here).
  const double scale = numeric.cwiseAbs().maxCoeff();
  Eigen::Index row = 0, column = 0;
  const double worst = (analytic - numeric).cwiseAbs().maxCoeff(&row, &column);
  EXPECT_LT(worst, 1e-5 * scale) << "at row " << row << " (" << system.describeVariable(static_cast<int>(row))
                                 << "), column " << column << " (" << system.describeVariable(static_cast<int>(column))
                                 << "): analytic " << analytic(row, column) << ", numeric " << numeric(row, column);
}

class JointJacobian : public ::testing::TestWithParam<const char*> {};

TEST_P(JointJacobian, MatchesFiniteDifferencesOfTheResidual) {
  const std::string type = GetParam();
  std::string extra;
  if (type == "SCREW") extra = "pitch=\"0.05\"";
  if (type == "RACK_PINION") extra = "pitch_diameter=\"0.2\"";
  expectJacobianMatchesFiniteDifferences(twoBodies("SPHERICAL", type, extra));
}

INSTANTIATE_TEST_SUITE_P(EveryType, JointJacobian,
                         ::testing::Values("FIXED", "REVOLUTE", "SPHERICAL", "TRANSLATIONAL", "CYLINDRICAL",
                                           "UNIVERSAL", "HOOKE", "PLANAR", "CONSTANT_VELOCITY", "INLINE", "INPLANE",
                                           "ORIENTATION", "PARALLEL_AXES", "PERPENDICULAR", "SCREW", "RACK_PINION"));

// A motion adds an equation and, for val_type V and A, states of its own: their blocks too.
class MotionJacobian : public ::testing::TestWithParam<const char*> {};

TEST_P(MotionJacobian, MatchesFiniteDifferencesOfTheResidual) {
  const std::string valueType = GetParam();
  expectJacobianMatchesFiniteDifferences(twoBodies(
      "SPHERICAL", "CYLINDRICAL", "",
      "<Motion_Joint id=\"7\" joint_id=\"2\" motion_type=\"R\" val_type=\"" + valueType +
          "\" expr=\"0.3*SIN(2*TIME)+0.1\"/>\n<Motion_Joint id=\"8\" joint_id=\"2\" motion_type=\"T\" val_type=\"" +
          valueType + "\" expr=\"0.05*TIME\"/>"));
}

INSTANTIATE_TEST_SUITE_P(EveryValueType, MotionJacobian, ::testing::Values("D", "V", "A"));

// A motion whose expression reads another body's position (body 3's marker, for a motion on body 2's joint to
// ground) and TIME: its equation's columns on body 3, and its f and ∂f/∂x in the position and velocity rows.
TEST(MotionJacobian, ExpressionReadingAnotherBodyMatchesFiniteDifferences) {
  expectJacobianMatchesFiniteDifferences(twoBodies(
      "CYLINDRICAL", "SPHERICAL", "",
      "<Motion_Joint id=\"7\" joint_id=\"1\" motion_type=\"R\" expr=\"0.4*DZ(31,10)+0.2*AX(31,10)+0.1*SIN(TIME)\"/>"
      "\n<Motion_Joint id=\"8\" joint_id=\"1\" motion_type=\"T\" expr=\"0.3*DX(31,10,10)+0.05*TIME\"/>"));
}

}  // namespace
}  // namespace lodestone

// The control systems' rows of the iteration matrix (Control_StateEqn, Control_SISO in
// solver/driver/differential_equations.*) against central differences of the whole residual: their columns over the
// Control_Diff and control states and rates and the bodies their inputs read; and how the state vector names them.
#include <gtest/gtest.h>

#include "jacobian_test_support.h"

namespace lodestone {
namespace {

TEST(ControlSystemJacobian, RowsMatchCentralDifferencesOfTheResidual) {
  // A Control_Diff reading a system's output (ARYVAL of the Y array), a two-state system whose inputs read a marker's
  // velocity and the Control_Diff's state, and a SISO whose input reads the first system's output.
  const std::string text = spinningBodyDeck(R"deck(  <Control_Diff id="5" ic="0.7" expr="-DIF(5) + ARYVAL(23, 1)"/>
  <Reference_Variable id="3" expr="VX(21) * DZ(21)"/>
  <Reference_Variable id="4" expr="DIF(5)"/>
  <Reference_Variable id="6" expr="ARYVAL(23, 1)"/>
  <Reference_Array id="21" type="U" num_element="2"> 3 4 </Reference_Array>
  <Reference_Array id="22" type="X" num_element="2"/>
  <Reference_Array id="23" type="Y" num_element="1"/>
  <Reference_Array id="24" type="IC" num_element="2"> 0.2 -0.5 </Reference_Array>
  <Reference_Matrix id="31" nrow="2" ncol="2"> -1 2 0.5 -3 </Reference_Matrix>
  <Reference_Matrix id="32" nrow="2" ncol="2" isroworder="TRUE"> 1 0.3 -2 4 </Reference_Matrix>
  <Reference_Matrix id="33" nrow="1" ncol="2"> 1.5 -0.7 </Reference_Matrix>
  <Reference_Matrix id="34" nrow="1" ncol="2"> 0.4 0.6 </Reference_Matrix>
  <Control_StateEqn id="1" type="LINEAR" x_array_id="22" u_array_id="21" y_array_id="23" ic_array_id="24"
     a_matrix_id="31" b_matrix_id="32" c_matrix_id="33" d_matrix_id="34"/>
  <Reference_Array id="41" type="U" num_element="1"> 6 </Reference_Array>
  <Reference_Array id="42" type="X" num_element="2"/>
  <Reference_Array id="43" type="Y" num_element="1"/>
  <Control_SISO id="2" x_array_id="42" y_array_id="43" u_array_id="41" numerator_coef="3 1" denominator_coef="5 2 1"/>)deck");
  const Model model = modelOfDeck(text, "controls.xml");
  SystemUnderTest built(model);
  MultibodySystem& system = built.system();
  const SUNContext context = built.context();
  const int size = system.layout().size();
  const int first = system.layout().differentialOffset();
  ASSERT_EQ(system.layout().differentialCount(), 5);  // the Control_Diff's, the state equation's 2, the SISO's 2
  ASSERT_EQ(first + 5, size);
  EXPECT_EQ(system.describeVariable(first + 2), "Control_StateEqn id=1 (controls.xml:20:3), state 2");
  EXPECT_EQ(system.describeVariable(first + 3), "Control_SISO id=2 (controls.xml:25:3), state 1");
  std::vector<double> y(static_cast<size_t>(size), 0.0);
  std::vector<double> yp(y.size(), 0.0);
  system.initialState(y);
  EXPECT_EQ(y[static_cast<size_t>(first + 1)], 0.2);  // the IC array
  EXPECT_EQ(y[static_cast<size_t>(first + 2)], -0.5);
  y[static_cast<size_t>(first + 3)] = 0.8;  // the SISO's states away from zero
  y[static_cast<size_t>(first + 4)] = -0.6;
  for (int k = 0; k < 5; ++k) yp[static_cast<size_t>(first + k)] = 0.3 * (k + 1);
  // The five rows: forward differences (relative step 1.5e-8) against central ones, to 1e-5 of the rows' largest
  // entry (cj = 40 on the diagonal); a missing column (a body read through an input, an output read through D)
  // differs by its entry's size (0.1 to 4 here).
  const IterationRows rows = lastIterationRows(system, context, 0.3, y, yp, 40.0, 5);
  EXPECT_TRUE(agreeWithin(rows, system, 1e-5));
  // The state equation's rows read the body through input 3 (VX·DZ of marker 21): some entry is well away from zero.
  EXPECT_GT(rows.numeric.block(1, 0, 2, 13).cwiseAbs().maxCoeff(), 0.1);
  // So does the SISO's, only through its input's feed-through output (ARYVAL of a Y array whose D is not 0).
  EXPECT_GT(rows.numeric.block(3, 0, 2, 13).cwiseAbs().maxCoeff(), 0.01);
}

}  // namespace
}  // namespace lodestone

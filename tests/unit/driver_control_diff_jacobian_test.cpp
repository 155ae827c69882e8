// Control_Diff rows of the iteration matrix (solver/driver/differential_equations.*) against central differences of
// the whole residual: their columns over the Control_Diff states and rates and the bodies their expressions read.
#include <gtest/gtest.h>

#include "jacobian_test_support.h"

namespace lodestone {
namespace {

TEST(ControlDiffJacobian, RowsMatchCentralDifferencesOfTheResidual) {
  const std::string text = spinningBodyDeck(R"deck(  <Reference_Variable id="3" expr="DIF1(5) * DZ(21)"/>
  <Control_Diff id="5" ic="0.7" expr="-2*DIF(5)**2 + VX(21) * DIF(6) + VARVAL(3)*0.1"/>
  <Control_Diff id="6" is_implicit="TRUE" ic="-0.4" ic_dot="0.5" expr="DIF1(6) * (1 + DIF(6)**2) - DX(21) + DIF1(5)"/>)deck");
  const Model model = modelOfDeck(text, "diff.xml");
  SystemUnderTest built(model);
  MultibodySystem& system = built.system();
  const SUNContext context = built.context();
  const int size = system.layout().size();
  const int first = system.layout().differentialOffset();
  ASSERT_EQ(system.layout().differentialCount(), 2);
  ASSERT_EQ(first + 2, size);
  std::vector<double> y(static_cast<size_t>(size)), yp(y.size(), 0.0);
  system.initialState(y);
  EXPECT_EQ(y[static_cast<size_t>(first)], 0.7);
  EXPECT_EQ(y[static_cast<size_t>(first + 1)], -0.4);
  yp[static_cast<size_t>(first)] = 0.9;  // rates away from zero, so that DIF1's products are felt
  yp[static_cast<size_t>(first + 1)] = -1.3;
  // Only the Control_Diff rows: forward differences (relative step 1.5e-8) against central ones, to 1e-5 of the
  // rows' largest entry (cj = 40 on the diagonal); a missing column differs by its entry's size (0.1 to 40 here).
  const IterationRows rows = lastIterationRows(system, context, 0.3, y, yp, 40.0, 2);
  EXPECT_TRUE(agreeWithin(rows, system, 1e-5));
  // The rows do read the body: some entry of its 13 columns is well away from zero.
  EXPECT_GT(rows.numeric.leftCols(13).cwiseAbs().maxCoeff(), 0.1);
}

// A row that reads accelerations (ACCX of an offset marker: the body's linear and angular acceleration, and ω × ω × r)
// has columns over the body's velocity rates too, cj times its derivatives by them.
TEST(ControlDiffJacobian, RowsThatReadAccelerationsHaveTheirRateColumns) {
  const std::string text = spinningBodyDeck(R"deck(  <Control_Diff id="7" ic="0.3" expr="ACCX(21) * DIF(7) + WDTZ(20)"/>)deck");
  const Model model = modelOfDeck(text, "diff.xml");
  SystemUnderTest built(model);
  MultibodySystem& system = built.system();
  const SUNContext context = built.context();
  const int size = system.layout().size();
  std::vector<double> y(static_cast<size_t>(size), 0.0);
  std::vector<double> yp(y.size(), 0.0);
  system.initialState(y);
  for (int k = 7; k < 13; ++k) yp[static_cast<size_t>(k)] = 0.2 * (k - 9);  // the body's accelerations
  yp[static_cast<size_t>(size - 1)] = 0.4;
  const IterationRows rows = lastIterationRows(system, context, 0.3, y, yp, 40.0, 1);
  EXPECT_TRUE(agreeWithin(rows, system, 1e-5));
  // The velocity rates' columns: the row is ẏ − ACCX·DIF(7) − WDTZ, so cj · (−DIF(7)) = −40 · 0.3 on the body's v̇x.
  EXPECT_NEAR(rows.numeric(0, 7), -12, 1e-5);
}

}  // namespace
}  // namespace lodestone

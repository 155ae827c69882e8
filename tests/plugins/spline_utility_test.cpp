// c_akispl and c_cubspl end to end: a spring whose force a C or a Python SFOSUB reads from a family of curves through
// the utilities moves its body exactly as the expression with AKISPL or CUBSPL does (bodies.csv byte for byte), and
// a spline the model does not have stops the run with the utility's reason in run.log.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "cli/subroutine_runs.h"
#include "support/results_csv.h"

namespace lodestone::cli {
namespace {

using namespace testing;

// A 1 kg body on x, free of gravity, released at rest 0.35 m from ground's origin, pulled back by a spring whose law
// reads a spline at DX(11, 10): Reference_Spline 77, a cubic-stiffening spring y(x) = 800 (x − 0.3) + 3000 (x − 0.3)³
// at 9 knots from 0.1 to 0.5 m, or 79, a family of it (z = 0) and 1.5 times it (z = 1). The body swings between
// about 0.25 and 0.35 m, across several knots. `force` is the Force_Scalar_TwoBody's law: an expression or a
// subroutine's attributes.
std::string springDeck(const std::string& force) {
  std::string curve, family;
  for (int k = 0; k <= 8; ++k) {
    const double x = 0.1 + 0.05 * k, y = 800 * (x - 0.3) + 3000 * std::pow(x - 0.3, 3);
    curve += "      " + std::to_string(x) + " " + std::to_string(y) + "\n";
    family += "      " + std::to_string(x) + " " + std::to_string(y) + " " + std::to_string(1.5 * y) + "\n";
  }
  return "<MultiBodySystem>\n  <Model>\n"
         "    <Param_Transient integr_tol=\"1e-8\"/>\n"
         "    <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "    <Reference_Marker id=\"10\" body_id=\"1\"/>\n"
         "    <Reference_Marker id=\"11\" body_id=\"2\" pos_x=\"0.35\"/>\n"
         "    <Body_Rigid id=\"2\" cg_id=\"11\" mass=\"1\" inertia_xx=\"0.01\" inertia_yy=\"0.01\" "
         "inertia_zz=\"0.01\"/>\n"
         "    <Reference_Spline id=\"77\" num_xy_pair=\"9\">\n" + curve + "    </Reference_Spline>\n"
         "    <Reference_Spline id=\"79\" num_x=\"9\" num_z=\"2\">\n      0 1\n" + family +
         "    </Reference_Spline>\n"
         "    <Force_Scalar_TwoBody id=\"300\" type=\"FORCE\" i_marker_id=\"11\" j_marker_id=\"10\" " + force +
         "/>\n"
         "  </Model>\n  <Command>\n"
         "    <Simulate analysis_type=\"Transient\" end_time=\"0.5\" print_interval=\"0.005\"/>\n"
         "  </Command>\n</MultiBodySystem>\n";
}

// SFOSUB_SPLINE's attributes: spline `spline`, Akima or cubic, at z = 0.4, between markers 11 and 10, with `gain`.
std::string subroutineForce(bool python, int spline, bool cubic, const std::string& gain) {
  const std::string parameters = "usrsub_param_string=\"USER(" + std::to_string(spline) + ", " + (cubic ? "1" : "0") +
                                 ", 0.4, 11, 10, " + gain + ")\" usrsub_fnc_name=\"SFOSUB_SPLINE\"";
  return fixtureSubroutine(parameters, python, "spline_utilities.py");
}

class SplineUtilityRun : public SubroutineRun {};

// The curve with its slope (−(y + 0.05·dy/dx)), and the family at z = 0.4 (−y: AKISPL has no derivatives of a family,
// as in Adams), each by Akima's method and the cubic spline.
TEST_F(SplineUtilityRun, CAndPythonSubroutinesReadingTheSplineMoveTheBodyAsTheExpressionBitForBit) {
  for (const bool cubic : {false, true}) {
    const std::string function = cubic ? "CUBSPL" : "AKISPL";
    for (const int spline : {77, 79}) {
      const std::string id = std::to_string(spline), at = function + "(DX(11,10),0.4," + id;
      const std::string expression = spline == 77 ? "-(" + at + ")+0.05*" + at + ",1))" : "-" + at + ")";
      const std::string name = function + "_" + id;
      ASSERT_EQ(runDeck(name, springDeck("val_expression=\"" + expression + "\"")), 0) << name << stderrText();
      const std::string reference = bodies(name);
      // The body swings across the knots: from 0.35 m to below 0.27 m.
      const lodestone::testing::ResultsTable table(folder / (name + "/bodies.csv"));
      double lowest = 1;
      for (const size_t row : table.rowsOfBody(2)) lowest = std::min(lowest, table.at(row, "x"));
      EXPECT_LT(lowest, 0.27) << name;
      for (const bool python : {false, true}) {
        const std::string twin = name + (python ? "_python" : "_c");
        const std::string gain = spline == 77 ? "0.05" : "0";
        ASSERT_EQ(runDeck(twin, springDeck(subroutineForce(python, spline, cubic, gain))), 0) << twin << stderrText();
        EXPECT_EQ(bodies(twin), reference) << twin << " differs from the expression";
      }
    }
  }
  // The other fit, or the other spline, moves the body otherwise: the comparisons can fail.
  EXPECT_NE(bodies("AKISPL_77"), bodies("CUBSPL_77"));
  EXPECT_NE(bodies("AKISPL_79"), bodies("AKISPL_77"));
}

// The subroutine's set-up call already reads the spline: the deck is refused at the element's line with the
// subroutine's STOP and the utility's reason (exit 1).
TEST_F(SplineUtilityRun, ASplineTheModelDoesNotHaveIsRefusedWithTheUtilitysReason) {
  for (const bool python : {false, true}) {
    const std::string name = python ? "missing_python" : "missing_c";
    const std::string deck = springDeck(subroutineForce(python, 78, false, "0"));
    EXPECT_EQ(runDeck(name, deck), 1) << name;
    const std::string where = folder / (name + ".xml") + ":" + std::to_string(lineOf(deck, "<Force_Scalar_TwoBody")) +
                              ":5: Force_Scalar_TwoBody id=300: the set-up call (iflag = 1): ";
    EXPECT_NE(stderrText().find(where), std::string::npos) << stderrText();
    EXPECT_NE(stderrText().find("the spline could not be read"), std::string::npos) << stderrText();
    const std::string refused = std::string(python ? "py_akispl" : "c_akispl") +
                                " called from SFOSUB_SPLINE: no Reference_Spline id=78 in the model";
    EXPECT_NE(stderrText().find(refused), std::string::npos) << stderrText();
  }
}

}  // namespace
}  // namespace lodestone::cli

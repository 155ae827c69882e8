// GSESUB end to end: a body held by a controller whose two states (the position's integral and a filtered velocity)
// and output (the force) come from a Control_StateEqn, given by its matrices (type="LINEAR") or computed by a C or a
// Python GSESUB of the same matrices: bodies.csv and requests.csv (the states and the output read with ARYVAL) are
// the same byte for byte (tests/physics/control_state_eqn_test.cpp checks the linear form against closed forms). A
// Python GSESUB that returns the rates alone instead of [stated, output] ends the run naming what it must return; one
// that stops in its set-up call is refused at the element's line.
#include <gtest/gtest.h>

#include <string>

#include "cli/subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

// The body (marker 20) pushed along x by −y, y the output of Control_StateEqn id=3 with `system` its own attributes:
// states ∫x and a filtered ẋ (inputs DX and VX), from x = (0.1, 0). The matrices A = [0 0; 0 −20], B = [1 0; 0 20],
// C = [3 2] and D = [40 0] (id 34; [30 0] id 35): y = 40 x + 3 ∫x + 2 ẋ filtered.
std::string controlledBody(const std::string& system) {
  return "<MultiBodySystem>\n  <Model>\n"
         "    <Param_Transient integr_tol=\"1e-8\"/>\n"
         "    <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "    <Reference_Marker id=\"20\" body_id=\"2\"/>\n"
         "    <Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\" "
         "v_ic_x=\"0.5\"/>\n"
         "    <Reference_Variable id=\"5\" expr=\"DX(20)\"/>\n"
         "    <Reference_Variable id=\"6\" expr=\"VX(20)\"/>\n"
         "    <Reference_Array id=\"21\" type=\"U\" num_element=\"2\"> 5 6 </Reference_Array>\n"
         "    <Reference_Array id=\"22\" type=\"X\" num_element=\"2\"/>\n"
         "    <Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
         "    <Reference_Array id=\"24\" type=\"IC\" num_element=\"2\"> 0.1 0 </Reference_Array>\n"
         "    <Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\" isroworder=\"TRUE\"> 0 0 0 -20 </Reference_Matrix>\n"
         "    <Reference_Matrix id=\"32\" nrow=\"2\" ncol=\"2\" isroworder=\"TRUE\"> 1 0 0 20 </Reference_Matrix>\n"
         "    <Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"2\"> 3 2 </Reference_Matrix>\n"
         "    <Reference_Matrix id=\"34\" nrow=\"1\" ncol=\"2\"> 40 0 </Reference_Matrix>\n"
         "    <Reference_Matrix id=\"35\" nrow=\"1\" ncol=\"2\"> 30 0 </Reference_Matrix>\n"
         "    <Control_StateEqn id=\"3\" x_array_id=\"22\" u_array_id=\"21\" y_array_id=\"23\" ic_array_id=\"24\" " +
         system + "/>\n"
         "    <Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"-ARYVAL(23, 1)\" "
         "fy_expression=\"0\" fz_expression=\"0\"/>\n"
         "    <Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(22, 1)\" expr2=\"ARYVAL(22, 2)\" "
         "expr3=\"ARYVAL(23, 1)\" expr4=\"DX(20)\"/>\n"
         "  </Model>\n  <Command>\n"
         "    <Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.01\"/>\n"
         "  </Command>\n</MultiBodySystem>\n";
}

// The system by its matrices, D the one of `d` (34: kp = 40; 35: kp = 30).
std::string linear(const std::string& d = "34") {
  return "type=\"LINEAR\" a_matrix_id=\"31\" b_matrix_id=\"32\" c_matrix_id=\"33\" d_matrix_id=\"" + d + "\"";
}

// The same system as GSESUB_LINEAR's USER(A, B, C, D), row by row.
std::string gsesub(bool python, const std::string& function = "GSESUB_LINEAR",
                   const std::string& parameters = "0, 0, 0, -20, 1, 0, 0, 20, 3, 2, 40, 0") {
  return fixtureSubroutine("type=\"USERSUB\" num_state=\"2\" num_output=\"1\" usrsub_param_string=\"USER(" +
                               parameters + ")\" usrsub_fnc_name=\"" + function + "\"",
                           python, "state_equation_fixtures.py");
}

class StateEquationSubroutineRun : public SubroutineRun {};

TEST_F(StateEquationSubroutineRun, CAndPythonGsesubRunTheSystemAsItsMatricesDoBitForBit) {
  ASSERT_EQ(runDeck("matrices", controlledBody(linear())), 0) << stderrText();
  const std::string reference = bodies("matrices");
  ASSERT_GT(reference.size(), 10000u);
  // The output at t = 0: x = 0, ∫x = 0.1 and the filtered velocity 0, so y = 3 · 0.1.
  const lodestone::testing::ResultsTable requests(folder / "matrices/requests.csv");
  ASSERT_EQ(requests.rowCount(), 201u);
  EXPECT_NEAR(requests.at(0, "f3"), 0.3, 1e-12);
  for (const bool python : {false, true}) {
    const std::string name = python ? "python" : "c";
    ASSERT_EQ(runDeck(name, controlledBody(gsesub(python))), 0) << name << ": " << stderrText();
    EXPECT_EQ(bodies(name), reference) << name;
    EXPECT_EQ(results(name, "requests.csv"), results("matrices", "requests.csv")) << name;
    const std::string listed = "states' rates and outputs GSESUB_LINEAR from " +
                               std::string(python ? "script " : "library ");
    EXPECT_NE(log(name).find(listed), std::string::npos) << log(name);
  }
  // Another gain moves the body otherwise: the comparison can fail.
  ASSERT_EQ(runDeck("other", controlledBody(linear("35"))), 0) << stderrText();
  EXPECT_NE(bodies("other"), reference);
}

TEST_F(StateEquationSubroutineRun, APythonGsesubThatReturnsTheRatesAloneEndsTheRunSayingWhatItMustReturn) {
  EXPECT_EQ(runDeck("rates_alone", controlledBody(gsesub(true, "GSESUB_RATES_ONLY"))), 2);
  EXPECT_NE(log("rates_alone").find("GSESUB_RATES_ONLY in " + std::string(LODESTONE_SOURCE_DIR) +
                                    "/tests/fixtures/state_equation_fixtures.py returned [stated, output] whose "
                                    "stated is a float (0.0); stated must be a sequence of 2 numbers, the 2 states' "
                                    "time derivatives"),
            std::string::npos) << log("rates_alone");
}

TEST_F(StateEquationSubroutineRun, AGsesubThatStopsInItsSetUpCallIsRefusedAtItsLine) {
  const std::string deck = controlledBody(gsesub(false, "GSESUB_LINEAR", "1, 2, 3"));
  EXPECT_EQ(runDeck("too_few", deck), 1);
  EXPECT_NE(stderrText().find("too_few.xml:" + std::to_string(lineOf(deck, "<Control_StateEqn")) +
                              ":5: Control_StateEqn id=3: the set-up call (iflag = 1): Control_StateEqn id=3"),
            std::string::npos) << stderrText();
  EXPECT_NE(stderrText().find("GSESUB_LINEAR needs USER(A, B, C, D)"), std::string::npos) << stderrText();
}

// A GSESUB whose output is a variable it reads through py_varval, the variable reading that output back: an algebraic
// loop through the subroutine's own reads, refused at the system's line (it would recurse without end).
TEST_F(StateEquationSubroutineRun, AGsesubReadingItsOwnOutputThroughAVariableIsAnAlgebraicLoop) {
  std::string deck = controlledBody(gsesub(true, "GSESUB_READS_VARIABLE", "7"));
  const std::string variable = "    <Reference_Variable id=\"7\" expr=\"1 + ARYVAL(23, 1)\"/>\n";
  deck.insert(deck.find("    <Reference_Variable id=\"5\""), variable);
  EXPECT_EQ(runDeck("loop", deck), 1);
  EXPECT_NE(stderrText().find("loop.xml:" + std::to_string(lineOf(deck, "<Control_StateEqn")) +
                              ":5: Control_StateEqn id=3: its outputs read themselves at the same instant through its "
                              "inputs or its GSESUB's c_varval"),
            std::string::npos) << stderrText();
}

}  // namespace
}  // namespace lodestone::cli

// FIESUB end to end: a body thrown off with a velocity and a spin, held to ground by a Force_Field whose diagonal
// stiffness, damping, lengths and preloads are given as matrices, or computed by a C or a Python FIESUB handed the
// deflection and its rate: bodies.csv and requests.csv (the field's loads, FIELD(7,0,comp,0)) are the same byte for
// byte. A Python FIESUB that returns the six loads alone instead of [field, dfddis, dfdvel] ends the run naming what it
// must return; `check` warns that a field's matrices are not used when a FIESUB gives it.
#include <gtest/gtest.h>

#include <string>

#include "cli/subroutine_runs.h"
#include "solver/core/text.h"

namespace lodestone::cli {
namespace {

using namespace testing;

constexpr double kStiffness[6] = {2e3, 3e3, 4e3, 20, 30, 40}, kDamping[6] = {5, 6, 7, 0.05, 0.06, 0.07};
constexpr double kLength[6] = {1e-3, -2e-3, 0, 0.01, 0, -0.02}, kPreload[6] = {1, -2, 3, 0.1, -0.2, 0.3};

// The body (marker 20, the field's I) and ground's marker 10 (J), with the field's own attributes `field` and a
// request of its loads on I.
std::string heldBody(const std::string& field) {
  std::string request = "<Post_Request id=\"9\" type=\"EXPRESSION\"";
  for (int comp = 1; comp <= 8; ++comp) {
    request += " expr" + std::to_string(comp) + "=\"FIELD(7,0," + std::to_string(comp) + ",0)\"";
  }
  return "<MultiBodySystem>\n  <Model>\n"
         "    <Param_Transient integr_tol=\"1e-8\"/>\n"
         "    <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "    <Reference_Marker id=\"10\" body_id=\"1\"/>\n"
         "    <Reference_Marker id=\"20\" body_id=\"2\"/>\n"
         "    <Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"0.02\" inertia_yy=\"0.03\" inertia_zz=\"0.04\" "
         "v_ic_x=\"0.3\" v_ic_y=\"-0.2\" v_ic_z=\"0.1\" w_ic_x=\"2\" w_ic_y=\"-1\" w_ic_z=\"3\"/>\n"
         "    <Force_Field id=\"7\" i_marker_id=\"20\" j_marker_id=\"10\" " + field + "/>\n"
         "    " + request + "/>\n"
         "  </Model>\n  <Command>\n"
         "    <Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.01\"/>\n"
         "  </Command>\n</MultiBodySystem>\n";
}

// The diagonal field as Force_Field's matrices, lengths and preloads.
std::string matrices() {
  const char* components[6] = {"x", "y", "z", "tx", "ty", "tz"};
  std::string text;
  for (int k = 0; k < 6; ++k) {
    const std::string diagonal = std::to_string(k + 1) + std::to_string(k + 1);
    text += "K" + diagonal + "=\"" + formatReal(kStiffness[k]) + "\" C" + diagonal + "=\"" + formatReal(kDamping[k]) +
            "\" length_" + components[k] + "=\"" + formatReal(kLength[k]) + "\" preload_" + components[k] + "=\"" +
            formatReal(kPreload[k]) + "\" ";
  }
  return text;
}

// The same field as FIESUB_DIAGONAL's USER(k1..k6, c1..c6, length1..length6, preload1..preload6).
std::string fiesub(bool python, const std::string& function = "FIESUB_DIAGONAL") {
  std::string numbers;
  for (const double* values : {kStiffness, kDamping, kLength, kPreload}) {
    for (int k = 0; k < 6; ++k) numbers += (numbers.empty() ? "" : ", ") + formatReal(values[k]);
  }
  return fixtureSubroutine("usrsub_param_string=\"USER(" + numbers + ")\" usrsub_fnc_name=\"" + function + "\"",
                           python, "field_fixtures.py");
}

class FieldSubroutineRun : public SubroutineRun {};

TEST_F(FieldSubroutineRun, CAndPythonFiesubMoveTheBodyAsTheMatricesDoBitForBit) {
  ASSERT_EQ(runDeck("matrices", heldBody(matrices())), 0) << stderrText();
  const std::string reference = bodies("matrices");
  ASSERT_GT(reference.size(), 10000u);
  for (const bool python : {false, true}) {
    const std::string name = python ? "python" : "c";
    ASSERT_EQ(runDeck(name, heldBody(fiesub(python))), 0) << name << ": " << stderrText();
    EXPECT_EQ(bodies(name), reference) << name;
    EXPECT_EQ(results(name, "requests.csv"), results("matrices", "requests.csv")) << name;
    const std::string listed = "field FIESUB_DIAGONAL from " + std::string(python ? "script " : "library ");
    EXPECT_NE(log(name).find(listed), std::string::npos) << name;
  }
  // Without its preloads the field holds the body elsewhere: the comparison can fail.
  ASSERT_EQ(runDeck("other", heldBody("K11=\"2e3\" K22=\"3e3\" K33=\"4e3\" K44=\"20\" K55=\"30\" K66=\"40\"")), 0);
  EXPECT_NE(bodies("other"), reference);
}

TEST_F(FieldSubroutineRun, APythonFiesubThatReturnsTheLoadsAloneEndsTheRunSayingWhatItMustReturn) {
  EXPECT_EQ(runDeck("loads_alone", heldBody(fiesub(true, "FIESUB_FIELD_ONLY"))), 2);
  EXPECT_NE(log("loads_alone").find("FIESUB_FIELD_ONLY in " + std::string(LODESTONE_SOURCE_DIR) +
                                    "/tests/fixtures/field_fixtures.py returned a list ("),
            std::string::npos) << log("loads_alone");
  EXPECT_NE(log("loads_alone").find("it must return [field, dfddis, dfdvel]"), std::string::npos)
      << log("loads_alone");
}

TEST_F(FieldSubroutineRun, CheckWarnsThatTheMatricesOfAFiesubFieldAreNotUsed) {
  const std::string deck = folder.write("both.xml", heldBody(fiesub(false) + " K11=\"5\""));
  EXPECT_EQ(runLodestone({"lodestone", "check", deck}), 0) << stderrText();
  EXPECT_NE(stderrText().find("Force_Field id=7: the FIESUB gives the field: its K, C, lengths and preloads are not "
                              "used"),
            std::string::npos) << stderrText();
}

}  // namespace
}  // namespace lodestone::cli

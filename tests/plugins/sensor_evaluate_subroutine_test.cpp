// SEVSUB end to end: a body dropped from 1 m under g = 9.81 crosses 0.5 m, where a Sensor_Event stores its VZ through
// a Sensor_Evaluate; a force −2·SENVAL then pushes it up and a request writes SENVAL. A C and a Python SEVSUB that
// read VZ through c_sysfnc / py_sysfnc give bodies.csv and requests.csv byte for byte as the expression VZ(20) does
// (tests/physics/sensor_evaluate_test.cpp checks the expression's against the closed form); a SEVSUB that stops in
// its set-up call is refused at the element's line.
#include <gtest/gtest.h>

#include <string>

#include "cli/subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

// The fall with the Sensor_Evaluate's attributes `evaluate` (its type and law).
std::string fallDeck(const std::string& evaluate) {
  return "<MultiBodySystem>\n  <Model>\n"
         "    <Force_Gravity grav_z=\"-9.81\"/>\n"
         "    <Param_Transient integr_tol=\"1e-8\"/>\n"
         "    <Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "    <Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
         "    <Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"1\"/>\n"
         "    <Sensor_Evaluate id=\"5\" " + evaluate + "/>\n"
         "    <Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"DZ(20)\" compare=\"LT\" value=\"0.5\" "
         "error_tol=\"1e-9\" evaluate_id=\"5\"/>\n"
         "    <Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"0\" "
         "fy_expression=\"0\" fz_expression=\"-2*SENVAL(5)\"/>\n"
         "    <Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"SENVAL(5)\" expr2=\"DZ(20)\" expr3=\"VZ(20)\"/>\n"
         "  </Model>\n  <Command>\n"
         "    <Simulate analysis_type=\"Transient\" end_time=\"0.6\" print_interval=\"0.01\"/>\n"
         "  </Command>\n</MultiBodySystem>\n";
}

// The SEVSUB's attributes, reading axis `axis` of marker 20's velocity, from the C library or the Python script.
std::string sevsub(bool python, int axis) {
  const std::string parameters = "type=\"USERSUB\" usrsub_param_string=\"USER(20, " + std::to_string(axis) +
                                 ")\" usrsub_fnc_name=\"SEVSUB_VELOCITY\"";
  return fixtureSubroutine(parameters, python, "sensor_evaluate_fixtures.py");
}

class SevsubRun : public SubroutineRun {};

TEST_F(SevsubRun, CAndPythonSevsubStoreWhatTheExpressionStoresBitForBit) {
  ASSERT_EQ(runDeck("expression", fallDeck("type=\"EXPRESSION\" expr=\"VZ(20)\"")), 0) << stderrText();
  // The stored value is vz at the crossing, −sqrt(2·g·0.5) = −3.132 m/s: the last request's first column.
  const lodestone::testing::ResultsTable requests(folder / "expression/requests.csv");
  ASSERT_GT(requests.rowCount(), 50u);
  EXPECT_NEAR(requests.at(requests.rowCount() - 1, "f1"), -3.132091953, 1e-6);
  for (const bool python : {false, true}) {
    const std::string name = python ? "python" : "c";
    ASSERT_EQ(runDeck(name, fallDeck(sevsub(python, 2))), 0) << name << ": " << stderrText();
    EXPECT_EQ(bodies(name), bodies("expression")) << name;
    EXPECT_EQ(results(name, "requests.csv"), results("expression", "requests.csv")) << name;
    const std::string listed = "stored value SEVSUB_VELOCITY from " + std::string(python ? "script " : "library ");
    EXPECT_NE(log(name).find(listed), std::string::npos) << name;
  }
  // Another axis (VX, 0 here) stores another value, and the body falls otherwise: the comparison can fail.
  ASSERT_EQ(runDeck("other_axis", fallDeck(sevsub(false, 0))), 0) << stderrText();
  EXPECT_NE(bodies("other_axis"), bodies("expression"));
}

TEST_F(SevsubRun, ASevsubThatStopsInItsSetUpCallIsRefusedAtItsLine) {
  for (const bool python : {false, true}) {
    const std::string name = python ? "stop_python" : "stop_c";
    const std::string deck = fallDeck(sevsub(python, 7));  // axis 7: the SEVSUB asks to stop
    EXPECT_EQ(runDeck(name, deck), 1) << name;
    const std::string where = folder / (name + ".xml") + ":" + std::to_string(lineOf(deck, "<Sensor_Evaluate")) +
                              ":5: Sensor_Evaluate id=5: the set-up call (iflag = 1): ";
    EXPECT_NE(stderrText().find(where), std::string::npos) << stderrText();
    EXPECT_NE(stderrText().find("SEVSUB_VELOCITY needs USER(marker, axis 0..2)"), std::string::npos) << stderrText();
  }
}

}  // namespace
}  // namespace lodestone::cli

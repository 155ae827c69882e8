// Force_Scalar_OneBody against closed forms: a −k·DX force along a marker's z axis makes a harmonic oscillator,
// x(t) = x0·cos(ωt), and takes nothing from the body of that marker (no reaction), from an expression or an SFOSUB;
// a −k·AZ torque about ground's z makes a torsional oscillator, θ(t) = (w0/ω)·sin(ωt); SFORCE's Deactivate type
// switches it off.
#include <cmath>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Ground (body 1, marker 10 at the origin), a free body 2 (mass 2, CG marker 20 at x = x0) and a free body 3 (mass
// 1, at y = 1) carrying marker 30, whose z axis is ground's x and whose x axis is ground's −z: the direction the
// force is given along, on a body the force must not push back on. No gravity; integr_tol 1e-10, so that the
// integrator's phase error over the 3.2 periods stays well inside the 1e-5 of the amplitude the tests allow.
constexpr double kOneBodyMass = 2, kOneBodyStiffness = 50, kOneBodyStart = 0.1;
const double kOneBodyOmega = std::sqrt(kOneBodyStiffness / kOneBodyMass);  // 5 rad/s

std::string oneBodyDeck(const std::string& force, const std::string& commands) {
  return deck("<Param_Transient integr_tol=\"1e-10\"/>\n"
              "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
              "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
              "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"0.1\"/>\n"
              "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"2\" inertia_xx=\"0.5\" inertia_yy=\"0.5\" "
              "inertia_zz=\"0.5\"/>\n"
              "<Reference_Marker id=\"30\" body_id=\"3\" pos_y=\"1\" a00=\"0\" a10=\"0\" a20=\"-1\" a02=\"1\" "
              "a12=\"0\" a22=\"0\"/>\n"
              "<Body_Rigid id=\"3\" cg_id=\"30\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n" +
                  force,
              commands);
}

const std::string kTransient = "<Simulate analysis_type=\"Transient\" end_time=\"4\" print_interval=\"0.01\"/>";

// Every output of body 2 against x0·cos(ωt), and body 3 never moving: fails when the force has the wrong size (the
// phase drifts), the wrong direction (along marker 30's x or ground's z), or a reaction (body 3 then moves).
TEST(ForceScalarOneBody, SpringAlongAMarkersZAxisGivesTheHarmonicOscillator) {
  const DeckRun run = runDeckText(
      "one_body_spring", oneBodyDeck("<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\" "
                                     "ref_marker_id=\"30\" val_expression=\"-50*DX(20,10)\"/>",
                                     kTransient));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  double worst = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    worst = std::max(worst, std::fabs(bodies.at(row, "x") - kOneBodyStart * std::cos(kOneBodyOmega * t)));
    EXPECT_NEAR(bodies.at(row, "z"), 0, 1e-12);
    EXPECT_NEAR(bodies.at(row, "y"), 0, 1e-12);
  }
  EXPECT_LT(worst, 1e-5 * kOneBodyStart);
  EXPECT_EQ(bodies.rowsOfBody(2).size(), 401u);
  for (size_t row : bodies.rowsOfBody(3)) {
    EXPECT_EQ(bodies.at(row, "x"), 0);
    EXPECT_EQ(bodies.at(row, "vx"), 0);
  }
  RecordProperty("worst_displacement_error", sci(worst));
}

// The magnitude from an SFOSUB in Python through the shared loader (Force_Scalar_TwoBody's): the same −50·DX spring,
// the same closed form. Fails when the one-body element does not hand its subroutine on, or calls it with no effect.
TEST(ForceScalarOneBody, SfosubInPythonGivesTheSameHarmonicOscillator) {
  std::ofstream(scratchFile("one_body_sfosub.py"))
      << "def SFOSUB(id, time, par, npar, dflag, iflag):\n"
         "    value, errflg = py_sysfnc('DX', [int(par[0]), int(par[1])])\n"
         "    return -par[2] * value\n";
  const DeckRun run = runDeckText(
      "one_body_sfosub", oneBodyDeck("<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\" "
                                     "ref_marker_id=\"30\" script_name=\"one_body_sfosub.py\" interpreter=\"PYTHON\" "
                                     "usrsub_param_string=\"USER(20, 10, 50)\"/>",
                                     kTransient));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  double worst = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    worst = std::max(worst, std::fabs(bodies.at(row, "x") - kOneBodyStart * std::cos(kOneBodyOmega * t)));
  }
  EXPECT_LT(worst, 1e-5 * kOneBodyStart);
  EXPECT_EQ(bodies.rowsOfBody(2).size(), 401u);
  RecordProperty("worst_displacement_error", sci(worst));
}

// A torque −k·AZ(20,10) about ground's z (ref_marker_id left out), k = 2, I = 0.5, the body spun at w0 = 1 rad/s:
// θ(t) = (w0/ω)·sin(ωt), ω = 2 rad/s. Fails when the torque is about another axis or has the wrong size or sign.
TEST(ForceScalarOneBody, TorqueAboutGroundZGivesTheTorsionalOscillator) {
  std::string text = oneBodyDeck("<Force_Scalar_OneBody id=\"5\" type=\"TORQUE\" marker_id=\"20\" "
                                 "val_expression=\"-2*AZ(20,10)\"/>",
                                 kTransient);
  text.replace(text.find("inertia_zz=\"0.5\""), 16, "inertia_zz=\"0.5\" w_ic_z=\"1\"");
  const DeckRun run = runDeckText("one_body_torque", text);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const double omega = 2;
  double worst = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    const double angle = 2 * std::atan2(bodies.at(row, "e3"), bodies.at(row, "e0"));
    worst = std::max(worst, std::fabs(angle - std::sin(omega * t) / omega));
    EXPECT_NEAR(bodies.at(row, "x"), kOneBodyStart, 1e-12);
  }
  EXPECT_LT(worst, 1e-5 * 0.5);
  RecordProperty("worst_angle_error", sci(worst));
}

// <Deactivate element_type="SFORCE"> at t = 0 leaves the body where it is released: x stays x0.
TEST(ForceScalarOneBody, DeactivateSforceSwitchesItOff) {
  const DeckRun run = runDeckText(
      "one_body_deactivated",
      oneBodyDeck("<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\" ref_marker_id=\"30\" "
                  "val_expression=\"-50*DX(20,10)\"/>",
                  "<Deactivate element_type=\"SFORCE\" element_id=\"5\"/>\n" + kTransient));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  for (size_t row : bodies.rowsOfBody(2)) EXPECT_EQ(bodies.at(row, "x"), kOneBodyStart);
}

// The deck's mistakes, each with its line and column.
TEST(ForceScalarOneBodyDeck, MistakesAreReportedWithTheirPlace) {
  const std::string model = "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
                            "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
                            "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" "
                            "inertia_zz=\"1\"/>\n";
  const std::string transient = "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>";
  const Diagnostics noMagnitude = readAndBuildDeck(
      deck(model + "<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\"/>", transient));
  EXPECT_TRUE(hasError(noMagnitude, 6, "deck.xml:6:1: Force_Scalar_OneBody id=5: needs the magnitude")) <<
      noMagnitude.formatAll();
  const Diagnostics both = readAndBuildDeck(
      deck(model + "<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\" val=\"1\" val_expression=\"2\"/>",
           transient));
  EXPECT_TRUE(hasError(both, 6, "Force_Scalar_OneBody id=5: give either val or val_expression, not both"))
      << both.formatAll();
  const Diagnostics noMarker =
      readAndBuildDeck(deck(model + "<Force_Scalar_OneBody id=\"5\" type=\"TORQUE\" val=\"1\"/>", transient));
  EXPECT_TRUE(hasError(noMarker, 6, "Force_Scalar_OneBody id=5: missing required attribute 'marker_id'"))
      << noMarker.formatAll();
  const Diagnostics badColumn = readAndBuildDeck(deck(
      model + "<Force_Scalar_OneBody id=\"5\" type=\"FORCE\" marker_id=\"20\" val_expression=\"-DX(20,99)\"/>",
      transient));
  EXPECT_TRUE(hasError(badColumn, 6, "val_expression=\"-DX(20,99)\", column 8: names Reference_Marker id=99"))
      << badColumn.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

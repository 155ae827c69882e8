// Force_Beam against Timoshenko's cantilever: a body held only by a beam whose J end is fixed to ground, loaded at
// the beam's I end, finds its static equilibrium where the tip deflects as beam theory says — bending with shear
// in y and in z, stretching and twisting — a damped beam rings down at the rate its cratio sets, and a command that
// changes E or deactivates a beam (BEAM) changes the stretch as it should.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// A rectangular-ish steel section (SI units), different in y and z so that a swapped Iyy/Izz or ASY/ASZ shows.
constexpr double kLength = 0.2, kE = 2.1e11, kGShear = 8.1e10, kArea = 1.2e-3;
constexpr double kIxx = 1.5e-7, kIyy = 2.0e-7, kIzz = 1.0e-7, kAsy = 1.2, kAsz = 10.0 / 9.0;

std::string beamAttributes(const std::string& extra = "") {
  char text[400];
  std::snprintf(text, sizeof text,
                "length=\"%.17g\" E=\"%.17g\" G=\"%.17g\" area=\"%.17g\" ixx=\"%.17g\" iyy=\"%.17g\" izz=\"%.17g\" "
                "ASY=\"%.17g\" ASZ=\"%.17g\"",
                kLength, kE, kGShear, kArea, kIxx, kIyy, kIzz, kAsy, kAsz);
  return std::string(text) + " " + extra;
}

// The beam's J end (marker 10) on ground at x = −L, its axis along ground x; its I end (marker 20) is the CG of body
// 2 at the origin, so the body's position is the tip's deflection. `loads`: what pushes the tip.
std::string cantilever(const std::string& loads, const std::string& commands,
                       const std::string& beamExtra = "") {
  return deck("<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
              "<Reference_Marker id=\"10\" body_id=\"1\" pos_x=\"" + std::to_string(-kLength) + "\"/>\n"
              "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
              "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" "
              "inertia_zz=\"1e-3\"/>\n"
              "<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"10\" " + beamAttributes(beamExtra) + "/>\n" +
                  loads,
              commands);
}

const std::string kStatic = "<Simulate analysis_type=\"Static\"/>";

// The tip's rotation about one ground axis from the Euler parameters (e0, e_axis) of a turn about that axis only.
double turnAbout(const ResultsTable& bodies, const std::string& component) {
  return 2 * std::atan2(bodies.at(0, component), bodies.at(0, "e0"));
}

// A tip load P along −y (gravity on the 1 kg tip body): δ = P·L³/(3·E·Izz) + P·L·ASY/(G·A), the second term the
// shear's (1.9% of the whole here); the tip turns P·L²/(2·E·Izz) about z, whatever the shear. A beam without the
// shear term, or bending about the wrong inertia, misses by 1.9% or by half.
TEST(ForceBeam, CantileverTipLoadAlongYDeflectsAsTimoshenkoSays) {
  const double load = 1000;
  // BEAM(5, jflag, comp, 0): the beam's loads on I (jflag 0) and on J (1), ground axes: at rest it holds the tip's
  // weight, +P along y on I (torque about I's origin, the tip's CG, 0) and −P on J.
  const std::string request = "<Force_Gravity grav_y=\"-1000\"/>\n<Post_Request id=\"9\" type=\"EXPRESSION\" "
                              "expr1=\"BEAM(5,0,2,0)\" expr2=\"BEAM(5,0,3,0)\" expr3=\"BEAM(5,0,4,0)\" "
                              "expr4=\"BEAM(5,0,1,0)\" expr5=\"BEAM(5,0,5,0)\" expr6=\"BEAM(5,1,3,0)\"/>";
  const DeckRun run = runDeckText("beam_bend_y", cantilever(request, kStatic));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 1u);
  const ResultsTable requests((run.output / "requests.csv").string());
  ASSERT_EQ(requests.rowCount(), 1u);
  EXPECT_NEAR(requests.at(0, "f1"), 0, 1e-6 * load);
  EXPECT_NEAR(requests.at(0, "f2"), load, 1e-6 * load);
  EXPECT_NEAR(requests.at(0, "f3"), 0, 1e-6 * load);
  EXPECT_NEAR(requests.at(0, "f4"), load, 1e-6 * load);
  EXPECT_NEAR(requests.at(0, "f5"), 0, 1e-6 * load * kLength);
  EXPECT_NEAR(requests.at(0, "f6"), -load, 1e-6 * load);
  const double deflection = load * std::pow(kLength, 3) / (3 * kE * kIzz) + load * kLength * kAsy / (kGShear * kArea);
  EXPECT_NEAR(bodies.at(0, "y"), -deflection, 1e-6 * deflection);
  EXPECT_NEAR(bodies.at(0, "x"), 0, 1e-6 * deflection);
  EXPECT_NEAR(bodies.at(0, "z"), 0, 1e-6 * deflection);
  const double slope = load * kLength * kLength / (2 * kE * kIzz);
  EXPECT_NEAR(turnAbout(bodies, "e3"), -slope, 1e-6 * slope);
}

// Along +z the section bends about y (Iyy, ASZ), and the tip turns the other way about y: −P·L²/(2·E·Iyy).
TEST(ForceBeam, CantileverTipLoadAlongZBendsAboutY) {
  const double load = 1000;
  const DeckRun run = runDeckText("beam_bend_z", cantilever("<Force_Gravity grav_z=\"1000\"/>", kStatic));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 1u);
  const double deflection = load * std::pow(kLength, 3) / (3 * kE * kIyy) + load * kLength * kAsz / (kGShear * kArea);
  EXPECT_NEAR(bodies.at(0, "z"), deflection, 1e-6 * deflection);
  EXPECT_NEAR(bodies.at(0, "y"), 0, 1e-6 * deflection);
  const double slope = load * kLength * kLength / (2 * kE * kIyy);
  EXPECT_NEAR(turnAbout(bodies, "e2"), -slope, 1e-6 * slope);
}

// Stretched by F along the axis: F·L/(E·A).
TEST(ForceBeam, AxialLoadStretchesByFLOverEA) {
  const double load = 1e5;
  const DeckRun run = runDeckText("beam_axial", cantilever("<Force_Gravity grav_x=\"1e5\"/>", kStatic));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 1u);
  const double stretch = load * kLength / (kE * kArea);
  EXPECT_NEAR(bodies.at(0, "x"), stretch, 1e-6 * stretch);
  EXPECT_NEAR(bodies.at(0, "y"), 0, 1e-6 * stretch);
}

// A command that doubles E between two static analyses halves the stretch: the beam is rebuilt from the changed
// attribute (a beam that kept its first stiffness would stretch as much again).
TEST(ForceBeam, ACommandChangingEStiffensTheBeam) {
  const double load = 1e5;
  const std::string stiffer = "<Force_Beam id=\"5\" E=\"" + std::to_string(2 * kE) + "\"/>";
  const std::string commands = kStatic + "\n" + stiffer + "\n" + kStatic;
  const DeckRun run = runDeckText("beam_command", cantilever("<Force_Gravity grav_x=\"1e5\"/>", commands));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 2u);
  const double stretch = load * kLength / (kE * kArea);
  EXPECT_NEAR(bodies.at(0, "x"), stretch, 1e-6 * stretch);
  EXPECT_NEAR(bodies.at(1, "x"), stretch / 2, 1e-6 * stretch);
}

// Two equal beams side by side stretch half as far as one; Deactivate element_type="BEAM" takes one away.
TEST(ForceBeam, DeactivatingOneOfTwoBeamsDoublesTheStretch) {
  const double load = 1e5;
  const std::string second =
      "<Force_Beam id=\"6\" i_marker_id=\"20\" j_marker_id=\"10\" " + beamAttributes() + "/>";
  const std::string commands = kStatic + "\n<Deactivate element_type=\"BEAM\" element_id=\"6\"/>\n" + kStatic;
  const DeckRun run =
      runDeckText("beam_deactivate", cantilever("<Force_Gravity grav_x=\"1e5\"/>\n" + second, commands));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 2u);
  const double stretch = load * kLength / (kE * kArea);
  EXPECT_NEAR(bodies.at(0, "x"), stretch / 2, 1e-6 * stretch);
  EXPECT_NEAR(bodies.at(1, "x"), stretch, 1e-6 * stretch);
}

// Twisted by T about the axis: T·L/(G·Ixx), Ixx the torsional constant.
TEST(ForceBeam, TorqueTwistsByTLOverGJ) {
  const double torque = 500;
  const DeckRun run = runDeckText(
      "beam_torsion", cantilever("<Force_Vector_OneBody id=\"6\" type=\"TorqueOnly\" marker_id=\"20\" "
                                 "tx_expression=\"500\" ty_expression=\"0\" tz_expression=\"0\"/>",
                                 kStatic));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 1u);
  const double twist = torque * kLength / (kGShear * kIxx);
  EXPECT_NEAR(turnAbout(bodies, "e1"), twist, 1e-6 * twist);
  EXPECT_NEAR(bodies.at(0, "x"), 0, 1e-12);
}

// Damping is cratio × stiffness: a 1e6 kg tip set moving along the axis at 0.01 m/s rings as m·ẍ = −k·x − cratio·k·ẋ,
// k = E·A/L (ω = 35.5 rad/s, damping ratio ζ = cratio·ω/2 = 0.071): x = v0/ωd·e^(−ζωt)·sin(ωd·t). Within 1e-4 of the
// amplitude over 3 periods; an undamped beam is 3.6 times too far out by then.
TEST(ForceBeam, CratioDampsTheAxialModeAsStiffnessTimesRatio) {
  const double mass = 1e6, speed = 0.01, cratio = 0.004;
  std::string model = cantilever("<Param_Transient integr_tol=\"1e-9\"/>",
                                 "<Simulate analysis_type=\"Transient\" end_time=\"0.5\" print_interval=\"0.01\"/>",
                                 "cratio=\"0.004\"");
  const std::string body = "mass=\"1\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" inertia_zz=\"1e-3\"";
  model.replace(model.find(body), body.size(),
                "mass=\"1e6\" inertia_xx=\"1e3\" inertia_yy=\"1e3\" inertia_zz=\"1e3\" v_ic_x=\"0.01\"");
  const DeckRun run = runDeckText("beam_damped", model);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  ASSERT_EQ(bodies.rowCount(), 51u);
  const double stiffness = kE * kArea / kLength, omega = std::sqrt(stiffness / mass);
  const double zeta = cratio * omega / 2, damped = omega * std::sqrt(1 - zeta * zeta);
  const double amplitude = speed / damped;
  for (size_t row = 0; row < bodies.rowCount(); ++row) {
    const double t = bodies.at(row, "time");
    const double expected = amplitude * std::exp(-zeta * omega * t) * std::sin(damped * t);
    EXPECT_NEAR(bodies.at(row, "x"), expected, 1e-4 * amplitude) << "t=" << t;
    EXPECT_NEAR(bodies.at(row, "y"), 0, 1e-9 * amplitude) << "t=" << t;
  }
}

}  // namespace
}  // namespace lodestone::testing

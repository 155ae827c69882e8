// Motion_Joint: a crank driven by a rotational motion given as displacement, velocity or acceleration turns as
// the motion says, whatever gravity does; a translational motion on a slider; ic_disp moves the joint at the
// start; Deactivate MOTION lets the crank go on freely; and models/cam_follower.xml, a driven cam with a follower
// on a translational joint riding on it through contact.
#include <cmath>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"
#include "support/driven_crank.h"
#include "support/model_runs.h"

namespace lodestone::testing {
namespace {

// The crank's angle from its CG, unwrapped along the rows.
std::vector<double> crankAngles(const ResultsTable& bodies) {
  std::vector<double> angles;
  for (size_t row = 0; row < bodies.rowCount(); ++row) {
    double angle = std::atan2(bodies.at(row, "y"), bodies.at(row, "x"));
    if (!angles.empty()) angle += 2 * M_PI * std::round((angles.back() - angle) / (2 * M_PI));
    angles.push_back(angle);
  }
  return angles;
}

struct Case {
  const char* valueType;
  const char* expression;
  double (*angle)(double t);
  double (*rate)(double t);
};

class DrivenCrank : public ::testing::TestWithParam<Case> {};

// θ(t) = 0.8 sin(3t) + 2t, given as displacement, as its velocity 2.4 cos(3t) + 2 from θ(0) = 0, and as its
// acceleration −7.2 sin(3t) from θ(0) = 0, θ'(0) = 4.4 (ic_vel). The crank's angle follows θ within 1e-6 rad
// over 3 s (a whole turn, through the ±π seam of the angle), its angular velocity within 1e-5 rad/s; a motion
// that gravity could pull off, or that lost track across the seam, misses by far more.
TEST_P(DrivenCrank, FollowsTheMotionWhateverGravityDoes) {
  const Case c = GetParam();
  std::string motion = "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"" + std::string(c.valueType) +
                       "\" expr=\"" + c.expression + "\"";
  if (std::string(c.valueType) == "A") motion += " ic_vel=\"4.4\"";
  motion += "/>";
  const ContactRun run = runContactDeck(std::string("crank_") + c.valueType,
                                        crankDeck(motion, "<Simulate end_time=\"3\" print_interval=\"0.05\"/>"));
  ASSERT_TRUE(run.completed);
  const std::vector<double> angles = crankAngles(run.bodies);
  double worstAngle = 0, worstRate = 0;
  for (size_t row = 0; row < run.bodies.rowCount(); ++row) {
    const double t = run.bodies.at(row, "time");
    worstAngle = std::max(worstAngle, std::fabs(angles[row] - c.angle(t)));
    worstRate = std::max(worstRate, std::fabs(run.bodies.at(row, "wz") - c.rate(t)));
  }
  RecordProperty("worst_angle_error", sci(worstAngle));
  RecordProperty("worst_rate_error", sci(worstRate));
  EXPECT_GT(angles.back(), 2 * M_PI);  // it really turned a whole turn
  EXPECT_LT(worstAngle, 1e-6);
  EXPECT_LT(worstRate, 1e-5);
}

double theta(double t) { return 0.8 * std::sin(3 * t) + 2 * t; }
double thetaRate(double t) { return 2.4 * std::cos(3 * t) + 2; }

INSTANTIATE_TEST_SUITE_P(EveryValueType, DrivenCrank,
                         ::testing::Values(Case{"D", "0.8*SIN(3*TIME)+2*TIME", theta, thetaRate},
                                           Case{"V", "2.4*COS(3*TIME)+2", theta, thetaRate},
                                           Case{"A", "-7.2*SIN(3*TIME)", theta, thetaRate}),
                         [](const auto& info) { return std::string(info.param.valueType); });

// ic_disp moves the joint at the start: the crank is assembled at 0.5 rad and turns at 1 rad/s from there.
TEST(MotionJoint, InitialDisplacementIsAssembled) {
  const ContactRun run = runContactDeck(
      "crank_ic_disp", crankDeck("<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"V\" expr=\"1\" "
                                 "ic_disp=\"0.5\"/>",
                                 "<Simulate end_time=\"1\" print_interval=\"0.5\"/>"));
  ASSERT_TRUE(run.completed);
  const std::vector<double> angles = crankAngles(run.bodies);
  EXPECT_NEAR(angles.front(), 0.5, 1e-9);
  EXPECT_NEAR(angles.back(), 1.5, 1e-6);
}

// A slider on a translational joint along ground x, driven by DZ = 0.1·t²: its position and velocity.
TEST(MotionJoint, TranslationalMotionMovesTheSlider) {
  const std::string model = R"(<Param_Transient integr_tol="1e-8"/>
<Force_Gravity grav_x="-9.81"/>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1" a00="0" a10="1" a20="0" a02="1" a12="0" a22="0"/>
<Body_Rigid id="2" cg_id="20" mass="3" inertia_xx="0.1" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2"/>
<Reference_Marker id="21" body_id="2" a00="0" a10="1" a20="0" a02="1" a12="0" a22="0"/>
<Constraint_Joint id="1" type="TRANSLATIONAL" i_marker_id="21" j_marker_id="10"/>
<Motion_Joint id="5" joint_id="1" motion_type="T" expr="0.1*TIME**2"/>)";
  const ContactRun run = runContactDeck("slider_motion", deck(model, "<Simulate end_time=\"2\" print_interval=\"0.5\"/>"));
  ASSERT_TRUE(run.completed);
  for (size_t row = 0; row < run.bodies.rowCount(); ++row) {
    const double t = run.bodies.at(row, "time");
    EXPECT_NEAR(run.bodies.at(row, "x"), 0.1 * t * t, 1e-8) << t;
    EXPECT_NEAR(run.bodies.at(row, "vx"), 0.2 * t, 1e-6) << t;
    EXPECT_NEAR(run.bodies.at(row, "y"), 0, 1e-12) << t;
  }
}

// Without gravity, a crank driven at 2 rad/s and then released (Deactivate MOTION) keeps turning at 2 rad/s (to
// 1e-5: the restart takes the velocity IDAS reached; a motion still acting would hold it at 2 exactly too, but the
// angle would not show the restart, and a crank left at rest by the release would show 0).
TEST(MotionJoint, DeactivatedMotionLetsTheJointGoOnFreely) {
  std::string text = crankDeck("<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"V\" expr=\"2\"/>",
                               "<Simulate end_time=\"0.5\" print_interval=\"0.25\"/>\n"
                               "<Deactivate element_type=\"MOTION\" element_id=\"5\"/>\n"
                               "<Simulate end_time=\"1.5\" print_interval=\"0.25\"/>");
  text.replace(text.find("grav_y=\"-9.81\""), 14, "grav_y=\"0\"");
  const ContactRun run = runContactDeck("crank_released", text);
  ASSERT_TRUE(run.completed);
  const std::vector<double> angles = crankAngles(run.bodies);
  const size_t last = run.bodies.rowCount() - 1;
  EXPECT_NEAR(run.bodies.at(last, "wz"), 2, 1e-5);
  EXPECT_NEAR(angles.back(), 3, 1e-5);
}

// models/cam_follower.xml: once it has settled on the cam (after 0.2 s), the follower's tip centre follows the
// eccentric cam's profile y = e sin θ + sqrt((R + r)² − e² cos² θ) less the Hertz compression under its weight,
// (m g / k)^(1/1.5) = 34 µm, to within 3 µm; it never leaves the line of its guide. A follower that lost contact,
// a cam turning at another rate or a sign error in the profile misses by millimetres.
TEST(MotionJoint, CamFollowerRidesOnTheCamProfile) {
  const std::string dir = runModel("cam_follower");
  if (::testing::Test::HasFailure()) return;
  const ResultsTable bodies(dir + "/bodies.csv");
  const double e = 0.01, R = 0.04, r = 0.01;
  const double compression = std::pow(0.2 * 9.81 / 1e7, 1 / 1.5);
  double worst = 0;
  const std::vector<size_t> cam = bodies.rowsOfBody(2);
  const std::vector<size_t> follower = bodies.rowsOfBody(3);
  ASSERT_EQ(cam.size(), follower.size());
  for (size_t k = 0; k < cam.size(); ++k) {
    const double t = bodies.at(cam[k], "time");
    EXPECT_NEAR(bodies.at(follower[k], "x"), 0, 1e-12) << t;
    if (t < 0.2) continue;
    const Eigen::Vector4d q = bodies.eulerParameters(cam[k]);
    const double theta = 2 * std::atan2(q(3), q(0));
    EXPECT_NEAR(std::remainder(theta - 2 * M_PI * t, 2 * M_PI), 0, 1e-6) << t;
    const double tip = bodies.at(follower[k], "y") - 0.05;
    const double profile = e * std::sin(theta) + std::sqrt((R + r) * (R + r) - e * e * std::cos(theta) * std::cos(theta));
    worst = std::max(worst, std::fabs(tip - (profile - compression)));
  }
  RecordProperty("worst_profile_error", sci(worst));
  EXPECT_LT(worst, 3e-6);
}

}  // namespace
}  // namespace lodestone::testing

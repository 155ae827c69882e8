// Motion_Joint whose expression reads the model's state: a disk's revolute joint driven to follow half the angle of
// a swinging pendulum plus a function of time, q2 = 0.5·AZ(pendulum) + g(t). The motion is a constraint on both
// bodies, so the pendulum swings as a 1-D system with the disk's inertia geared onto it; its angle is checked at every
// output against an RK4 integration of that 1-D equation, and the disk's against the motion's expression.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"
#include "support/rk4.h"

namespace lodestone::testing {
namespace {

// The pendulum (body 2): 2 kg, CG 0.5 m from its revolute joint about ground z at the origin, 0.1 kg·m² about the
// CG (0.6 about the joint), released at rest 45° below the horizontal (so that it swings within AZ's (−π, π], the
// motion's measure, to 45° past the bottom), gravity −y. The disk (body 3): 1 kg, 0.3 kg·m²
// about its axis, a revolute joint about ground z at (2, 0, 0) through its CG (gravity exerts no torque on it).
// `motion` drives the disk's joint 2; `variables` are more statements.
std::string pendulumAndDisk(const std::string& motion, const std::string& variables = "") {
  return deck(R"(<Param_Transient integr_tol="1e-8"/>
<Force_Gravity grav_y="-9.81"/>
<Body_Rigid id="1" isground="TRUE"/>
<Reference_Marker id="10" body_id="1"/>
<Reference_Marker id="12" body_id="1" pos_x="2"/>
<Body_Rigid id="2" cg_id="20" mass="2" inertia_xx="0.01" inertia_yy="0.1" inertia_zz="0.1"/>
<Reference_Marker id="20" body_id="2" pos_x="0.35355339059327373" pos_y="-0.35355339059327373"/>
<Reference_Marker id="21" body_id="2"/>
<Constraint_Joint id="1" type="REVOLUTE" i_marker_id="21" j_marker_id="10"/>
<Body_Rigid id="3" cg_id="30" mass="1" inertia_xx="0.2" inertia_yy="0.2" inertia_zz="0.3"/>
<Reference_Marker id="30" body_id="3" pos_x="2"/>
<Constraint_Joint id="2" type="REVOLUTE" i_marker_id="30" j_marker_id="12"/>
)" + motion + "\n" + variables,
              "<Simulate end_time=\"2\" print_interval=\"0.05\"/>");
}

// g(t) = 0.2 (1 − cos 2t): zero with its rate at the start, so the deck's configuration at rest is consistent.
double drive(double t) { return 0.2 * (1 - std::cos(2 * t)); }
double driveRate(double t) { return 0.4 * std::sin(2 * t); }
double driveAcceleration(double t) { return 0.8 * std::cos(2 * t); }

// The constraint q2 − q1/2 − g(t) = 0 with multiplier λ: I1 q1'' = τ1 + λ/2, I2 q2'' = −λ, so
// (I1 + I2/4) q1'' = −m g l cos(q1 − π/4) − (I2/2) g''(t), with q1 counted from the pendulum's start.
double pendulumAcceleration(double t, double q1, double) {
  const double pivotInertia = 0.1 + 2 * 0.5 * 0.5, diskInertia = 0.3;
  return (-2 * 9.81 * 0.5 * std::cos(q1 - M_PI / 4) - 0.5 * diskInertia * driveAcceleration(t)) /
         (pivotInertia + 0.25 * diskInertia);
}

// A body's rotation about ground z from its Euler parameters, unwrapped along its rows.
std::vector<double> anglesAboutZ(const ResultsTable& bodies, const std::vector<size_t>& rows) {
  std::vector<double> angles;
  for (const size_t row : rows) {
    double angle = 2 * std::atan2(bodies.at(row, "e3"), bodies.at(row, "e0"));
    if (!angles.empty()) angle += 2 * M_PI * std::round((angles.back() - angle) / (2 * M_PI));
    angles.push_back(angle);
  }
  return angles;
}

class MotionReadingState : public ::testing::TestWithParam<bool> {};

// At each of the 41 outputs over 2 s: the pendulum's angle within 1e-6 rad of the RK4 reference (steps of 1e-4 s,
// accurate to ~1e-12) and its rate within 1e-5 rad/s (measured: 2.4e-7 and 7.8e-7); the disk's angle within 1e-9 rad of
// 0.5·q1 + g(t), the motion's equation, and its rate within 1e-6 rad/s of 0.5·q1' + g'(t) (measured: 7e-13 and 8e-11).
// A motion that left the pendulum free (no reaction on the bodies its expression reads) swings with I1 = 0.6 instead of
// 0.675 and misses by ~0.1 rad; one without ∂f/∂t in its velocity equation misses the disk's rate by up to 0.4 rad/s.
TEST_P(MotionReadingState, DiskFollowsHalfThePendulumAngle) {
  const bool throughVariable = GetParam();
  const std::string law = "0.5*AZ(21,10)+0.2*(1-COS(2*TIME))";
  const std::string motion = std::string("<Motion_Joint id=\"5\" joint_id=\"2\" motion_type=\"R\" expr=\"") +
                             (throughVariable ? "VARVAL(7)" : law) + "\"/>";
  const std::string variable =
      throughVariable ? "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"" + law + "\"/>" : "";
  const ContactRun run =
      runContactDeck(throughVariable ? "motion_state_variable" : "motion_state", pendulumAndDisk(motion, variable));
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> pendulumRows = run.bodies.rowsOfBody(2), diskRows = run.bodies.rowsOfBody(3);
  ASSERT_EQ(pendulumRows.size(), 41u);
  ASSERT_EQ(diskRows.size(), pendulumRows.size());
  const std::vector<double> q1 = anglesAboutZ(run.bodies, pendulumRows), q2 = anglesAboutZ(run.bodies, diskRows);
  PointMotion reference{0, 0};
  double referenceTime = 0;
  constexpr double kStep = 1e-4;
  double worstAngle = 0, worstRate = 0, worstMotion = 0, worstMotionRate = 0;
  for (size_t k = 0; k < pendulumRows.size(); ++k) {
    const double t = run.bodies.at(pendulumRows[k], "time");
    while (referenceTime < t - 0.5 * kStep) {
      reference = rk4Step(pendulumAcceleration, referenceTime, reference, kStep);
      referenceTime += kStep;
    }
    const double w1 = run.bodies.at(pendulumRows[k], "wz"), w2 = run.bodies.at(diskRows[k], "wz");
    worstAngle = std::max(worstAngle, std::fabs(q1[k] - reference.position));
    worstRate = std::max(worstRate, std::fabs(w1 - reference.velocity));
    worstMotion = std::max(worstMotion, std::fabs(q2[k] - (0.5 * q1[k] + drive(t))));
    worstMotionRate = std::max(worstMotionRate, std::fabs(w2 - (0.5 * w1 + driveRate(t))));
  }
  RecordProperty("worst_pendulum_angle_error", sci(worstAngle));
  RecordProperty("worst_pendulum_rate_error", sci(worstRate));
  RecordProperty("worst_motion_error", sci(worstMotion));
  RecordProperty("worst_motion_rate_error", sci(worstMotionRate));
  EXPECT_LT(*std::min_element(q1.begin(), q1.end()), -M_PI / 4);  // it really swung past the bottom
  EXPECT_LT(worstAngle, 1e-6);
  EXPECT_LT(worstRate, 1e-5);
  EXPECT_LT(worstMotion, 1e-9);
  EXPECT_LT(worstMotionRate, 1e-6);
}

// A law whose gain on the pendulum's angle changes with time, f = (0.5 + 0.1 sin 2t)·q1 + g(t), has a mixed
// derivative ∂²f/∂t∂q1 = 0.2 cos 2t, which the law above lacks. The disk's angular acceleration at each output (the
// consistent one, from the motion's acceleration target) must be the second derivative of f along the pendulum's
// motion, q2'' = f_q1·q1'' + 2·f_tq1·q1' + f_tt, from the pendulum's own wz and wdz of the same row: within 1e-6
// rad/s² (measured: 2.4e-7). A target that counted the mixed term once instead of twice misses by 0.2·|q1'|, up to
// about 0.5 rad/s².
TEST(MotionReadingStateAndTime, DiskAccelerationIsTheLawsSecondDerivative) {
  const ContactRun run = runContactDeck(
      "motion_state_mixed", pendulumAndDisk("<Motion_Joint id=\"5\" joint_id=\"2\" motion_type=\"R\" "
                                            "expr=\"(0.5+0.1*SIN(2*TIME))*AZ(21,10)+0.2*(1-COS(2*TIME))\"/>"));
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> pendulumRows = run.bodies.rowsOfBody(2), diskRows = run.bodies.rowsOfBody(3);
  ASSERT_EQ(pendulumRows.size(), 41u);
  ASSERT_EQ(diskRows.size(), pendulumRows.size());
  const std::vector<double> q1 = anglesAboutZ(run.bodies, pendulumRows);
  double worst = 0, largestMixed = 0;
  for (size_t k = 0; k < pendulumRows.size(); ++k) {
    const double t = run.bodies.at(pendulumRows[k], "time");
    const double w1 = run.bodies.at(pendulumRows[k], "wz"), a1 = run.bodies.at(pendulumRows[k], "wdz");
    const double gain = 0.5 + 0.1 * std::sin(2 * t), gainRate = 0.2 * std::cos(2 * t);
    const double lawCurvature = -0.4 * std::sin(2 * t) * q1[k] + driveAcceleration(t);
    const double expected = gain * a1 + 2 * gainRate * w1 + lawCurvature;
    worst = std::max(worst, std::fabs(run.bodies.at(diskRows[k], "wdz") - expected));
    largestMixed = std::max(largestMixed, std::fabs(gainRate * w1));
  }
  RecordProperty("worst_disk_acceleration_error", sci(worst));
  EXPECT_GT(largestMixed, 0.1);  // the mixed term matters
  EXPECT_LT(worst, 1e-6);
}

INSTANTIATE_TEST_SUITE_P(DirectOrThroughVariable, MotionReadingState, ::testing::Bool(),
                         [](const auto& info) { return info.param ? "ThroughVariable" : "Direct"; });

}  // namespace
}  // namespace lodestone::testing

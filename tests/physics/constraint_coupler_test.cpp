// Constraint_Coupler and Constraint_Gear. Two spur gears on REVOLUTE joints to ground, coupled 2.5·q1 + q2 = 0 (gear
// 2 turns 2.5 times as fast, the other way), gear 1 driven by a Motion_Joint: the rates' ratio holds to round-off at
// every output, the angles' relation to the assembly's tolerance, and the reactions are those of the reflected
// inertia — the motor gives (I1 + 2.5²·I2)·α1, the coupler takes −2.5²·I2·α1 from gear 1, and the motor's power is
// the rate of change of the gears' kinetic energy. A static equilibrium through a coupler; a coupler of three joints
// with a translation; and a gear whose ratio comes from its common-velocity marker: the pitch radii's.
#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/joint_testing.h"

namespace lodestone::testing {
namespace {

using Vec3 = Eigen::Vector3d;

constexpr double kInertia1 = 0.02, kInertia2 = 0.05;  // about the gears' axes, kg·m²
constexpr double kRatio = 2.5;                        // q2 = −2.5·q1

double driveAngle(double t) { return 0.8 * std::sin(3 * t) + 2 * t; }
double driveRate(double t) { return 2.4 * std::cos(3 * t) + 2; }
double driveAcceleration(double t) { return -7.2 * std::sin(3 * t); }

std::string gearDeck() {
  DeckXml settings;
  settings.gravity = Vec3(0, -9.81, 0);  // carried by the joints: the CGs are on the axes
  settings.integrTol = 1e-8;
  settings.endTime = 2;
  settings.printInterval = 0.02;
  BodyXml gear1{.id = 2, .cg = 20, .mass = 1, .inertia = Vec3(0.01, 0.01, kInertia1)};
  BodyXml gear2{.id = 3, .cg = 30, .mass = 0.5, .inertia = Vec3(0.03, 0.03, kInertia2)};
  return deckXml(settings,
                 markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3(0.35, 0, 0)) + bodyXml(gear1) +
                     markerXml(20, 2, Vec3::Zero()) + markerXml(21, 2, Vec3::Zero()) + bodyXml(gear2) +
                     markerXml(30, 3, Vec3(0.35, 0, 0)) + markerXml(31, 3, Vec3(0.35, 0, 0)) +
                     jointXml(1, "REVOLUTE", 21, 10) + jointXml(2, "REVOLUTE", 31, 11) +
                     "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"D\" "
                     "expr=\"0.8*SIN(3*TIME)+2*TIME\"/>\n"
                     "<Constraint_Coupler id=\"7\" joint1_id=\"1\" joint2_id=\"2\" freedom_2=\"R\" "
                     "coefficients=\"2.5 1\"/>\n");
}

TEST(ConstraintCoupler, SpurGearsKeepTheirRatioAndReflectTheirInertia) {
  const DeckRun run = runDeckText("coupler_spur_gears", gearDeck());
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const ResultsTable joints((run.output / "joints.csv").string());
  const BodyMotion gear1(bodies, 2), gear2(bodies, 3);
  ASSERT_EQ(gear1.count(), 101u);
  const std::vector<double> angle1 = angleAbout(gear1, Vec3::UnitZ());
  const std::vector<double> angle2 = angleAbout(gear2, Vec3::UnitZ());
  const std::vector<size_t> motor = joints.rowsOf(5, "Motion_Joint");
  const std::vector<size_t> coupler = joints.rowsOf(7, "Constraint_Coupler");
  ASSERT_EQ(motor.size(), gear1.count());
  ASSERT_EQ(coupler.size(), gear1.count());

  const double torquePeak = (kInertia1 + kRatio * kRatio * kInertia2) * 7.2;
  double worstRatio = 0, worstAngle = 0, worstDrive = 0, worstMotor = 0, worstCoupler = 0, worstPower = 0;
  for (size_t k = 0; k < gear1.count(); ++k) {
    const double t = gear1.time(k);
    const double rate1 = gear1.angularVelocity(k).z(), rate2 = gear2.angularVelocity(k).z();
    worstRatio = std::max(worstRatio, std::fabs(rate2 + kRatio * rate1) / std::fabs(kRatio * rate1));
    worstAngle = std::max(worstAngle, std::fabs(angle2[k] + kRatio * angle1[k]));
    worstDrive = std::max(worstDrive, std::fabs(angle1[k] - driveAngle(t)) + std::fabs(rate1 - driveRate(t)));
    const double alpha = driveAcceleration(t);
    const double motorTorque = joints.at(motor[k], "tz");
    worstMotor = std::max(worstMotor, std::fabs(motorTorque - (kInertia1 + kRatio * kRatio * kInertia2) * alpha));
    worstCoupler = std::max(worstCoupler,
                            std::fabs(joints.at(coupler[k], "tz") + kRatio * kRatio * kInertia2 * alpha));
    // The motor's power against the rate of the kinetic energy of the two gears' spins.
    const double energyRate = kInertia1 * rate1 * alpha + kInertia2 * rate2 * (-kRatio * alpha);
    worstPower = std::max(worstPower, std::fabs(motorTorque * rate1 - energyRate));
  }
  RecordProperty("worst_rate_ratio_error", sci(worstRatio));
  RecordProperty("worst_angle_relation_error", sci(worstAngle));
  RecordProperty("worst_motor_torque_error", sci(worstMotor));
  RecordProperty("worst_coupler_torque_error", sci(worstCoupler));
  RecordProperty("worst_power_error", sci(worstPower));
  // θ1(2) = 4 + 0.8·sin 6: gear 1 crossed its ±π seam, gear 2 (9.4 rad) crossed it three times.
  EXPECT_GT(angle1.back(), 3.5);
  EXPECT_LT(worstDrive, 1e-8);
  EXPECT_LT(worstRatio, 1e-12);
  EXPECT_LT(worstAngle, 1e-10);
  EXPECT_LT(worstMotor, 1e-7 * torquePeak);
  EXPECT_LT(worstCoupler, 1e-7 * torquePeak);
  EXPECT_LT(worstPower, 1e-7 * torquePeak * 4.4);
}

// Static analysis through a coupler: gears whose CGs sit off their axes (gear 1's 0.02 m, gear 2's 0.1 m, both along
// x at the start) under gravity along −y, coupled 2.5·q1 + q2 = 0, rest where the virtual work of the two gravity
// torques vanishes: m1·g·0.02·cos θ1 = 2.5·m2·g·0.1·cos θ2 with θ2 = −2.5·θ1.
TEST(ConstraintCoupler, StaticEquilibriumBalancesTheReflectedTorques) {
  DeckXml settings;
  settings.gravity = Vec3(0, -9.81, 0);
  BodyXml gear1{.id = 2, .cg = 20, .mass = 1, .inertia = Vec3(0.01, 0.01, kInertia1)};
  BodyXml gear2{.id = 3, .cg = 30, .mass = 0.5, .inertia = Vec3(0.03, 0.03, kInertia2)};
  std::string deck = deckXml(
      settings, markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3(0.35, 0, 0)) + bodyXml(gear1) +
                    markerXml(20, 2, Vec3(0.02, 0, 0)) + markerXml(21, 2, Vec3::Zero()) + bodyXml(gear2) +
                    markerXml(30, 3, Vec3(0.45, 0, 0)) + markerXml(31, 3, Vec3(0.35, 0, 0)) +
                    jointXml(1, "REVOLUTE", 21, 10) + jointXml(2, "REVOLUTE", 31, 11) +
                    "<Constraint_Coupler id=\"7\" joint1_id=\"1\" joint2_id=\"2\" coefficients=\"2.5 1\"/>\n");
  const std::string transient = "analysis_type=\"Transient\"";
  deck.replace(deck.find(transient), transient.size(), "analysis_type=\"Static\"");
  const DeckRun run = runDeckText("coupler_static", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const BodyMotion gear1Motion(bodies, 2), gear2Motion(bodies, 3);
  const size_t last = gear1Motion.count() - 1;
  // The angles from the CGs' places about the axes.
  const Vec3 cg1 = gear1Motion.cg(last), cg2 = gear2Motion.cg(last) - Vec3(0.35, 0, 0);
  const double theta1 = std::atan2(cg1.y(), cg1.x()), theta2 = std::atan2(cg2.y(), cg2.x());
  const double imbalance = 1 * 9.81 * 0.02 * std::cos(theta1) - 2.5 * 0.5 * 9.81 * 0.1 * std::cos(theta2);
  RecordProperty("torque_imbalance", sci(imbalance));
  RecordProperty("theta1", sci(theta1));
  EXPECT_GT(std::fabs(theta1), 0.1);  // it moved off the deck's configuration, where the torques do not balance
  EXPECT_LT(std::fabs(2.5 * theta1 + theta2 - 2 * M_PI * std::round((2.5 * theta1 + theta2) / (2 * M_PI))), 1e-9);
  EXPECT_LT(std::fabs(imbalance), 1e-8);  // of torques of order 0.2 N·m
}

// A coupler of three joints, one of them sliding: a pinion driven on a REVOLUTE joint, a rack on a TRANSLATIONAL
// joint along ground x (its markers' z-axes along x), and a free wheel on a REVOLUTE joint, held by
// 0.05·q1 + q2 + 0.2·q3 = 0. The rack and the wheel share what the pinion gives by their inertias; whatever they
// do, the rates obey the relation to round-off at every output.
TEST(ConstraintCoupler, ThreeJointsWithATranslationHoldTheirRelation) {
  DeckXml settings;
  settings.gravity = Vec3(0, -9.81, 0);
  settings.integrTol = 1e-8;
  settings.endTime = 1;
  settings.printInterval = 0.02;
  BodyXml pinion{.id = 2, .cg = 20, .mass = 1, .inertia = Vec3(0.01, 0.01, kInertia1)};
  BodyXml rack{.id = 3, .cg = 30, .mass = 2, .inertia = Vec3(0.1, 0.1, 0.1)};
  BodyXml wheel{.id = 4, .cg = 40, .mass = 1, .inertia = Vec3(0.05, 0.05, 0.08)};
  const std::string deck = deckXml(
      settings, markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3(0, -0.05, 0), Vec3::UnitY(), Vec3::UnitX()) +
                    markerXml(12, 1, Vec3(0, 0.5, 0)) + bodyXml(pinion) + markerXml(20, 2, Vec3::Zero()) +
                    markerXml(21, 2, Vec3::Zero()) + bodyXml(rack) + markerXml(30, 3, Vec3(0, -0.05, 0)) +
                    markerXml(31, 3, Vec3(0, -0.05, 0), Vec3::UnitY(), Vec3::UnitX()) + bodyXml(wheel) +
                    markerXml(40, 4, Vec3(0, 0.5, 0)) + markerXml(41, 4, Vec3(0, 0.5, 0)) +
                    jointXml(1, "REVOLUTE", 21, 10) + jointXml(2, "TRANSLATIONAL", 31, 11) +
                    jointXml(3, "REVOLUTE", 41, 12) +
                    "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"D\" "
                    "expr=\"0.8*SIN(3*TIME)+2*TIME\"/>\n"
                    "<Constraint_Coupler id=\"7\" joint1_id=\"1\" joint2_id=\"2\" joint3_id=\"3\" "
                    "freedom_2=\"T\" coefficients=\"0.05, 1, 0.2\"/>\n");
  const DeckRun run = runDeckText("coupler_three_joints", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const BodyMotion pinionMotion(bodies, 2), rackMotion(bodies, 3), wheelMotion(bodies, 4);
  ASSERT_EQ(pinionMotion.count(), 51u);
  double worstRelation = 0, largestRack = 0, largestWheel = 0;
  for (size_t k = 0; k < pinionMotion.count(); ++k) {
    const double pinionTerm = 0.05 * pinionMotion.angularVelocity(k).z();
    const double rackTerm = rackMotion.velocity(k).x();
    const double wheelTerm = 0.2 * wheelMotion.angularVelocity(k).z();
    const double size = std::max({std::fabs(pinionTerm), std::fabs(rackTerm), std::fabs(wheelTerm)});
    worstRelation = std::max(worstRelation, std::fabs(pinionTerm + rackTerm + wheelTerm) / size);
    largestRack = std::max(largestRack, std::fabs(rackTerm));
    largestWheel = std::max(largestWheel, std::fabs(wheelTerm));
  }
  RecordProperty("worst_relation_error", sci(worstRelation));
  EXPECT_GT(largestRack, 0.01);  // both free joints take part
  EXPECT_GT(largestWheel, 0.01);
  EXPECT_LT(worstRelation, 1e-12);
}

// Constraint_Gear: spur gears of pitch radii 0.1 and 0.25 m meshing externally at (0.1, 0, 0), where the
// common-velocity marker on ground (the housing of both joints) points its z-axis along +y, the teeth's common
// motion. The pitch points move alike: ω1·r1 = −ω2·r2 at every output, to round-off.
TEST(ConstraintGear, SpurGearRatesAreInTheRatioOfTheRadii) {
  DeckXml settings;
  settings.gravity = Vec3(0, -9.81, 0);
  settings.integrTol = 1e-8;
  settings.endTime = 2;
  settings.printInterval = 0.02;
  const double radius1 = 0.1, radius2 = 0.25;
  BodyXml gear1{.id = 2, .cg = 20, .mass = 1, .inertia = Vec3(0.01, 0.01, kInertia1)};
  BodyXml gear2{.id = 3, .cg = 30, .mass = 0.5, .inertia = Vec3(0.03, 0.03, kInertia2)};
  const std::string deck = deckXml(
      settings, markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3(radius1 + radius2, 0, 0)) + bodyXml(gear1) +
                    markerXml(20, 2, Vec3::Zero()) + markerXml(21, 2, Vec3::Zero()) + bodyXml(gear2) +
                    markerXml(30, 3, Vec3(radius1 + radius2, 0, 0)) + markerXml(31, 3, Vec3(radius1 + radius2, 0, 0)) +
                    markerXml(12, 1, Vec3(radius1, 0, 0), Vec3::UnitX(), Vec3::UnitY()) +
                    jointXml(1, "REVOLUTE", 21, 10) + jointXml(2, "REVOLUTE", 31, 11) +
                    "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" val_type=\"D\" "
                    "expr=\"0.8*SIN(3*TIME)+2*TIME\"/>\n"
                    "<Constraint_Gear id=\"8\" joint1_id=\"1\" joint2_id=\"2\" cv_marker_id=\"12\"/>\n");
  const DeckRun run = runDeckText("gear_spur", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const BodyMotion motion1(bodies, 2), motion2(bodies, 3);
  ASSERT_EQ(motion1.count(), 101u);
  const std::vector<double> angle1 = angleAbout(motion1, Vec3::UnitZ());
  const std::vector<double> angle2 = angleAbout(motion2, Vec3::UnitZ());
  double worstRatio = 0, worstAngle = 0;
  for (size_t k = 0; k < motion1.count(); ++k) {
    const double rate1 = motion1.angularVelocity(k).z(), rate2 = motion2.angularVelocity(k).z();
    worstRatio = std::max(worstRatio, std::fabs(rate2 / rate1 + radius1 / radius2));
    worstAngle = std::max(worstAngle, std::fabs(radius2 * angle2[k] + radius1 * angle1[k]));
  }
  RecordProperty("worst_rate_ratio_error", sci(worstRatio));
  RecordProperty("worst_pitch_arc_error", sci(worstAngle));
  EXPECT_GT(angle1.back(), 3.5);
  EXPECT_LT(worstRatio, 1e-12);
  EXPECT_LT(worstAngle, 1e-11);
}

}  // namespace
}  // namespace lodestone::testing

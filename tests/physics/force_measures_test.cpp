// JOINT, SPDP, SFORCE, BUSH and FX…TZ in requests and sensors, against what physics says they are: a pendulum's
// revolute reaction is m·(a − g) at every output and m·(g + ω²·d) at the bottom, and a sensor on it halts where the
// closed-form swing gives that reaction; springs' forces are k·(x − x0) from the body's place; FZ between a bushing's
// markers is the bushing's force, BUSH's and the law's from the body's motion.
#include <cmath>
#include <numbers>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/joint_testing.h"
#include "support/results_csv.h"
#include "support/math_constants.h"

namespace lodestone::testing {
namespace {


// A compound pendulum in the x-y plane about the ground z axis (gravity −y), released at rest horizontally (CG at
// (d, 0, 0)): body 2 (mass m, inertia i about its CG), CG marker 20, pivot marker 21 on it at the origin, ground
// marker 10; REVOLUTE 1 with I = 21, J = 10.
constexpr double kPendulumMass = 2, kArm = 1, kInertia = 0.01;
constexpr double kPivotInertia = kInertia + kPendulumMass * kArm * kArm;

std::string pendulum(const std::string& extra) {
  BodyXml body;
  body.mass = kPendulumMass;
  body.inertia = Vec3(kInertia, kInertia, kInertia);
  return markerXml(10, 1, Vec3::Zero()) + markerXml(20, 2, Vec3(kArm, 0, 0)) + markerXml(21, 2, Vec3::Zero()) +
         bodyXml(body) + jointXml(1, "REVOLUTE", 21, 10) + extra;
}

// The joint's force on the pendulum at angle θ from hanging (θ0 = 90° at rest): ω² and α from energy and the moment
// of gravity about the pivot, the CG's acceleration d·(α cos θ − ω² sin θ, α sin θ + ω² cos θ), F = m·(a − g).
Vec3 reactionAt(double theta) {
  const double omega2 = 2 * kPendulumMass * kG * kArm * std::cos(theta) / kPivotInertia;
  const double alpha = -kPendulumMass * kG * kArm * std::sin(theta) / kPivotInertia;
  const Vec3 a(kArm * (alpha * std::cos(theta) - omega2 * std::sin(theta)),
               kArm * (alpha * std::sin(theta) + omega2 * std::cos(theta)), 0);
  return kPendulumMass * (a - Vec3(0, -kG, 0));
}

DeckXml pendulumDeck() {
  DeckXml d;
  d.gravity = Vec3(0, -kG, 0);
  d.integrTol = 1e-9;
  d.endTime = 2;
  d.printInterval = 0.01;
  return d;
}

const char* const kPendulumRequest =
    "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"JOINT(1,0,2,0)\" expr2=\"JOINT(1,0,3,0)\" "
    "expr3=\"JOINT(1,1,3,0)\" expr4=\"JOINT(1,0,1,0)\" expr5=\"FY(21,10)\" expr6=\"JOINT(1,0,8,0)\" "
    "expr7=\"FY(10,21,0)\" expr8=\"FM(21)\"/>\n";

// At every output, the only loads on the pendulum are gravity and the joint: JOINT(1,0,…) = m·(a − g) with a from
// bodies.csv; on the ground side the opposite; FY(21,10) the same as JOINT's y. At the bottom (a sensor halts the run
// as the CG passes x = 0), m·(g + ω²·d) with ω from bodies.csv and from energy (58.6648 N). Measured (integr_tol
// 1e-9): 6.5e-7 N at the outputs (of up to 60 N); at the bottom 5.3e-9 of the value from ω, 7.3e-9 of the energy's.
// Fails when: the reaction is read on the wrong side or with the wrong sign, FY sums the wrong marker, or the torque
// about the pivot is not about the I marker's origin.
TEST(ForceMeasures, PendulumJointReactionIsMassTimesAccelerationLessGravity) {
  const std::string sensor = "<Sensor_Event id=\"5\" type=\"EXPRESSION\" expr=\"DX(20)\" compare=\"LT\" value=\"0\" "
                             "error_tol=\"1e-12\" halt=\"TRUE\"/>\n";
  const DeckRun run = runDeckText("force_measures_pendulum", deckXml(pendulumDeck(), pendulum(kPendulumRequest +
                                                                                             sensor)));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string()), requests((run.output / "requests.csv").string());
  const std::vector<size_t> bodyRows = bodies.rowsOfBody(2), requestRows = requests.rowsOfBody(7);
  ASSERT_EQ(bodyRows.size(), requestRows.size());
  ASSERT_GT(bodyRows.size(), 10u);
  double worst = 0;
  for (size_t k = 0; k < bodyRows.size(); ++k) {
    const Vec3 expected = kPendulumMass * (bodies.vector3(bodyRows[k], "ax", "ay", "az") - Vec3(0, -kG, 0));
    const auto f = [&](int n) { return requests.at(requestRows[k], "f" + std::to_string(n)); };
    const std::string at = " at t=" + std::to_string(bodies.at(bodyRows[k], "time"));
    EXPECT_NEAR(f(1), expected.x(), 1e-6) << at;
    EXPECT_NEAR(f(2), expected.y(), 1e-6) << at;
    EXPECT_NEAR(f(3), -expected.y(), 1e-6) << "on the ground side" << at;
    EXPECT_NEAR(f(4), expected.norm(), 1e-6) << at;
    EXPECT_EQ(f(5), f(2)) << "FY between the joint's markers is the joint's" << at;
    EXPECT_NEAR(f(6), 0, 1e-9) << "a revolute about z carries no torque about z" << at;
    EXPECT_EQ(f(7), f(3)) << "FY on the ground marker" << at;
    EXPECT_EQ(f(8), f(4)) << "FM with J left out: everything at 21" << at;
    worst = std::max(worst, std::fabs(f(2) - expected.y()));
  }
  // The last row is the bottom.
  const size_t bottom = bodyRows.back();
  ASSERT_NEAR(bodies.at(bottom, "x"), 0, 1e-9);
  const double omega = bodies.at(bottom, "wz");
  const double fromMotion = kPendulumMass * (kG + omega * omega * kArm);
  const double fromEnergy = reactionAt(0).y();  // m·(g + 2·m·g·d²/I_p)
  const double reaction = requests.at(requestRows.back(), "f2");
  RecordProperty("bottom_reaction_N", sci(reaction));
  RecordProperty("worst_output_error_N", sci(worst));
  EXPECT_NEAR(reaction, fromMotion, 1e-8 * fromMotion);
  EXPECT_NEAR(reaction, fromEnergy, 3e-8 * fromEnergy);
  EXPECT_NEAR(requests.at(requestRows.back(), "f1"), 0, 1e-7) << "no tangential force where gravity has no moment";
}

// A sensor on the reaction: JOINT(1,0,3,0) rises from m·g·(1 − m·d²/I_p) = 0.098 N at release to 58.7 N at the
// bottom; GE 40 halts where the closed form gives 40 N. The request at the halt reads 40 to the sensor's tolerance,
// and the angle there (from the CG's place) is the closed form's to 1e-7 rad. Fails when the sensor's root function
// reads the reaction of another state (the multipliers left from the last residual) or none (NaN: no halt).
TEST(ForceMeasures, SensorOnAJointReactionHaltsWhereTheSwingGivesThatReaction) {
  const double threshold = 40;
  const std::string sensor = "<Sensor_Event id=\"5\" type=\"EXPRESSION\" expr=\"JOINT(1,0,3,0)\" compare=\"GE\" "
                             "value=\"40\" error_tol=\"1e-9\" halt=\"TRUE\"/>\n";
  const DeckRun run =
      runDeckText("force_measures_sensor", deckXml(pendulumDeck(), pendulum(kPendulumRequest + sensor)));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string()), requests((run.output / "requests.csv").string());
  const size_t last = bodies.rowsOfBody(2).back();
  const double time = bodies.at(last, "time");
  ASSERT_LT(time, 1.9) << "halted";
  EXPECT_NEAR(requests.at(requests.rowsOfBody(7).back(), "f2"), threshold, 1e-7);
  // The closed form's angle of 40 N, by bisection on (0, 90°): F_y falls from the bottom to the release.
  double low = 0, high = kPi / 2;
  for (int k = 0; k < 100; ++k) {
    const double middle = (low + high) / 2;
    (reactionAt(middle).y() > threshold ? low : high) = middle;
  }
  const double angle = std::atan2(bodies.at(last, "x"), -bodies.at(last, "y"));
  RecordProperty("halt_angle_rad", sci(angle));
  EXPECT_NEAR(angle, low, 1e-7);
}

// A body hanging on a Force_SpringDamper (k1 = 400, length 1) and a Force_Scalar_TwoBody spring k2·(1 − DM) (k2 = 100)
// from the ground marker at the origin, released 0.3 below the free length: it bounces along z. SPDP and SFORCE on
// the body (I) are k·(|z| − 1) upwards, −that on ground; magnitudes; in a marker's axes. Measured: round-off (the
// force and bodies.csv's z come from the same state). Fails when the side or the sign is wrong.
TEST(ForceMeasures, SpringForcesAreStiffnessTimesStretch) {
  DeckXml d;
  d.endTime = 1;
  d.printInterval = 0.02;
  BodyXml body;
  const std::string statements =
      markerXml(10, 1, Vec3::Zero()) + markerXml(11, 1, Vec3::Zero(), Vec3::UnitZ(), -Vec3::UnitX()) +
      markerXml(20, 2, Vec3(0, 0, -1.3)) + bodyXml(body) +
      "<Force_SpringDamper id=\"3\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" stiffness=\"400\" "
      "length=\"1\"/>\n"
      "<Force_Scalar_TwoBody id=\"4\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
      "val_expression=\"100*(1 - DM(20,10))\"/>\n"
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"SPDP(3,0,4,0)\" expr2=\"SPDP(3,1,4,0)\" "
      "expr3=\"SPDP(3,0,1,0)\" expr4=\"SFORCE(4,0,4,0)\" expr5=\"SFORCE(4,1,4,0)\" expr6=\"SFORCE(4,0,2,11)\" "
      "expr7=\"FZ(20,10)\" expr8=\"FZ(20)\"/>\n";
  const DeckRun run = runDeckText("force_measures_springs", deckXml(d, statements));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string()), requests((run.output / "requests.csv").string());
  const std::vector<size_t> bodyRows = bodies.rowsOfBody(2), requestRows = requests.rowsOfBody(7);
  ASSERT_EQ(bodyRows.size(), requestRows.size());
  double stretchRange = 0;
  for (size_t k = 0; k < bodyRows.size(); ++k) {
    const double stretch = -bodies.at(bodyRows[k], "z") - 1;
    stretchRange = std::max(stretchRange, std::fabs(stretch));
    const auto f = [&](int n) { return requests.at(requestRows[k], "f" + std::to_string(n)); };
    const std::string at = " at t=" + std::to_string(bodies.at(bodyRows[k], "time"));
    EXPECT_NEAR(f(1), 400 * stretch, 1e-9) << at;
    EXPECT_NEAR(f(2), -400 * stretch, 1e-9) << at;
    EXPECT_NEAR(f(3), 400 * std::fabs(stretch), 1e-9) << at;
    EXPECT_NEAR(f(4), 100 * stretch, 1e-9) << at;
    EXPECT_NEAR(f(5), -100 * stretch, 1e-9) << at;
    EXPECT_NEAR(f(6), 100 * stretch, 1e-9) << "marker 11's x is ground z" << at;
    EXPECT_NEAR(f(7), 500 * stretch, 1e-9) << "both springs between 20 and 10" << at;
    EXPECT_EQ(f(8), f(7)) << at;
  }
  EXPECT_GT(stretchRange, 0.25) << "the body moves";
}

// A body on a Force_Bushing to ground (different stiffness and damping per axis, a preload) thrown with a velocity
// and a spin: FZ(20,10) — the sum of the loads between the bushing's markers, on 20 — is BUSH(…,4,…), and both are
// the law −kz·DZ − cz·VZ + preload_z from bodies.csv (the CG is the I marker, J is the ground marker at the origin
// with ground's axes); FX and FY likewise; on the J side the opposite. Measured: round-off. Fails when FZ is
// computed from another element or side, or the bushing's force is not its law.
TEST(ForceMeasures, FzBetweenABushingsMarkersIsTheBushingsForce) {
  DeckXml d;
  d.gravity = Vec3::Zero();
  d.endTime = 1;
  d.printInterval = 0.02;
  BodyXml body;
  body.velocity = Vec3(0.3, -0.2, 0.5);
  body.angularVelocity = Vec3(0.4, 0.1, -0.3);
  const std::string statements =
      markerXml(10, 1, Vec3::Zero()) + markerXml(20, 2, Vec3(0.05, 0.02, -0.04)) + bodyXml(body) +
      "<Force_Bushing id=\"6\" i_marker_id=\"20\" j_marker_id=\"10\" kx=\"100\" ky=\"200\" kz=\"300\" cx=\"1\" "
      "cy=\"2\" cz=\"3\" ktx=\"10\" kty=\"20\" ktz=\"30\" ctx=\"0.1\" cty=\"0.2\" ctz=\"0.3\" preload_z=\"-5\"/>\n"
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"FX(20,10,10)\" expr2=\"FY(20,10)\" expr3=\"FZ(20,10,10)\" "
      "expr4=\"BUSH(6,0,4,10)\" expr5=\"FZ(10,20)\" expr6=\"BUSH(6,1,4,0)\" expr7=\"TZ(20,10)\" "
      "expr8=\"BUSH(6,0,8,0)\"/>\n";
  const DeckRun run = runDeckText("force_measures_bushing", deckXml(d, statements));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string()), requests((run.output / "requests.csv").string());
  const std::vector<size_t> bodyRows = bodies.rowsOfBody(2), requestRows = requests.rowsOfBody(7);
  ASSERT_EQ(bodyRows.size(), requestRows.size());
  double largest = 0;
  for (size_t k = 0; k < bodyRows.size(); ++k) {
    const Vec3 p = bodies.vector3(bodyRows[k], "x", "y", "z"), v = bodies.vector3(bodyRows[k], "vx", "vy", "vz");
    const Vec3 law(-100 * p.x() - 1 * v.x(), -200 * p.y() - 2 * v.y(), -300 * p.z() - 3 * v.z() - 5);
    largest = std::max(largest, law.norm());
    const auto f = [&](int n) { return requests.at(requestRows[k], "f" + std::to_string(n)); };
    const std::string at = " at t=" + std::to_string(bodies.at(bodyRows[k], "time"));
    EXPECT_NEAR(f(1), law.x(), 1e-10) << at;
    EXPECT_NEAR(f(2), law.y(), 1e-10) << at;
    EXPECT_NEAR(f(3), law.z(), 1e-10) << at;
    EXPECT_EQ(f(4), f(3)) << "BUSH's force on I" << at;
    EXPECT_NEAR(f(5), -law.z(), 1e-10) << "on the ground marker" << at;
    EXPECT_EQ(f(6), f(5)) << at;
    EXPECT_EQ(f(7), f(8)) << "the torque about 20's origin" << at;
  }
  EXPECT_GT(largest, 5.5) << "the body moves the bushing";
}

}  // namespace
}  // namespace lodestone::testing

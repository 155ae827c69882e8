// The figures the contact example decks in models/ promise in their comments, checked on their results: a user
// who runs a deck must see what its comment says.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdlib>
#include <iostream>
#include <numbers>
#include <set>

#include <gtest/gtest.h>

#include "solver/driver/run.h"
#include "support/contact_runs.h"
#include "support/joint_testing.h"
#include "support/magnet_testing.h"
#include "support/model_runs.h"
#include "support/oscillation.h"
#include "support/results_csv.h"
#include "support/text_files.h"

namespace lodestone::testing {
namespace {

TEST(ExampleDecks, NewtonsCradlePassesTheMomentumToTheLastBall) {
  const std::string dir = runModel("newtons_cradle");
  const ResultsTable bodies(dir + "/bodies.csv");
  ASSERT_GT(bodies.rowCount(), 5u);
  const size_t last = bodies.rowCount() - 5;  // the five balls' rows at the last output
  for (size_t row = last; row < bodies.rowCount(); ++row) {
    const double expected = bodies.at(row, "id") == 6 ? 0.5 : 0.0;
    EXPECT_NEAR(bodies.at(row, "vx"), expected, 1e-4) << "body " << bodies.at(row, "id");
  }
  // Five spheres listed as I and as J: ten pairs, of which the four of neighbours are within reach; each is written
  // once per output, never also in the other order.
  const ResultsTable contacts(dir + "/contacts.csv");
  std::set<std::pair<long, long>> pairs;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    pairs.insert({static_cast<long>(contacts.at(row, "i_graphic")), static_cast<long>(contacts.at(row, "j_graphic"))});
  }
  EXPECT_EQ(pairs.size(), 4u);
  for (const auto& [i, j] : pairs) {
    EXPECT_FALSE(pairs.count({j, i})) << i << " and " << j << " written both ways";
    EXPECT_EQ(std::abs(i - j), 1) << i << " and " << j << " are not neighbours";
  }
  EXPECT_EQ(contacts.rowCount() % 4, 0u);
}

TEST(ExampleDecks, BlockSlidesAtTheCoulombAcceleration) {
  const ResultsTable bodies(runModel("incline_sliding") + "/bodies.csv");
  const size_t last = bodies.rowCount() - 1;
  ASSERT_DOUBLE_EQ(bodies.at(last, "time"), 1.0);
  const double theta = std::numbers::pi / 6;
  const double a = 9.81 * (std::sin(theta) - 0.3 * std::cos(theta));
  EXPECT_NEAR(bodies.at(last, "vx"), a * std::cos(theta), 1e-3);
  EXPECT_NEAR(bodies.at(last, "vz"), -a * std::sin(theta), 1e-3);
}

TEST(ExampleDecks, BlockSticksWithFrictionCarryingTheSlope) {
  const ResultsTable contacts(runModel("incline_sticking") + "/contacts.csv");
  const size_t last = contacts.rowCount() - 1;
  EXPECT_NEAR(contacts.at(last, "ft") / contacts.at(last, "fn"), std::tan(20 * std::numbers::pi / 180), 1e-4);
  EXPECT_LT(contacts.at(last, "slip_speed"), 1e-4) << "creep stays below stiction_trans_vel";
  // The creep speed v where μ(v) = tan θ: μs·STEP(v, −vs, −1, vs, 1) = 0.5·(2·x²(3 − 2x) − 1) with x = (v + vs)/(2 vs),
  // solved by bisection (v = 0.5369·vs). Measured: within 7e-7 of it.
  const double vs = 1e-4, muStatic = 0.5, tanTheta = std::tan(20 * std::numbers::pi / 180);
  double low = 0, high = vs;
  for (int i = 0; i < 100; ++i) {
    const double v = 0.5 * (low + high), x = (v + vs) / (2 * vs);
    (muStatic * (2 * x * x * (3 - 2 * x) - 1) < tanTheta ? low : high) = v;
  }
  EXPECT_NEAR(contacts.at(last, "slip_speed"), low, 1e-5 * low) << "creeps where μ(v) = tan θ";
}

TEST(ExampleDecks, MagnetsComeToRestTouchingWithoutABounce) {
  const std::string dir = runModel("dipole_magnets");
  const ResultsTable contacts(dir + "/contacts.csv");
  const ResultsTable bodies(dir + "/bodies.csv");
  bool touched = false;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    if (contacts.at(row, "in_contact") == 1) touched = true;
    if (!touched) continue;
    EXPECT_EQ(contacts.at(row, "in_contact"), 1) << "apart again at t=" << contacts.at(row, "time");
    EXPECT_GE(contacts.at(row, "penetration_rate"), -1e-9) << "receding at t=" << contacts.at(row, "time");
  }
  ASSERT_TRUE(touched);
  const size_t last = contacts.rowCount() - 1;
  EXPECT_NEAR(contacts.at(last, "penetration"), 16.449417 / 1e5, 1e-8) << "the spring carries the magnetic force";
  const std::vector<size_t> one = bodies.rowsOfBody(2), two = bodies.rowsOfBody(3);
  EXPECT_NEAR(bodies.at(two.back(), "vx") - bodies.at(one.back(), "vx"), 0, 1e-6);
}

// ---- mesh contact: models/sphere_on_mesh_floor.xml and models/bracket_down_stairs.xml ----------------------------

// The text between `begin` (included) and the first `end` after it (included); empty when either is missing.
std::string elementText(const std::string& text, const std::string& begin, const std::string& end) {
  const size_t from = text.find(begin);
  if (from == std::string::npos) return "";
  const size_t to = text.find(end, from);
  return to == std::string::npos ? "" : text.substr(from, to + end.size() - from);
}

// How high the ball's bottom rises after its first impact: the highest CG height between the first separation and
// the second touch, less the CG height at the first touch (free fall from rest until then: z0 − g·t²/2, with t the
// onset that run.log gives). For the exact sphere this is the apex less the radius; for the mesh ball the touch
// height is that of its bottom face.
double firstReboundHeight(const std::filesystem::path& resultsDir) {
  const ResultsTable bodies((resultsDir / "bodies.csv").string());
  const std::vector<LoggedContactEvent> events = contactEventsOf(resultsDir / "run.log");
  std::vector<double> onsets, separations;
  for (const LoggedContactEvent& event : events) (event.onset ? onsets : separations).push_back(event.time);
  EXPECT_GE(onsets.size(), 2u) << "the ball must land twice";
  EXPECT_GE(separations.size(), 1u);
  if (onsets.size() < 2 || separations.empty()) return NAN;
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  const double touchHeight = bodies.at(rows.front(), "z") - 0.5 * 9.81 * onsets[0] * onsets[0];
  double apex = -INFINITY;
  for (size_t row : rows) {
    const double time = bodies.at(row, "time");
    if (time > separations[0] && time < onsets[1]) apex = std::max(apex, bodies.at(row, "z"));
  }
  return apex - touchHeight;
}

// The mesh ball (320 triangles) on the mesh floor (12) against the same deck with an exact Sphere and a
// BoxDefinedFromCenter floor, run here from the deck's own text: the mesh ball's nodes lie on the sphere, so the
// smooth surface it stands for is the sphere, and the rebound heights agree within 1e-6 (measured: 127.9314 mm both,
// equal to 1e-13; with its faces sampled as they are, crease_angle="0", the mesh ball fell 0.89 mm further onto a face
// and rebounded 0.44 % higher).
// magnet_cubes_snap.xml: wherever the cube has landed and creeps, the contact carries its weight and the magnets' pull
// at touching there (Akoun & Yonnet at a 0.1 nm gap, the limit to 2e-6), within 1e-3 (the deck asks accuracy 1e-4);
// and the figures the comment gives.
TEST(ExampleDecks, SnappedCubeMagnetRestsOnTheOtherWithTheContactCarryingThePull) {
  const std::string dir = runModel("magnet_cubes_snap");
  const ResultsTable bodies(dir + "/bodies.csv"), contacts(dir + "/contacts.csv");
  ASSERT_GT(bodies.rowCount(), 0u);
  ASSERT_GT(contacts.rowCount(), 0u);
  const size_t last = bodies.rowCount() - 1;
  EXPECT_EQ(bodies.at(last, "time"), 0.05);
  const Vector3 half = Vector3::Constant(0.01);
  const Vector3 offset(bodies.at(last, "x"), bodies.at(last, "y"), 0.02 + 1e-10);
  const Vector3 pull = magnet_testing::akounYonnetForce(half, 9e5, half, 9e5, offset);
  const double expected = -pull.z() + 0.06 * 9.81;
  EXPECT_NEAR(contacts.at(contacts.rowCount() - 1, "fn"), expected, 1e-3 * expected);
  // Where it lands and how fast it creeps are sensitive: the comment's figures, not physics.
  EXPECT_NEAR(bodies.at(last, "x"), -0.36e-3, 0.03e-3);
  EXPECT_NEAR(bodies.at(last, "vx"), 1.3e-3, 0.2e-3);
  EXPECT_NEAR(contacts.at(contacts.rowCount() - 1, "fn"), 162.63, 0.1);
}

TEST(ExampleDecks, MeshBallReboundsAsHighAsTheExactBall) {
  std::string exactDeck = fileText(std::string(LODESTONE_SOURCE_DIR) + "/models/sphere_on_mesh_floor.xml");
  ASSERT_FALSE(exactDeck.empty()) << "models/sphere_on_mesh_floor.xml cannot be read";
  const std::string floor = elementText(exactDeck, "<Post_Graphic id=\"100\"", "</Post_Graphic>");
  const std::string ball = elementText(exactDeck, "<Post_Graphic id=\"200\"", "/>");
  ASSERT_NE(floor.find("TriaMesh"), std::string::npos) << "the deck's floor is not the TriaMesh this test expects";
  ASSERT_NE(ball.find("mesh_file"), std::string::npos) << "the deck's ball is not the mesh this test expects";
  exactDeck.replace(exactDeck.find(floor), floor.size(),
                    "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.05\"/>\n"
                    "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"1\" "
                    "length_y=\"1\" length_z=\"0.1\"/>");
  exactDeck.replace(exactDeck.find(ball), ball.size(),
                    "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.05\"/>");
  const DeckRun exact = runDeckText("example_sphere_exact", exactDeck);
  ASSERT_TRUE(exact.completed);
  const double exactHeight = firstReboundHeight(exact.output);
  RecordProperty("exact_rebound_height", sci(exactHeight));
  // The deck drops the ball 0.2 m; its law gives a restitution of 0.8, a rebound of 0.128 m.
  EXPECT_NEAR(exactHeight, 0.128, 0.002) << "the exact ball's rebound, which the deck's comment quotes";

  const double meshHeight = firstReboundHeight(runModel("sphere_on_mesh_floor"));
  RecordProperty("mesh_rebound_height", sci(meshHeight));
  EXPECT_NEAR(meshHeight / exactHeight, 1, 1e-6) << "mesh " << meshHeight << " m, exact " << exactHeight << " m";
}

// The L bracket thrown onto the stairs: it comes down them (touching them before it touches the floor), never higher
// than its starting energy allows, and ends on the floor beyond the flight, below the bottom step's top.
TEST(ExampleDecks, BracketTumblesDownTheStairsOntoTheFloor) {
  const std::string dir = runModel("bracket_down_stairs");
  const ResultsTable bodies(dir + "/bodies.csv");
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  ASSERT_GT(rows.size(), 2u);
  const size_t first = rows.front(), last = rows.back();
  ASSERT_DOUBLE_EQ(bodies.at(last, "time"), 2.0);

  constexpr double kBottomStepTop = 0.08, kBottomStepNose = 0.4;  // the stairs' profile, in the deck
  const double z0 = bodies.at(first, "z");
  EXPECT_LT(bodies.at(last, "z"), kBottomStepTop) << "ends lower than the bottom step's top";
  // The lowest an L can rest is standing on the outer corners of its legs' tips, its CG 18 mm up.
  EXPECT_GT(bodies.at(last, "z"), 0.015) << "on the floor, not sunk into it";
  EXPECT_GT(bodies.at(last, "x"), kBottomStepNose) << "beyond the flight";
  EXPECT_LT(bodies.at(last, "z"), z0 - 0.3) << "moved down the stairs";

  // Its starting energy (0.65 m/s, 25 rad/s about y, I_yy = 3.26263e-4 kg·m², 0.3024 kg) could lift the CG at most
  // 56 mm above the release; contact that made energy would show here.
  const double mass = 0.3024, kinetic = 0.5 * mass * 0.65 * 0.65 + 0.5 * 3.26263e-4 * 25 * 25;
  double highest = -INFINITY;
  for (size_t row : rows) highest = std::max(highest, bodies.at(row, "z"));
  EXPECT_LT(highest, z0 + kinetic / (mass * 9.81));

  // run.log names the pair of each event: the first onset is with the stairs (Post_Graphic 100), and the floor
  // (110) comes later.
  const std::string onset = " Contact onset at t=";
  double onStairs = INFINITY, onFloor = INFINITY;
  for (const std::string& line : readLines(dir + "/run.log")) {
    const size_t at = line.find(onset);
    if (at == std::string::npos) continue;
    const double time = std::strtod(line.c_str() + at + onset.size(), nullptr);
    if (line.find("and id=100") != std::string::npos) onStairs = std::min(onStairs, time);
    if (line.find("and id=110") != std::string::npos) onFloor = std::min(onFloor, time);
  }
  EXPECT_LT(onStairs, onFloor) << "the bracket must come down the stairs, not fly over them";
  EXPECT_LT(onFloor, 2.0) << "it reaches the floor";
}

// ---- force elements: models/spring_damper_oscillator.xml ----------------------------------------------------------

// The block on the spring-damper: its equilibrium, damped period and exponential decay, as the deck's comment says.
TEST(ExampleDecks, SpringDamperBlockOscillatesAndDecaysAsPromised) {
  const ResultsTable bodies(runModel("spring_damper_oscillator") + "/bodies.csv");
  const double equilibrium = -(0.5 + 9.81 / 400), sigma = 1, omegaD = std::sqrt(399.0);
  const double period = periodOf(zeroCrossings(signalOf(bodies, 2, "z", "vz", equilibrium)));
  EXPECT_NEAR(period / (2 * std::numbers::pi / omegaD), 1, 1e-5);
  EXPECT_NEAR(period, 0.314553, 1e-6) << "the deck's figure";
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  const auto envelope = [&](size_t row) {
    const double u = bodies.at(row, "z") - equilibrium;
    return std::hypot(u, (bodies.at(row, "vz") + sigma * u) / omegaD);
  };
  EXPECT_NEAR(envelope(rows.front()), 24.556e-3, 1e-6);
  ASSERT_DOUBLE_EQ(bodies.at(rows.back(), "time"), 3.0);
  EXPECT_NEAR(envelope(rows.back()), 1.2226e-3, 1e-7);
  // At the deck's integr_tol 1e-10 (measured: 2.2e-6 below; 9.2e-5 at 1e-8, where the absolute tolerance per step
  // adds up over 9.5 periods).
  EXPECT_NEAR(envelope(rows.back()) / envelope(rows.front()), std::exp(-3.0), 2e-5 * std::exp(-3.0));
}

// models/double_pendulum.xml: released from horizontal, the links start at α1 = −9g/(7L), α2 = +3g/(7L), and the
// energy T + V stays at 0 J within 1e-6 of the largest kinetic energy (19.6 J) at every output (measured 1.9e-7).
// Fails when: the deck's inertias or lengths change; integr_tol is loosened to 1e-5 (the energy then wanders by
// 1e-4 of it); a joint does work (a wrong reaction, or Gᵀμ leaking into the velocities).
TEST(ExampleDecks, DoublePendulumKeepsItsEnergy) {
  const ResultsTable bodies(runModel("double_pendulum") + "/bodies.csv");
  const BodyMotion upper(bodies, 2), lower(bodies, 3);
  ASSERT_EQ(upper.count(), 301u);
  EXPECT_NEAR(upper.at(0, "wdz"), -9 * 9.81 / 7, 1e-6);
  EXPECT_NEAR(lower.at(0, "wdz"), 3 * 9.81 / 7, 1e-6);
  const Eigen::Matrix3d inertia = Eigen::Vector3d(1e-4, 0.0833333333, 0.0833333333).asDiagonal();
  double largestKinetic = 0, worst = 0;
  for (size_t k = 0; k < upper.count(); ++k) {
    double kinetic = 0, potential = 0;
    for (const BodyMotion* link : {&upper, &lower}) {
      const Eigen::Matrix3d r = link->rotation(k);
      const Vec3 w = link->angularVelocity(k);
      kinetic += 0.5 * link->velocity(k).squaredNorm() + 0.5 * w.dot(r * inertia * r.transpose() * w);
      potential += 9.81 * link->cg(k).y();
    }
    largestKinetic = std::max(largestKinetic, kinetic);
    worst = std::max(worst, std::fabs(kinetic + potential));
  }
  RecordProperty("largest_kinetic_energy_J", sci(largestKinetic));
  RecordProperty("energy_error_relative", sci(worst / largestKinetic));
  EXPECT_NEAR(largestKinetic, 19.6, 0.05);
  EXPECT_LT(worst, 1e-6 * largestKinetic);
}

// models/slider_crank.xml: the slider's x follows r·cos θ + √(l² − r²·sin² θ) of the crank angle θ at every
// output within 1e-6 m (measured 4e-9), the crank goes round, and the guide carries (2 + 0.5/2)·g = 22.0725 N.
// Fails when: a joint lets the loop open; the rod's length or the crank's changes in the deck; the reaction of the
// guide is reported on the other marker (its sign flips).
TEST(ExampleDecks, SliderFollowsTheCrankSliderKinematics) {
  const std::string dir = runModel("slider_crank");
  const ResultsTable bodies(dir + "/bodies.csv");
  const ResultsTable joints(dir + "/joints.csv");
  const BodyMotion crank(bodies, 2), slider(bodies, 4);
  ASSERT_EQ(crank.count(), 201u);
  const double r = 0.1, l = 0.3;
  double worst = 0;
  for (size_t k = 0; k < crank.count(); ++k) {
    const double theta = 2 * std::atan2(crank.eulerParameters(k)(3), crank.eulerParameters(k)(0));
    const double s = std::sin(theta);
    worst = std::max(worst, std::fabs(slider.cg(k).x() - (r * std::cos(theta) + std::sqrt(l * l - r * r * s * s))));
  }
  RecordProperty("slider_kinematics_error_m", sci(worst));
  EXPECT_LT(worst, 1e-6);
  const std::vector<double> turned = angleAbout(crank, Vec3::UnitZ());
  EXPECT_GT(turned.back(), 2 * std::numbers::pi) << "the crank makes a whole turn";
  const std::vector<size_t> guide = joints.rowsOfBody(4);  // joints.csv's id column: the guide's rows
  ASSERT_FALSE(guide.empty()) << "joints.csv has no rows for the guide, Constraint_Joint id=4";
  for (const size_t row : guide) EXPECT_NEAR(joints.at(row, "fz"), 2.25 * 9.81, 1e-6);
}

// models/slider_crank_motor.xml: the crank torque its Motion_Joint gives (joints.csv, the motion's rows) is the one
// the slider-crank's dynamics need. With θ = ωt, s = √(l² − r²·sin² θ), x = r·cos θ + s (slider), φ the rod's angle
// (sin φ = −r·sin θ / l), G = ((r·cos θ, r·sin θ) + (x, 0))/2 the rod's CG and ′ = d/dθ, the power balance
// τω = dT/dt − F·ẋ (T: the rod's and slider's kinetic energy; the crank's does not change; gravity does no work in
// the horizontal plane) gives
//     τ = ω²·(m_rod·G′·G″ + I_rod·φ′·φ″ + m_slider·x′·x″) − F·x′,
//     s′ = −r²·sin θ·cos θ / s,  s″ = (−r²·cos 2θ − s′²) / s,  x′ = −r·sin θ + s′,  x″ = −r·cos θ + s″,
//     φ′ = −r·cos θ / s,  φ″ = r·sin θ / s + r·cos θ·s′ / s²,
// with ω = 2π, r = 0.1, l = 0.3, m_rod = 0.5, I_rod = 0.00375, m_slider = 2 and the gas force F = −50 N along x.
// The motion's tz follows τ within 1e-6 of its peak (measured: 5e-10); its force and its torque about x and y are
// zero. Fails when: the motion's multiplier is mapped to the wrong body or sign, the output's reactions are IDAS's
// interpolated multipliers (5e-4 of the peak at this integr_tol), or the motion's rows are missing.
TEST(ExampleDecks, MotorTorqueIsWhatTheSliderCrankNeeds) {
  const std::string dir = runModel("slider_crank_motor");
  const ResultsTable bodies(dir + "/bodies.csv");
  const ResultsTable joints(dir + "/joints.csv");
  const BodyMotion crank(bodies, 2);
  const std::vector<size_t> motor = joints.rowsOf(5, "Motion_Joint");
  ASSERT_EQ(motor.size(), crank.count());
  ASSERT_EQ(motor.size(), 101u);
  const double omega = 2 * std::numbers::pi, r = 0.1, l = 0.3, rodMass = 0.5, rodInertia = 0.00375, sliderMass = 2;
  const double gasForce = -50;
  const auto torque = [&](double theta) {
    const double sin = std::sin(theta), cos = std::cos(theta);
    const double s = std::sqrt(l * l - r * r * sin * sin);
    const double s1 = -r * r * sin * cos / s, s2 = (-r * r * std::cos(2 * theta) - s1 * s1) / s;
    const double x1 = -r * sin + s1, x2 = -r * cos + s2;
    const Eigen::Vector2d g1 = (Eigen::Vector2d(-r * sin, r * cos) + Eigen::Vector2d(x1, 0)) / 2;
    const Eigen::Vector2d g2 = (Eigen::Vector2d(-r * cos, -r * sin) + Eigen::Vector2d(x2, 0)) / 2;
    const double phi1 = -r * cos / s, phi2 = r * sin / s + r * cos * s1 / (s * s);
    return omega * omega * (rodMass * g1.dot(g2) + rodInertia * phi1 * phi2 + sliderMass * x1 * x2) - gasForce * x1;
  };
  double peak = 0, worst = 0, worstOther = 0;
  for (size_t k = 0; k < motor.size(); ++k) {
    ASSERT_DOUBLE_EQ(joints.at(motor[k], "time"), crank.time(k));
    const double theta = 2 * std::atan2(crank.eulerParameters(k)(3), crank.eulerParameters(k)(0));
    peak = std::max(peak, std::fabs(torque(theta)));
    worst = std::max(worst, std::fabs(joints.at(motor[k], "tz") - torque(theta)));
    worstOther = std::max({worstOther, joints.vector3(motor[k], "fx", "fy", "fz").norm(),
                           std::hypot(joints.at(motor[k], "tx"), joints.at(motor[k], "ty"))});
  }
  RecordProperty("peak_torque_Nm", sci(peak));
  RecordProperty("torque_error_relative", sci(worst / peak));
  EXPECT_NEAR(peak, 5.3745, 1e-3) << "the outputs every 3.6° come within 1e-3 of the peak";
  EXPECT_LT(worst, 1e-6 * peak);
  EXPECT_LT(worstOther, 1e-9 * peak);
}

// ---- models/four_bar.xml -----------------------------------------------------------------------------------------

Eigen::Vector2d along(double angle) { return {std::cos(angle), std::sin(angle)}; }
Eigen::Vector2d across(double angle) { return {-std::sin(angle), std::cos(angle)}; }

// The crank-rocker of models/four_bar.xml at crank angle θ, in closed form: the rocker's angle, and per link
// (crank, coupler, rocker) the first and second derivatives in θ of its CG and of its angle.
struct FourBarAt {
  double rocker = 0;
  std::array<Eigen::Vector2d, 3> cg1, cg2;
  std::array<double, 3> angle1{}, angle2{};
};

FourBarAt fourBarAt(double theta) {
  const double a = 0.1, b = 0.35, c = 0.35, d = 0.52;  // crank, coupler, rocker, frame
  // The loop closure: C is where the circles of radius b about the crank pin B and c about the pivot D meet, above
  // the line B-D.
  const Eigen::Vector2d pinB = a * along(theta), pivotD(d, 0), toD = pivotD - pinB;
  const double foot = (b * b - c * c + toD.squaredNorm()) / (2 * toD.norm());
  const Eigen::Vector2d e = toD.normalized();
  const Eigen::Vector2d pinC = pinB + foot * e + std::sqrt(b * b - foot * foot) * Eigen::Vector2d(-e.y(), e.x());
  const double phi = std::atan2(pinC.y() - pinB.y(), pinC.x() - pinB.x()), psi = std::atan2(pinC.y(), pinC.x() - d);
  // C = B + b·u(φ) = D + c·u(ψ) differentiated once and twice in θ (u(α) = (cos α, sin α), n(α) = u′(α)):
  //   b·φ′·n(φ) − c·ψ′·n(ψ) = −a·n(θ),   b·φ″·n(φ) − c·ψ″·n(ψ) = a·u(θ) + b·φ′²·u(φ) − c·ψ′²·u(ψ).
  Eigen::Matrix2d closure;
  closure << b * across(phi), -c * across(psi);
  const Eigen::Vector2d first = closure.partialPivLu().solve(-a * across(theta));
  const double phi1 = first(0), psi1 = first(1);
  const Eigen::Vector2d second = closure.partialPivLu().solve(a * along(theta) + b * phi1 * phi1 * along(phi) -
                                                              c * psi1 * psi1 * along(psi));
  const double phi2 = second(0), psi2 = second(1);
  const Eigen::Vector2d pinB1 = a * across(theta), pinB2 = -a * along(theta);
  FourBarAt at;
  at.rocker = psi;
  at.angle1 = {1, phi1, psi1};
  at.angle2 = {0, phi2, psi2};
  at.cg1 = {pinB1 / 2, pinB1 + b / 2 * phi1 * across(phi), c / 2 * psi1 * across(psi)};
  at.cg2 = {pinB2 / 2, pinB2 + b / 2 * (phi2 * across(phi) - phi1 * phi1 * along(phi)),
            c / 2 * (psi2 * across(psi) - psi1 * psi1 * along(psi))};
  return at;
}

// models/four_bar.xml: a crank-rocker (crank 0.1 m, coupler 0.35 m, rocker 0.35 m, frame 0.52 m) in the vertical
// plane, its crank turned at ω = 2π rad/s by a Motion_Joint. At every output, with θ the crank's angle (from its
// Euler parameters, and equal to ωt), the rocker's angle is the loop closure's ψ(θ) within 1e-9 rad (measured
// 3e-14: the outputs are projected onto the joints), and the motor's torque (joints.csv, the motion's tz) is what
// the power balance asks for, the crank turning at constant speed:
//     τ = ω²·Σ (m·G′·G″ + I·φ′·φ″) + g·Σ m·G′y      (′ = d/dθ, over the three links; G a link's CG, φ its angle),
// m = 0.3, 1.2, 0.6 kg, I = m·L²/12, within 1e-6 of its peak (measured 9e-10); its force and its torque about x
// and y are zero.
// Fails when: a joint lets the loop open or the INLINE holds the wrong point; the motion's load is mapped to the
// wrong body or sign; gravity's work is lost (the g·Σ m·G′y term is 1.18 N·m at θ = 0).
TEST(ExampleDecks, FourBarFollowsItsLoopClosureAndItsMotorGivesThePower) {
  const std::string dir = runModel("four_bar");
  const ResultsTable bodies(dir + "/bodies.csv");
  const ResultsTable joints(dir + "/joints.csv");
  const BodyMotion crank(bodies, 2), rocker(bodies, 4);
  const std::vector<size_t> motor = joints.rowsOf(5, "Motion_Joint");
  ASSERT_EQ(crank.count(), 101u);
  ASSERT_EQ(motor.size(), crank.count());
  const double omega = 2 * std::numbers::pi, g = 9.81;
  const std::array<double, 3> mass{0.3, 1.2, 0.6}, length{0.1, 0.35, 0.35};
  const auto planarAngle = [](const BodyMotion& body, size_t k) {
    return 2 * std::atan2(body.eulerParameters(k)(3), body.eulerParameters(k)(0));
  };
  double worstCrank = 0, worstRocker = 0, worstTorque = 0, peak = 0, worstOther = 0;
  for (size_t k = 0; k < crank.count(); ++k) {
    const double theta = planarAngle(crank, k);
    worstCrank = std::max(worstCrank, std::fabs(std::remainder(theta - omega * crank.time(k), 2 * std::numbers::pi)));
    const FourBarAt at = fourBarAt(theta);
    worstRocker = std::max(worstRocker, std::fabs(std::remainder(planarAngle(rocker, k) - at.rocker,
                                                                 2 * std::numbers::pi)));
    double torque = 0;
    for (size_t link = 0; link < 3; ++link) {
      const double inertia = mass[link] * length[link] * length[link] / 12;
      torque += omega * omega * (mass[link] * at.cg1[link].dot(at.cg2[link]) +
                                 inertia * at.angle1[link] * at.angle2[link]) +
                g * mass[link] * at.cg1[link].y();
    }
    ASSERT_DOUBLE_EQ(joints.at(motor[k], "time"), crank.time(k));
    peak = std::max(peak, std::fabs(torque));
    worstTorque = std::max(worstTorque, std::fabs(joints.at(motor[k], "tz") - torque));
    worstOther = std::max({worstOther, joints.vector3(motor[k], "fx", "fy", "fz").norm(),
                           std::hypot(joints.at(motor[k], "tx"), joints.at(motor[k], "ty"))});
  }
  RecordProperty("rocker_angle_error_rad", sci(worstRocker));
  RecordProperty("peak_torque_Nm", sci(peak));
  RecordProperty("torque_error_relative", sci(worstTorque / peak));
  EXPECT_LT(worstCrank, 1e-9) << "the motion turns the crank at ω";
  EXPECT_LT(worstRocker, 1e-9);
  EXPECT_NEAR(peak, 1.5284, 1e-3) << "the outputs every 3.6° come within 1e-3 of the peak";
  EXPECT_LT(worstTorque, 1e-6 * peak);
  EXPECT_LT(worstOther, 1e-9 * peak);
}

// contact_force_sensor.xml: a 1 kg ball dropped 200 mm onto a plate whose law is the expression k·δ + c·δ̇; a
// Sensor_Event on CONTACT's |F| halts the run where the force first reaches its value. After the touch at
// t0 = √(2h/g) the impact is the damped oscillator m·δ'' + c·δ̇ + k·δ = m·g from δ = 0 at v0 = g·t0, in closed form:
// the halt time is its force's first crossing of 1000 N (by bisection), within 1e-8 s (the sensor's error_tol of
// 1e-3 N over dF/dt ≈ 1.7e6 N/s is 6e-10 s, the integrator's error on δ of ~1e-9 m another 6e-10 s; measured 1.1e-9
// s). The same deck asking 29.43 N, which the dashpot's jump at the touch (to c·v0 = 396 N) passes at once: IDAS
// restarts at the located touch, where the sensor's root function jumps across zero — no crossing IDAS can see — and
// the run went on to its end without the halt; it halts at the touch now, with the force c·v0 there.
TEST(ExampleDecks, ContactForceSensorHaltsTheDropWhereTheForceReachesItsValue) {
  const double g = 9.81, mass = 1, k = 1e6, c = 200;
  const double touch = std::sqrt(2 * 0.2 / g), v0 = g * touch;
  const double omega = std::sqrt(k / mass), zeta = c / (2 * std::sqrt(k * mass));
  const double damped = omega * std::sqrt(1 - zeta * zeta), rest = mass * g / k;
  // δ(t) = δs + e^(−ζωt)·(A cos ω_d t + B sin ω_d t), δ(0) = 0, δ'(0) = v0.
  const double a = -rest, b = (v0 + zeta * omega * a) / damped;
  const auto force = [&](double t) {
    const double decay = std::exp(-zeta * omega * t), cosine = std::cos(damped * t), sine = std::sin(damped * t);
    const double depth = rest + decay * (a * cosine + b * sine);
    const double rate = decay * ((-zeta * omega * a + damped * b) * cosine + (-zeta * omega * b - damped * a) * sine);
    return k * depth + c * rate;
  };
  double low = 0, high = 1e-3;  // the force rises from c·v0 to its peak within the first quarter period (1.6 ms)
  for (int halving = 0; halving < 100; ++halving) (force(0.5 * (low + high)) < 1000 ? low : high) = 0.5 * (low + high);
  const double reference = touch + low;

  const auto halt = [](const std::string& dir) {
    const std::vector<std::string> events = readLines(dir + "/events.csv");
    EXPECT_EQ(events.size(), 2u) << "the sensor did not halt the run";
    if (events.size() != 2) return std::pair<double, double>{NAN, NAN};
    EXPECT_NE(events[1].find(",41,halt,"), std::string::npos) << events[1];
    return std::pair<double, double>{std::stod(events[1]), std::stod(events[1].substr(events[1].rfind(',') + 1))};
  };
  const auto [time, value] = halt(runModel("contact_force_sensor"));
  EXPECT_NEAR(time, reference, 1e-8);
  EXPECT_NEAR(value, 1000, 1e-3);
  EXPECT_NEAR(time, 0.2022751, 1e-7);  // the comment's figure

  std::string deck = fileText(std::string(LODESTONE_SOURCE_DIR) + "/models/contact_force_sensor.xml");
  ASSERT_NE(deck.find("value=\"1000\""), std::string::npos) << "the deck's sensor is not the one this test expects";
  deck.replace(deck.find("value=\"1000\""), 12, "value=\"29.43\"");
  const DeckRun jump = runDeckText("contact_force_sensor_at_the_touch", deck);
  ASSERT_TRUE(jump.completed);
  const auto [touchTime, touchValue] = halt(jump.output.string());
  EXPECT_NEAR(touchTime, touch, 1e-8);
  EXPECT_NEAR(touchValue, c * v0, 1e-5 * c * v0);
}

// force_controlled_press.xml: a ram pressed into a workpiece whose law's stiffness is a variable of TIME (halving from
// 2e6 to 1e6 N/m between 0.2 and 0.4 s), by an actuator that reads the contact's force, −G·(F* − N). At rest the
// contact force is (m·g + G·F*)/(1 + G) = 451.962 N at either stiffness, the depth N/k: 0.225981 mm held at 0.15 s,
// 0.451962 mm at 0.6 s. Settled (the controlled ram rings at 500 Hz with ζ = 0.32), both within 1e-9 of the statics
// relative to the force (measured 1.3e-14) and 1e-10 m (measured 3e-18).
TEST(ExampleDecks, ForceControlledPressHoldsItsForceWhileTheWorkpieceSoftens) {
  const double weight = 2 * 9.81, gain = 9, target = 500;
  const double force = (weight + gain * target) / (1 + gain);
  const ResultsTable contacts(runModel("force_controlled_press") + "/contacts.csv");
  const auto rowAt = [&](double time) {
    for (size_t row = 0; row < contacts.rowCount(); ++row) {
      if (std::fabs(contacts.at(row, "time") - time) < 1e-9) return row;
    }
    ADD_FAILURE() << "no contacts.csv row at t=" << time;
    return size_t{0};
  };
  for (const auto& [time, stiffness] : {std::pair{0.15, 2e6}, std::pair{0.6, 1e6}}) {
    const size_t row = rowAt(time);
    EXPECT_NEAR(contacts.at(row, "fz"), force, 1e-9 * force) << "t=" << time;
    EXPECT_NEAR(contacts.at(row, "penetration"), force / stiffness, 1e-10) << "t=" << time;
  }
  EXPECT_NEAR(force, 451.962, 1e-9);  // the comment's figure
}

// slider_crank_measured.xml: a Motion_Joint whose expression is the Akima spline of a crank angle logged every 0.1 s
// (AKISPL(TIME, 0, 500)). At every output the crank's angle from its Euler parameters is the spline's value (the
// request's f1) within 1e-6 rad, at the logged times the logged angle within 1e-12 (the spline goes through its
// points), and the crank's speed WZ is the spline's slope (f2) within 1e-5 rad/s (the motion takes it by central
// differences of the expression). Fails when: the motion cannot read splines (TIME-only context: NaN), the spline
// misses its points, or the motion's derivative is not the spline's.
TEST(ExampleDecks, SplineDrivenCrankFollowsItsMeasuredPoints) {
  const std::string dir = runModel("slider_crank_measured");
  const ResultsTable bodies(dir + "/bodies.csv");
  const ResultsTable requests(dir + "/requests.csv");
  const BodyMotion crank(bodies, 2);
  ASSERT_EQ(crank.count(), 101u);
  ASSERT_EQ(requests.rowCount(), crank.count());
  const std::array<std::pair<double, double>, 11> logged{{{0.0, 0.0}, {0.1, 0.0312}, {0.2, 0.1274}, {0.3, 0.2890},
                                                          {0.4, 0.5130}, {0.5, 0.8051}, {0.6, 1.1583},
                                                          {0.7, 1.5802}, {0.8, 2.0620}, {0.9, 2.6089},
                                                          {1.0, 3.2150}}};
  double worstAngle = 0, worstSpeed = 0;
  int loggedSeen = 0;
  for (size_t k = 0; k < crank.count(); ++k) {
    ASSERT_DOUBLE_EQ(requests.at(k, "time"), crank.time(k));
    const double spline = requests.at(k, "f1");
    // The Euler parameters give the angle modulo 2π; the run turns the crank about half a turn.
    double angle = 2 * std::atan2(crank.eulerParameters(k)(3), crank.eulerParameters(k)(0));
    angle += 2 * std::numbers::pi * std::round((spline - angle) / (2 * std::numbers::pi));
    worstAngle = std::max(worstAngle, std::fabs(angle - spline));
    worstSpeed = std::max(worstSpeed, std::fabs(requests.at(k, "f3") - requests.at(k, "f2")));
    for (const auto& [time, value] : logged) {
      if (std::fabs(crank.time(k) - time) > 1e-12) continue;
      EXPECT_NEAR(spline, value, 1e-12) << "t=" << time;
      ++loggedSeen;
    }
  }
  EXPECT_EQ(loggedSeen, 11);
  EXPECT_LT(worstAngle, 1e-6);
  EXPECT_LT(worstSpeed, 1e-5);
  std::cout << "largest angle error " << worstAngle << " rad, speed error " << worstSpeed << " rad/s\n";
}

}  // namespace
}  // namespace lodestone::testing

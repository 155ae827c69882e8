// The scenes of Westhofen et al. 2024 as example decks (models/magnets/), each run shortened: the compass needles
// around a bar magnet, the nickel ball on its track, the objects in the glass sphere; the magnetic crane carrying one
// cube through its whole sequence.
#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numbers>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "magnetics/cuboid_field.h"
#include "magnetics/magnet_pair.h"
#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

using Kind = MagnetShape::Kind;

std::string readFileText(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// `text` with its one `from` replaced by `to`.
std::string sceneReplaced(std::string text, const std::string& from, const std::string& to) {
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

// The contacts' total force at each output time (contacts.csv has a row per pair and time). Each sum starts from
// zero: an Eigen vector is not initialised by default.
std::map<double, Vector3> contactForceByTime(const ResultsTable& contacts) {
  std::map<double, Vector3> total;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    total.try_emplace(contacts.at(row, "time"), Vector3::Zero()).first->second +=
        contacts.vector3(row, "fx", "fy", "fz");
  }
  return total;
}

// The deepest any contact went between outputs (contacts.csv's interval_max_penetration).
double deepestContact(const ResultsTable& contacts) {
  double deepest = 0;
  for (size_t row = 0; row < contacts.rowCount(); ++row) {
    deepest = std::max(deepest, contacts.at(row, "interval_max_penetration"));
  }
  return deepest;
}

// A measured figure of the test, in its XML report.
void record(const char* name, double value) { ::testing::Test::RecordProperty(name, sci(value)); }

// The total at `time`; zero when no contact has a row then.
Vector3 forceAt(const std::map<double, Vector3>& byTime, double time) {
  const auto found = byTime.find(time);
  return found == byTime.end() ? Vector3::Zero() : found->second;
}

// The figures of models/magnets/make_compass_needles.py.
const Magnet kBar{{Kind::kCuboid, 0, 0, Vector3(0.05, 0.02, 0.02)}, Vector3(156250, 0, 0)};
const Magnet kNeedle{{Kind::kCuboid, 0, 0, Vector3(0.01, 0.0015, 0.001)}, Vector3(0.05 / 1.2e-7, 0, 0)};
const double kNeedleInertiaZ = 7800 * 1.2e-7 * (0.02 * 0.02 + 0.003 * 0.003) / 12;

// At the start every needle turns as the torque of the bar and of the 117 other needles on it says: its angular
// acceleration about its pivot is that torque over its inertia, the torque summed here pair by pair, each pair asked
// 1e-7, to within 2e-4 of the sum of the pairs' torques' sizes (the deck asks 1e-4 per pair, and leaves far pairs out
// of the Jacobian). After 20 ms every needle still turns the way it started to: towards the field.
TEST(MagnetScenes, CompassNeedlesStartTurningAsTheirMagnetsTorquesSay) {
  std::string deck = readFileText(std::string(LODESTONE_SOURCE_DIR) + "/models/magnets/compass_needles.xml");
  deck = sceneReplaced(sceneReplaced(deck, "end_time=\"15\"", "end_time=\"0.02\""), "print_interval=\"0.05\"",
                  "print_interval=\"0.02\"");
  const DeckRun run = runDeckText("compass_needles", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  struct Needle {
    int id;
    MagnetPose pose;
    double angularAcceleration, turnRate;
  };
  std::vector<Needle> needles;
  for (int id = 101; id <= 218; ++id) {
    const std::vector<size_t> rows = bodies.rowsOfBody(id);
    ASSERT_EQ(rows.size(), 2u) << id;
    const Eigen::Quaterniond turn(bodies.at(rows[0], "e0"), bodies.at(rows[0], "e1"), bodies.at(rows[0], "e2"),
                                  bodies.at(rows[0], "e3"));
    needles.push_back({id, {turn.toRotationMatrix(), bodies.vector3(rows[0], "x", "y", "z")},
                       bodies.at(rows[0], "wdz"), bodies.at(rows[1], "wz")});
  }
  // Each needle's torque from the bar and from every other needle, and the sum of their sizes; each pair evaluated
  // once, for the torques about both needles' centres.
  const size_t count = needles.size();
  std::vector<double> torques(count), sizesOf(count);
  for (size_t i = 0; i < count; ++i) {
    const double bar = magnetPairInteraction(kBar, MagnetPose{}, kNeedle, needles[i].pose, 1e-7).torqueOnSecond.z();
    torques[i] += bar;
    sizesOf[i] += std::abs(bar);
    for (size_t j = i + 1; j < count; ++j) {
      const MagnetPairLoads pair = magnetPairInteraction(kNeedle, needles[i].pose, kNeedle, needles[j].pose, 1e-7);
      torques[i] += pair.torqueOnFirst.z();
      sizesOf[i] += std::abs(pair.torqueOnFirst.z());
      torques[j] += pair.torqueOnSecond.z();
      sizesOf[j] += std::abs(pair.torqueOnSecond.z());
    }
  }
  double worst = 0;
  for (size_t i = 0; i < count; ++i) {
    const Needle& needle = needles[i];
    const double torque = torques[i], sizes = sizesOf[i];
    SCOPED_TRACE(::testing::Message() << "needle body " << needle.id);
    const double error = std::abs(needle.angularAcceleration * kNeedleInertiaZ - torque);
    EXPECT_LT(error, 2e-4 * sizes);
    worst = std::max(worst, error / sizes);
    EXPECT_GT(needle.turnRate * torque, 0) << "torque " << torque << " N·m, turn rate " << needle.turnRate;
  }
  ::testing::Test::RecordProperty("worst_torque_error_over_sum_of_sizes", std::to_string(worst));
}

// The figures of models/magnets/make_ball_track.py.
constexpr double kSceneMu0 = 4e-7 * std::numbers::pi;
constexpr double kSteelBallRadius = 0.01;
const double kSteelBallMass = 8900 * 4 / 3.0 * std::numbers::pi * std::pow(kSteelBallRadius, 3);
const double kSusceptibility = 1.26e-4 / kSceneMu0 - 1;
// The ball's one dipole: m = α·H, α = 4πa³χ/(χ + 3) (a sphere's demagnetising factor 1/3).
const double kBallPolarisability =
    4 * std::numbers::pi * std::pow(kSteelBallRadius, 3) * kSusceptibility / (kSusceptibility + 3);
constexpr double kMagnetMoment = 13.75;  // A·m², along +z
constexpr double kMagnetDepth = 0.04765;  // the magnet's centre at z = −depth, x = y = 0
constexpr double kFlatHalfLength = 0.03;  // the groove's flat middle, |x| below it

// |H|² of the magnet's dipole at the ball's centre: m²(3z² + r²)/(16π²r⁸), r from the magnet.
double fieldSquared(const Eigen::Vector3d& ball) {
  const Eigen::Vector3d r = ball + Eigen::Vector3d(0, 0, kMagnetDepth);
  return kMagnetMoment * kMagnetMoment * (3 * r.z() * r.z() + r.squaredNorm()) /
         (16 * std::numbers::pi * std::numbers::pi * std::pow(r.norm(), 8));
}

// The soft ball's energy in the field, −μ0·α·|H|²/2, and the pull, its gradient's opposite: (μ0α/2)∇|H|², with
// ∇[(3z² + r²)/r⁸] = −(x(6r² + 24z²), y(6r² + 24z²), 24z³)/r¹⁰.
double magnetEnergy(const Eigen::Vector3d& ball) { return -kSceneMu0 * kBallPolarisability * fieldSquared(ball) / 2; }
Eigen::Vector3d magnetPull(const Eigen::Vector3d& ball) {
  const Eigen::Vector3d r = ball + Eigen::Vector3d(0, 0, kMagnetDepth);
  const double r2 = r.squaredNorm(), across = 6 * r2 + 24 * r.z() * r.z();
  const Eigen::Vector3d gradient = -Eigen::Vector3d(r.x() * across, r.y() * across, 24 * std::pow(r.z(), 3)) /
                                   std::pow(r2, 5);
  return kSceneMu0 * kBallPolarisability / 2 * kMagnetMoment * kMagnetMoment /
         (16 * std::numbers::pi * std::numbers::pi) * gradient;
}

// impacts.csv's contact intervals of one Force_Contact, each (J graphic, onset, separation; a contact still on at the
// end has none: +∞). Read by hand: an open interval's cells are empty, which ResultsTable refuses.
struct ContactInterval {
  int jGraphic;
  double onset, separation;
};
std::vector<ContactInterval> contactIntervals(const std::string& path) {
  std::vector<ContactInterval> intervals;
  std::ifstream file(path);
  std::string line;
  std::getline(file, line);  // id,i_graphic,j_graphic,onset_time,onset_located,separation_time,...
  while (std::getline(file, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
    if (cells.size() < 6) continue;
    intervals.push_back({std::atoi(cells[2].c_str()), std::strtod(cells[3].c_str(), nullptr),
                         cells[5].empty() ? HUGE_VAL : std::strtod(cells[5].c_str(), nullptr)});
  }
  return intervals;
}

// The rows of `table` at `time` (an event's output carries the event's time to the bit).
std::vector<size_t> sceneRowsAt(const ResultsTable& table, double time) {
  std::vector<size_t> rows;
  for (size_t row = 0; row < table.rowCount(); ++row) {
    if (table.at(row, "time") == time) rows.push_back(row);
  }
  return rows;
}

// One cycle of the perpetual motion track, 3.1 s of its 30: the ball let go at the funnel's height on the left ramp
// rolls down its V groove, is pulled on by the electromagnet under the middle, which switches off as it passes
// (Sensor_Event 50 prints there), climbs the right ramp, turns (Sensor_Event 51 prints at every turn), comes back
// through the magnet, pulled on again, and climbs back to the funnel.
//  - The pull the ball's motion shows on the groove's flat middle while the magnet is on (m·a less gravity and the
//    contacts' forces, at every 2 ms output) is the soft sphere's in the dipole's field, (μ0α/2)∇|H|², within 2e-4
//    of the pull at the pass (3μ0αm²/(4π²d⁷), 0.064 N): measured 1.4e-5. The outputs' accelerations are the
//    integrator's interpolant's, so not within a step of the kink before (the ball rings there: 1.5 % off 5 mm past
//    it) nor of the pass (14 % off 0.2 mm before it).
//  - The magnet's work up to the pass (energy.csv work_field, the only field force) is the ball's energy
//    in the field, U(start) − U(pass), within 1e-3 (measured 5e-5): the energy each pass gives, 0.659 mJ; the
//    second pass's work likewise within 2e-3 (measured 4e-5).
//  - It switches off at the pass: its work from the pass to the next turn is less than 0.5 % of that (measured
//    −0.07 %, over the 2 mm in which it falls to zero); had it stayed on, the ball would give it all back.
//  - The ball turns on the right ramp and back at the funnel at the height it started from, within 0.02 mm of
//    the 100 mm (measured −0.0001 and 0.0005 mm): the magnet replaces what the cycle loses. A 1 % error in the
//    magnet's energy would show as 0.036 mm at the funnel.
//  - It rolls without a bounce: on each face of the groove some contact is on at every instant (impacts.csv's
//    intervals leave no gap), and no contact is deeper than 10 µm (the law's spring at 3.2 N on a face, ten times
//    a face's static load at the pass, 0.30 N at 2.1 µm; the kinks' impacts reach 7.5 µm).
TEST(MagnetScenes, BallTrackReturnsToItsFunnelPumpedByTheMagnetItSwitchesOffAtThePass) {
  std::string deck = readFileText(std::string(LODESTONE_SOURCE_DIR) + "/models/magnets/ball_track.xml");
  deck = sceneReplaced(sceneReplaced(deck, "end_time=\"30\"", "end_time=\"3.1\""), "print_interval=\"0.01\"",
                  "print_interval=\"0.002\"");
  const DeckRun run = runDeckText("ball_track", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const ResultsTable contacts((run.output / "contacts.csv").string());
  const ResultsTable energy((run.output / "energy.csv").string());
  const ResultsTable events((run.output / "events.csv").string());
  std::vector<double> passes, turns;
  for (size_t row = 0; row < events.rowCount(); ++row) {
    (events.at(row, "id") == 50 ? passes : turns).push_back(events.at(row, "time"));
  }
  ASSERT_EQ(passes.size(), 2u);
  ASSERT_EQ(turns.size(), 2u);
  const auto ballAt = [&](double time) {
    const std::vector<size_t> rows = sceneRowsAt(bodies, time);
    EXPECT_EQ(rows.size(), 1u) << time;
    return rows.at(0);
  };
  const auto workAt = [&](double time) { return energy.at(sceneRowsAt(energy, time).at(0), "work_field"); };
  const Eigen::Vector3d start = bodies.vector3(0, "x", "y", "z");

  // The pull on the flat middle, at the outputs where the magnet is on (the ball coming towards it: x·vx < 0).
  const Eigen::Vector3d passPosition = bodies.vector3(ballAt(passes[0]), "x", "y", "z");
  const double passPull = magnetPull(passPosition).norm();
  EXPECT_NEAR(passPull,
              3 * kSceneMu0 * kBallPolarisability * kMagnetMoment * kMagnetMoment /
                  (4 * std::pow(std::numbers::pi, 2) * std::pow(passPosition.z() + kMagnetDepth, 7)),
              1e-12 * passPull);
  const std::map<double, Vector3> contactForce = contactForceByTime(contacts);
  int compared = 0;
  double worst = 0;
  for (const size_t row : bodies.rowsOfBody(2)) {
    const Eigen::Vector3d ball = bodies.vector3(row, "x", "y", "z");
    // On the flat, 10 mm past its kink (whose impact sets the ball ringing on the contact's stiffness for a few
    // ms), and 3 mm before the pass (whose step's interpolant smooths over the switch's kink in the force).
    const double distance = std::abs(ball.x());
    if (distance > kFlatHalfLength - 0.01 || distance < 0.003 || ball.x() * bodies.at(row, "vx") > 0) continue;
    const double time = bodies.at(row, "time");
    const Eigen::Vector3d shown = kSteelBallMass * bodies.vector3(row, "ax", "ay", "az") -
                                  Eigen::Vector3d(0, 0, -kSteelBallMass * kG) - forceAt(contactForce, time);
    const double error = (shown - magnetPull(ball)).norm();
    EXPECT_LT(error, 2e-4 * passPull) << "t = " << time << ", x = " << ball.x();
    worst = std::max(worst, error / passPull);
    ++compared;
  }
  EXPECT_GE(compared, 14);

  // The magnet's work: the field's energy up to each pass, nothing after it.
  const double passEnergy = magnetEnergy(start) - magnetEnergy(passPosition);
  const double workToPass = workAt(passes[0]);
  EXPECT_NEAR(workToPass, passEnergy, 1e-3 * passEnergy);
  const double workAfterPass = workAt(turns[0]) - workToPass;
  EXPECT_LT(std::abs(workAfterPass), 5e-3 * passEnergy);
  const double secondPassWork = workAt(passes[1]) - workAt(turns[0]);
  EXPECT_NEAR(secondPassWork, passEnergy, 2e-3 * passEnergy);

  // Back at the funnel's height, and as high on the right.
  const double rightTurnRise = bodies.at(ballAt(turns[0]), "z") - start.z();
  const double funnelRise = bodies.at(ballAt(turns[1]), "z") - start.z();
  EXPECT_LT(std::abs(rightTurnRise), 2e-5);
  EXPECT_LT(std::abs(funnelRise), 2e-5);
  EXPECT_NEAR(bodies.at(ballAt(turns[1]), "x"), start.x(), 1e-4);

  // No bounce: on each face of the groove (even J graphics on +y, odd on −y) always some contact, never deep.
  for (const int side : {0, 1}) {
    std::vector<std::pair<double, double>> spans;
    for (const ContactInterval& interval : contactIntervals((run.output / "impacts.csv").string())) {
      if (interval.jGraphic % 2 == side) spans.emplace_back(interval.onset, interval.separation);
    }
    std::sort(spans.begin(), spans.end());
    ASSERT_FALSE(spans.empty());
    EXPECT_EQ(spans.front().first, 0.0);
    double coveredTo = spans.front().second;
    for (const auto& [onset, separation] : spans) {
      EXPECT_LE(onset, coveredTo) << "side " << side << ": no contact from " << coveredTo << " s to " << onset << " s";
      coveredTo = std::max(coveredTo, separation);
    }
    EXPECT_GE(coveredTo, 3.1);
  }
  const double deepest = deepestContact(contacts);
  EXPECT_LT(deepest, 1e-5);
  record("worst_pull_error_over_pass_pull", worst);
  record("work_to_pass_over_field_energy", workToPass / passEnergy - 1);
  record("work_after_pass_over_field_energy", workAfterPass / passEnergy);
  record("second_pass_work_over_field_energy", secondPassWork / passEnergy - 1);
  record("right_turn_rise_m", rightTurnRise);
  record("funnel_rise_m", funnelRise);
  record("deepest_penetration_m", deepest);
}

// The sphere of magnetic objects, its first 0.1 s: the 27 objects drop from their grid into the glass. The run reads
// the deck's two meshes (mesh_file, from the deck's folder) and builds the cavity, the 28 magnets (one soft sample
// each) and the pile's mesh contact.
//  - Until the first touch (at 0.060 s) each object falls freely: at 0.05 s it is g·t²/2 = 12.3 mm lower, within
//    1e-5 m (the deck's integr_tol is 1e-3; measured 9.4e-7 m, the BDF's first low-order steps), and has not moved
//    sideways or turned, within 1e-9 (the electromagnet is off until 2 s, so the soft objects carry no moment).
//  - No contact goes deeper than 0.5 mm: the law's Hertzian impact at the fall's 0.6 m/s reaches
//    (5/4·m·v²/k)^(2/5) = 3.3e-4 m for the heavier object alone, undamped (measured 8.7e-5 m between outputs,
//    damped by the deck's 1000 N·s/m). Sampled at its nodes, no ear or limb can reach into the glass unseen, and
//    the run would end with an error if it did.
TEST(MagnetScenes, SphereOfObjectsDropIntoTheGlassWithoutPassingIntoIt) {
  const std::string folder = std::string(LODESTONE_SOURCE_DIR) + "/models/magnets/";
  std::string deck = readFileText(folder + "sphere_of_objects.xml");
  deck = sceneReplaced(sceneReplaced(deck, "end_time=\"25\"", "end_time=\"0.1\""), "print_interval=\"0.05\"",
                  "print_interval=\"0.01\"");
  size_t at = 0;
  while ((at = deck.find("mesh_file=\"meshes/", at)) != std::string::npos) {
    deck.insert(at + 11, folder);
    at += 11 + folder.size();
  }
  const DeckRun run = runDeckText("sphere_of_objects", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const ResultsTable contacts((run.output / "contacts.csv").string());
  int objects = 0;
  for (long id = 100; id < 127; ++id) {
    const std::vector<size_t> rows = bodies.rowsOfBody(id);
    ASSERT_GE(rows.size(), 6u) << id;
    const size_t start = rows[0], fallen = rows[5];  // t = 0 and 0.05 s
    ASSERT_NEAR(bodies.at(fallen, "time"), 0.05, 1e-12);
    EXPECT_NEAR(bodies.at(fallen, "z"), bodies.at(start, "z") - 9.81 * 0.05 * 0.05 / 2, 1e-5) << id;
    EXPECT_NEAR(bodies.at(fallen, "x"), bodies.at(start, "x"), 1e-9) << id;
    EXPECT_NEAR(bodies.at(fallen, "y"), bodies.at(start, "y"), 1e-9) << id;
    for (const char* component : {"e1", "e2", "e3"}) {
      EXPECT_NEAR(bodies.at(fallen, component), bodies.at(start, component), 1e-9) << id << " " << component;
    }
    ++objects;
  }
  EXPECT_EQ(objects, 27);
  int touching = 0;
  for (size_t row = 0; row < contacts.rowCount(); ++row) touching += contacts.at(row, "in_contact") > 0 ? 1 : 0;
  EXPECT_GT(touching, 0) << "the objects reached the glass by 0.1 s";
  const double deepest = deepestContact(contacts);
  EXPECT_LT(deepest, 5e-4);
  record("deepest_penetration_m", deepest);
}

// The figures of models/magnets/make_magnetic_crane.py.
constexpr double kCube = 0.015;
const double kCubeMass = 8900 * kCube * kCube * kCube;
// A cube's magnet is the sphere inscribed in it, one dipole: m = V·χ_eff·H, χ_eff = χ/(1 + χ/3), V = π·a³/6.
const double kCubePolarisability =
    std::numbers::pi / 6 * kCube * kCube * kCube * kSusceptibility / (1 + kSusceptibility / 3);
const Cuboid kCraneMagnet{Vector3(0.06, 0.06, 0.02), Vector3(0, 0, 250 / (0.12 * 0.12 * 0.04))};
const double kCraneMagnetMass = 7800 * 0.12 * 0.12 * 0.04;
constexpr double kContactStiffness = 1e7, kContactExponent = 1.5;
constexpr int kCraneMagnetBody = 8, kCubeBody = 101, kRopeToMagnetJoint = 14;
constexpr double kSecondBoxX = 0.5, kSecondBoxHalfInner = 0.1;

// MotionSolve's cubic STEP.
double cubicStep(double x, double x0, double h0, double x1, double h1) {
  if (x <= x0) return h0;
  if (x >= x1) return h1;
  const double u = (x - x0) / (x1 - x0);
  return h0 + (h1 - h0) * u * u * (3 - 2 * u);
}
// The electromagnet's strength_expression: on over 3.5-3.7 s, off over 15.5-15.7 s.
double craneMagnetStrength(double time) {
  return cubicStep(time, 3.5, 0, 3.7, 1) - cubicStep(time, 15.5, 0, 15.7, 1);
}

// The soft cube's pull in the magnet's field at full strength, μ0·(∇H)ᵀ·m with m = α·H (its sphere's dipole),
// H the cuboid's closed form in the magnet's axes, its gradient by central differences of 1e-7 m.
Vector3 craneMagnetPull(const Vector3& cube, const Vector3& magnet, const Matrix3& rotation) {
  const Vector3 local = rotation.transpose() * (cube - magnet);
  const double step = 1e-7;
  Matrix3 gradient;
  for (int j = 0; j < 3; ++j) {
    const Vector3 offset = step * Vector3::Unit(j);
    gradient.col(j) =
        (cuboidField(kCraneMagnet, local + offset) - cuboidField(kCraneMagnet, local - offset)) / (2 * step);
  }
  const Vector3 field = cuboidField(kCraneMagnet, local);
  return rotation * (kSceneMu0 * kCubePolarisability * gradient.transpose() * field);
}

// The magnetic crane carrying one nickel cube (models/magnets/magnetic_crane_one_cube.xml, written by the generator of
// magnetic_crane.xml: the same crane, rope, magnet, boxes, contact and sequence; its 125 cubes take half an hour, see
// README), the whole 22.03 s, outputs every 10 ms:
//  - At rest before the crane moves (0.4 s): the rope hangs straight down (every link's centre within 1e-9 m of the
//    vertical through the hook) and its lowest joint carries the magnet's weight (within 1e-9 of it); the cube sinks
//    into the first box's floor by the law's depth under its weight, (m·g/k)^(1/1.5) = 9.54 µm, within 1e-6 of it.
//  - While the magnet is on at all (3.5-15.7 s, its strength s > 1 %), the pull the cube's motion shows, m·a less its
//    weight and the contacts' forces (outputs' accelerations are solved at the output's state, with its joints),
//    is the soft cube's closed form (its inscribed sphere's dipole) in the cuboid's field times s², within 1e-8 of
//    its size (measured 6e-10; 0.95 N clinging to the face): on the floor while the field rises, leaping, clinging
//    to the face and carried.
//  - It is lifted (at 10 s, in the middle of the trolley's travel, more than 0.2 m above the floors), carried to the
//    second box and dropped there: at the end it rests on that box's floor, inside its walls, upright (its axes
//    within 1e-3 rad of ground's: no tumble), at the law's depth within 1e-6.
//  - No contact is deeper than 0.2 mm (the deepest: 0.080 mm where the cube strikes the magnet's face at 34 N, and
//    0.072 mm landing in the second box).
TEST(MagnetScenes, MagneticCraneCarriesACubeFromTheFirstBoxToTheSecondPulledAsTheClosedFormSays) {
  std::string deck = readFileText(std::string(LODESTONE_SOURCE_DIR) + "/models/magnets/magnetic_crane_one_cube.xml");
  deck = sceneReplaced(deck, "print_interval=\"0.05\"", "print_interval=\"0.01\"");
  const DeckRun run = runDeckText("magnetic_crane_one_cube", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const ResultsTable contacts((run.output / "contacts.csv").string());
  const ResultsTable joints((run.output / "joints.csv").string());
  const auto rowAt = [](const ResultsTable& table, double time, int id) {
    for (size_t row = 0; row < table.rowCount(); ++row) {
      if (std::abs(table.at(row, "time") - time) < 1e-9 && table.at(row, "id") == id) return row;
    }
    ADD_FAILURE() << "no row of id " << id << " at t = " << time;
    return size_t{0};
  };
  const double restDepth = std::pow(kCubeMass * kG / kContactStiffness, 1 / kContactExponent);
  const auto depthAt = [&](double time) {
    double depth = 0;
    for (size_t row = 0; row < contacts.rowCount(); ++row) {
      if (std::abs(contacts.at(row, "time") - time) < 1e-9) depth = std::max(depth, contacts.at(row, "penetration"));
    }
    return depth;
  };

  // At rest: the rope straight down, the magnet's weight on its lowest joint, the cube at its depth on the floor.
  double ropeOffVertical = 0;
  for (int link = 4; link <= 7; ++link) {
    const size_t row = rowAt(bodies, 0.4, link);
    ropeOffVertical = std::max(ropeOffVertical, std::hypot(bodies.at(row, "x"), bodies.at(row, "y")));
  }
  EXPECT_LT(ropeOffVertical, 1e-9);
  const double magnetWeight = kCraneMagnetMass * kG;
  const double ropeLoad = joints.at(rowAt(joints, 0.4, kRopeToMagnetJoint), "fz");
  EXPECT_NEAR(ropeLoad, magnetWeight, 1e-9 * magnetWeight);
  const double floorDepth = depthAt(0.4);
  EXPECT_NEAR(floorDepth, restDepth, 1e-6 * restDepth);

  // The pull, at every output while the magnet is on.
  const std::map<double, Vector3> contactForce = contactForceByTime(contacts);
  int compared = 0;
  double worst = 0, largest = 0;
  for (const size_t row : bodies.rowsOfBody(kCubeBody)) {
    const double time = bodies.at(row, "time"), strength = craneMagnetStrength(time);
    if (strength < 0.01) continue;
    const size_t magnetRow = rowAt(bodies, time, kCraneMagnetBody);
    const Eigen::Quaterniond turn(bodies.at(magnetRow, "e0"), bodies.at(magnetRow, "e1"), bodies.at(magnetRow, "e2"),
                                  bodies.at(magnetRow, "e3"));
    const Vector3 expected = strength * strength *
                             craneMagnetPull(bodies.vector3(row, "x", "y", "z"),
                                             bodies.vector3(magnetRow, "x", "y", "z"), turn.toRotationMatrix());
    const Vector3 shown = kCubeMass * bodies.vector3(row, "ax", "ay", "az") -
                          Vector3(0, 0, -kCubeMass * kG) - forceAt(contactForce, time);
    const double error = (shown - expected).norm();
    EXPECT_LT(error, 1e-8 * expected.norm()) << "t = " << time << ": " << shown.transpose() << " against "
                                             << expected.transpose();
    worst = std::max(worst, error / expected.norm());
    largest = std::max(largest, expected.norm());
    ++compared;
  }
  EXPECT_GE(compared, 1200);

  // Lifted, carried and dropped into the second box, where it rests upright.
  EXPECT_GT(bodies.at(rowAt(bodies, 10, kCubeBody), "z"), 0.2);
  const size_t last = bodies.rowsOfBody(kCubeBody).back();
  const Vector3 end = bodies.vector3(last, "x", "y", "z");
  EXPECT_LT(std::abs(end.x() - kSecondBoxX), kSecondBoxHalfInner - kCube / 2);
  EXPECT_LT(std::abs(end.y()), kSecondBoxHalfInner - kCube / 2);
  const double endDepth = depthAt(bodies.at(last, "time"));
  EXPECT_NEAR(end.z(), kCube / 2 - restDepth, 1e-6 * restDepth);
  EXPECT_NEAR(endDepth, restDepth, 1e-6 * restDepth);
  const Eigen::Quaterniond endTurn(bodies.at(last, "e0"), bodies.at(last, "e1"), bodies.at(last, "e2"),
                                   bodies.at(last, "e3"));
  // Upright: a cube's axes may have turned by quarter turns about z only.
  const double tilt = std::acos(std::min(1.0, std::abs(endTurn.toRotationMatrix()(2, 2))));
  EXPECT_LT(tilt, 1e-3);
  EXPECT_LT(bodies.vector3(last, "vx", "vy", "vz").norm(), 1e-4);

  const double deepest = deepestContact(contacts);
  EXPECT_LT(deepest, 2e-4);
  record("rope_off_vertical_m", ropeOffVertical);
  record("rope_load_over_magnet_weight", ropeLoad / magnetWeight - 1);
  record("floor_depth_over_law_depth", floorDepth / restDepth - 1);
  record("worst_pull_error_over_pull", worst);
  record("largest_pull_N", largest);
  record("end_depth_over_law_depth", endDepth / restDepth - 1);
  record("end_tilt_rad", tilt);
  record("deepest_penetration_m", deepest);
}

}  // namespace
}  // namespace lodestone::testing

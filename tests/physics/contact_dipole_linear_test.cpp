// DIPOLE's normal half as PFC's linear model, through the whole system: a ball on a ground box, without magnets (so
// the contact law alone acts), against closed forms and a 1-D RK4 integration of the same law: the full dashpot's
// restitution, the no-tension dashpot's, the reference gap's rest depth, the incremental update's rest depth after an
// initial overlap, and the energy each run dissipates.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kKn = 1e5, kBallMass = 0.11, kBallRadius = 0.03;

// DIPOLE with no magnets (the law warns, and acts as its spring and dashpot alone), no friction.
std::string dipoleContact(double ratio, const std::string& pfc) {
  return "cnf_type=\"DIPOLE\" kn=\"" + formatReal(kKn) + "\" dp_nratio=\"" + formatReal(ratio) +
         "\" dipole_mo1=\"0 0 0\" dipole_mo2=\"0 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.01\" " + pfc +
         " cff_type=\"COULOMB_OFF\"";
}

ResultsTable energyOf(const std::string& name) {
  return ResultsTable((resultsFolderOf(name) / "energy.csv").string());
}

double largestLeftover(const ResultsTable& energy) {
  double worst = 0;
  for (size_t row = 0; row < energy.rowCount(); ++row) worst = std::max(worst, std::fabs(energy.at(row, "leftover")));
  return worst;
}

// A ball shot at 1 m/s into the box's face without gravity, DIPOLE ζ = 0.3: it leaves at a constant velocity.
BallDrop shotBall(const std::string& law) {
  BallDrop shot;
  shot.radius = kBallRadius;
  shot.mass = kBallMass;
  shot.height = kBallRadius + 1e-3;  // touches at t = 1 ms
  shot.speed = 1;
  shot.gravity = 0;
  shot.endTime = 0.02;
  shot.printInterval = 1e-4;
  shot.tolerance = 1e-9;
  shot.maxStep = 1e-4;
  shot.law = law;
  return shot;
}

// The speed at which the ball of mass m leaves a contact it hit at v0, under f(δ, δ̇), integrated by RK4 at 10 ns.
template <class Force>
double reboundSpeed(const Force& force, double v0) {
  double depth = 0, rate = v0;  // δ and δ̇ = −ż
  const double step = 1e-8;
  const auto acceleration = [&](double d, double r) { return -force(d, r) / kBallMass; };  // δ̈
  do {
    const double k1x = rate, k1v = acceleration(depth, rate);
    const double k2x = rate + 0.5 * step * k1v, k2v = acceleration(depth + 0.5 * step * k1x, rate + 0.5 * step * k1v);
    const double k3x = rate + 0.5 * step * k2v, k3v = acceleration(depth + 0.5 * step * k2x, rate + 0.5 * step * k2v);
    const double k4x = rate + step * k3v, k4v = acceleration(depth + step * k3x, rate + step * k3v);
    depth += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    rate += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
  } while (depth > 0);
  return -rate;
}

// dp_mode 0 (PFC's default): the full dashpot acts to the end of contact, pulling as the ball leaves, so the contact
// is a linear oscillator's half cycle and the restitution is exp(−ζπ/sqrt(1 − ζ²)) = 0.37225 (REFERENCE §5). The
// dashpot dissipates ½m·v0²·(1 − e²), and the balance's leftover stays small against it. Measured: restitution
// within 7.6e-8, dissipation within 2.1e-7, leftover 1.2e-6 of the dissipation (limits 1e-5, 1e-4, 1e-4); the
// dashpot pulls with up to 22 N as the ball leaves.
TEST(ContactDipoleLinear, FullDashpotGivesTheLinearOscillatorsRestitution) {
  const double ratio = 0.3, v0 = 1;
  const std::string name = "dipole_full_dashpot";
  const ContactRun run = runContactDeck(name, ballDropDeck(shotBall(dipoleContact(ratio, "dp_mode=\"0\""))));
  ASSERT_TRUE(run.completed);
  const double expected = std::exp(-ratio * M_PI / std::sqrt(1 - ratio * ratio));
  const double measured = run.bodies.at(run.bodies.rowCount() - 1, "vz") / v0;
  EXPECT_NEAR(measured, expected, 1e-5 * expected);
  RecordProperty("restitution_relative_error", sci(measured / expected - 1));
  double leastForce = 0;
  for (size_t row = 0; row < run.contacts.rowCount(); ++row) {
    leastForce = std::min(leastForce, run.contacts.at(row, "fn"));
  }
  EXPECT_LT(leastForce, -1) << "the full dashpot pulls as the ball leaves";
  RecordProperty("largest_pull_N", sci(-leastForce));

  const ResultsTable energy = energyOf(name);
  const size_t last = energy.rowCount() - 1;
  const double dissipated = 0.5 * kBallMass * v0 * v0 * (1 - expected * expected);
  EXPECT_NEAR(energy.at(last, "dashpot_contact"), dissipated, 1e-4 * dissipated);
  EXPECT_LT(largestLeftover(energy), 1e-4 * dissipated);
  RecordProperty("dissipation_relative_error", sci(energy.at(last, "dashpot_contact") / dissipated - 1));
  RecordProperty("largest_leftover_of_dissipated", sci(largestLeftover(energy) / dissipated));
}

// dp_mode 1: the no-tension dashpot lets the ball go as soon as kn·δ + c·δ̇ falls to 0, before δ returns to 0, so it
// leaves faster than the full dashpot lets it: the rebound is a 1-D RK4 integration of m·δ̈ = −max(0, kn·δ + c·δ̇),
// within 1e-5 (measured 1.8e-8). dp_mode 3 is the same normal force. The let-go is a kink in the force that no root
// locates: IDAS's order falls to 1 there, and in the free flight that follows (the ball still overlapping, the
// spring's energy going to the dashpot's account) it stays there, so the balance's quadratures, outside the error
// test, are the rectangle rule: the leftover is about h_max·P/2, P the dashpot's power at the let-go. Measured: 1.2 %
// of the 0.0438 J dissipated at h_max 1e-4, 0.14 % at 1e-5 (run here; limit 0.2 %), 0.015 % at 1e-6.
TEST(ContactDipoleLinear, NoTensionDashpotLetsGoWhenTheForceFallsToZero) {
  const double ratio = 0.3, v0 = 1;
  const double damping = 2 * ratio * std::sqrt(kBallMass * kKn);
  const double expected =
      reboundSpeed([&](double depth, double rate) { return std::max(0.0, kKn * depth + damping * rate); }, v0) / v0;
  ASSERT_GT(expected, std::exp(-ratio * M_PI / std::sqrt(1 - ratio * ratio)) + 0.05) << "the reference lets go early";
  for (const int mode : {1, 3}) {
    const std::string name = "dipole_no_tension_dashpot_" + std::to_string(mode);
    BallDrop shot = shotBall(dipoleContact(ratio, "dp_mode=\"" + std::to_string(mode) + "\""));
    shot.maxStep = 1e-5;
    const ContactRun run = runContactDeck(name, ballDropDeck(shot));
    ASSERT_TRUE(run.completed);
    const double measured = run.bodies.at(run.bodies.rowCount() - 1, "vz") / v0;
    EXPECT_NEAR(measured, expected, 1e-5 * expected) << "dp_mode " << mode;
    RecordProperty("restitution_relative_error_mode_" + std::to_string(mode), sci(measured / expected - 1));
    for (size_t row = 0; row < run.contacts.rowCount(); ++row) EXPECT_GE(run.contacts.at(row, "fn"), 0);
    const ResultsTable energy = energyOf(name);
    const double dissipated = 0.5 * kBallMass * v0 * v0 * (1 - expected * expected);
    EXPECT_NEAR(energy.at(energy.rowCount() - 1, "dashpot_contact"), dissipated, 2e-3 * dissipated);
    EXPECT_LT(largestLeftover(energy), 2e-3 * dissipated);
    RecordProperty("largest_leftover_of_dissipated_mode_" + std::to_string(mode),
                   sci(largestLeftover(energy) / dissipated));
  }
}

// A ball let go touching the face, critically damped: where it comes to rest. rgap < 0 moves the notional surface
// into the box, so the spring carries the weight at δ = −rgap + m·g/kn (within 1e-10 m; measured 2e-18 m).
double restDepth(const std::string& name, const std::string& pfc, double startDepth) {
  BallDrop rest;
  rest.radius = kBallRadius;
  rest.mass = kBallMass;
  rest.height = kBallRadius - startDepth;
  rest.endTime = 0.3;
  rest.printInterval = 0.01;
  rest.tolerance = 1e-9;
  rest.maxStep = 1e-3;
  rest.law = dipoleContact(1, pfc);
  const ContactRun run = runContactDeck(name, ballDropDeck(rest));
  EXPECT_TRUE(run.completed);
  if (!run.completed) return NAN;
  return kBallRadius - run.bodies.at(run.bodies.rowCount() - 1, "z");
}

TEST(ContactDipoleLinear, ReferenceGapMovesTheRestDepth) {
  const double rgap = -2e-4, weightDepth = kBallMass * kG / kKn;  // 10.79 µm
  const double measured = restDepth("dipole_rgap", "rgap=\"" + formatReal(rgap) + "\"", 0);
  EXPECT_NEAR(measured, -rgap + weightDepth, 1e-10);
  RecordProperty("rest_depth_error_m", sci(measured - (-rgap + weightDepth)));
}

// lin_mode 1: the ball starts 1 mm deep in the box at rest. Its contact begins there unloaded (PFC's incremental
// update), so the spring takes the weight from that depth: rest at 1 mm + m·g/kn. The absolute update (lin_mode 0)
// pushes the ball out to m·g/kn. Both within 1e-10 m (measured 4e-17 and 2e-17 m).
TEST(ContactDipoleLinear, IncrementalUpdateStartsUnloadedAtAnInitialOverlap) {
  const double overlap = 1e-3, weightDepth = kBallMass * kG / kKn;
  const double incremental = restDepth("dipole_incremental", "lin_mode=\"1\"", overlap);
  EXPECT_NEAR(incremental, overlap + weightDepth, 1e-10);
  RecordProperty("incremental_rest_depth_error_m", sci(incremental - (overlap + weightDepth)));
  const double absolute = restDepth("dipole_absolute", "lin_mode=\"0\"", overlap);
  EXPECT_NEAR(absolute, weightDepth, 1e-10);
  RecordProperty("absolute_rest_depth_error_m", sci(absolute - weightDepth));
}

// PFC's contact_activated event: a ball dropped from 50 mm (ζ = 0.3, no-tension, so it bounces) has an events.csv
// row contact_activated (id the Force_Contact's, value 0) at each onset run.log lists, the first at sqrt(2h/g) within
// 1e-9 s (the onset is located; measured 3e-13 s). A contact under laws that are not PFC's (IMPACT, COULOMB_ON)
// writes no events.csv at all.
TEST(ContactDipoleLinear, EachOnsetIsAContactActivatedEvent) {
  const double drop = 0.05;
  BallDrop ball;
  ball.radius = kBallRadius;
  ball.mass = kBallMass;
  ball.height = kBallRadius + drop;
  ball.endTime = 0.25;
  ball.printInterval = 0.01;
  ball.tolerance = 1e-9;
  ball.law = dipoleContact(0.3, "dp_mode=\"1\"");
  const std::string name = "dipole_contact_activated";
  const ContactRun run = runContactDeck(name, ballDropDeck(ball));
  ASSERT_TRUE(run.completed);
  std::vector<double> onsets;
  for (const LoggedContactEvent& event : run.events) {
    if (event.onset) onsets.push_back(event.time);
  }
  ASSERT_GE(onsets.size(), 2u) << "it bounces";
  const ResultsTable events((resultsFolderOf(name) / "events.csv").string());
  ASSERT_EQ(events.rowCount(), onsets.size());
  for (size_t row = 0; row < events.rowCount(); ++row) {
    EXPECT_EQ(events.text(row, "action"), "contact_activated");
    EXPECT_EQ(events.at(row, "id"), 300);
    EXPECT_EQ(events.at(row, "value"), 0);
    EXPECT_NEAR(events.at(row, "time"), onsets[row], 1e-9 * onsets[row]) << "as run.log's onset";
  }
  const double first = std::sqrt(2 * drop / kG);
  EXPECT_NEAR(events.at(0, "time"), first, 1e-9);
  RecordProperty("first_activation_error_s", sci(events.at(0, "time") - first));

  BallDrop plain = ball;
  plain.law = "cnf_type=\"IMPACT\" stiffness=\"1e5\" exponent=\"1\" damping=\"10\" dmax=\"1e-4\" "
              "cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.2\" stiction_trans_vel=\"1e-3\" "
              "friction_trans_vel=\"2e-3\"";
  const ContactRun impact = runContactDeck("impact_no_activation", ballDropDeck(plain));
  ASSERT_TRUE(impact.completed);
  EXPECT_FALSE(std::filesystem::exists(resultsFolderOf("impact_no_activation") / "events.csv"));
}

// PFC's deformability method on a ball (R = 30 mm) resting on a face: emod = 1e6 N/m² gives the ball–facet kn =
// π·R²·E*/R = 94 248 N/m, so the ball sinks m·g/kn = 11.45 µm; kratio = 2 gives LINEAR_SHEAR's ks = kn/2, so a
// sideways push F = 0.1 N (ramped in over 0.2 s at the ball's centre, below fric·m·g = 0.54 N) moves it F/ks =
// 2.12 µm. The ball's inertia is made huge (1e6 kg·m²) so that the push's torque about the contact does not roll it
// (4.5e-11 m in 1 s). Rest depth within 1e-10 m (measured 2e-17 m), the push's displacement within 1e-3 (measured
// 5.7e-5).
TEST(ContactDipoleLinear, EffectiveModulusGivesTheBallFacetStiffnessesOfPfc) {
  const double modulus = 1e6, ratio = 2, push = 0.1;
  const double kn = M_PI * kBallRadius * kBallRadius * modulus / kBallRadius, ks = kn / ratio;
  const double depth = kBallMass * kG / kn;
  const std::string deck =
      boxFloorDeckHead(2) +
      "<Body_Rigid id=\"2\" mass=\"" + formatReal(kBallMass) + "\" cg_id=\"20\" inertia_xx=\"1e6\" inertia_yy=\"1e6\" "
      "inertia_zz=\"1e6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + formatReal(kBallRadius - depth) + "\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(kBallRadius) + "\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" emod=\"" +
      formatReal(modulus) + "\" kratio=\"" + formatReal(ratio) + "\" dp_nratio=\"1\" dipole_mo1=\"0 0 0\" "
      "dipole_mo2=\"0 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.01\" cff_type=\"LINEAR_SHEAR\" fric=\"0.5\" "
      "dp_sratio=\"0.7\"/>\n"
      "<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"" + formatReal(push) +
      "*STEP(TIME, 0, 0, 0.2, 1)\" fy_expression=\"0\" fz_expression=\"0\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("dipole_effective_modulus", deck);
  ASSERT_TRUE(run.completed);
  const size_t last = run.bodies.rowCount() - 1;
  const double measuredDepth = kBallRadius - run.bodies.at(last, "z");
  EXPECT_NEAR(measuredDepth, depth, 1e-10);
  RecordProperty("rest_depth_error_m", sci(measuredDepth - depth));
  const double shift = run.bodies.at(last, "x"), expected = push / ks;
  EXPECT_NEAR(shift, expected, 1e-3 * expected);
  RecordProperty("push_displacement_relative_error", sci(shift / expected - 1));
}

// ---- PFC's property inheritance: Contact_Surface ------------------------------------------------------------

// A ball (R = 30 mm, inertia made huge so that it slides rather than rolls) on the ground box, DIPOLE with whatever
// the Force_Contact gives (`contact`), and the pieces' Contact_Surface elements (`surfaces`); optionally pushed along
// x by `push`·m·g, ramped in over 0.1 s.
ContactRun runSurfaces(const std::string& name, const std::string& contact, const std::string& surfaces,
                       double push, double startDepth, double endTime) {
  const std::string deck =
      boxFloorDeckHead(20) +
      "<Body_Rigid id=\"2\" mass=\"" + formatReal(kBallMass) + "\" cg_id=\"20\" inertia_xx=\"1e6\" inertia_yy=\"1e6\" "
      "inertia_zz=\"1e6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + formatReal(kBallRadius - startDepth) + "\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(kBallRadius) + "\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" dp_nratio=\"1\" "
      "dp_mode=\"2\" dipole_mo1=\"0 0 0\" dipole_mo2=\"0 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.01\" " + contact +
      "/>\n" + surfaces +
      "<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"" +
      formatReal(push * kBallMass * kG) + "*STEP(TIME, 0, 0, 0.1, 1)\" fy_expression=\"0\" fz_expression=\"0\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
      "\" print_interval=\"0.01\"/></Command></MultiBodySystem>\n";
  return runContactDeck(name, deck);
}

// kn from the pieces in series, 1/kn = 1/kn1 + 1/kn2: the ball's own surface (graphic_id, 3e5 N/m) and the ground
// body's (body_id, 1.5e5 N/m) give 1e5 N/m, so the ball rests at m·g/1e5; a kn the Force_Contact gives (5e4) wins over
// the inherited one. Both within 1e-10 m (measured 2e-17 m).
TEST(ContactDipoleLinear, InheritedStiffnessIsTheSeriesOfThePiecesAndTheElementsOwnWins) {
  const std::string surfaces = "<Contact_Surface id=\"1\" graphic_id=\"200\" kn=\"3e5\"/>\n"
                               "<Contact_Surface id=\"2\" body_id=\"1\" kn=\"1.5e5\"/>\n";
  const double weight = kBallMass * kG;
  const ContactRun inherited = runSurfaces("surface_series", "cff_type=\"COULOMB_OFF\"", surfaces, 0, 0, 0.3);
  ASSERT_TRUE(inherited.completed);
  const double depth = kBallRadius - inherited.bodies.at(inherited.bodies.rowCount() - 1, "z");
  EXPECT_NEAR(depth, weight / 1e5, 1e-10);
  RecordProperty("series_rest_depth_error_m", sci(depth - weight / 1e5));
  const ContactRun own = runSurfaces("surface_own_wins", "kn=\"5e4\" cff_type=\"COULOMB_OFF\"", surfaces, 0, 0, 0.3);
  ASSERT_TRUE(own.completed);
  const double ownDepth = kBallRadius - own.bodies.at(own.bodies.rowCount() - 1, "z");
  EXPECT_NEAR(ownDepth, weight / 5e4, 1e-10);
  RecordProperty("own_rest_depth_error_m", sci(ownDepth - weight / 5e4));
}

// fric from the pieces as the smaller, min(μ1, μ2): 0.3 (the ball) and 0.8 (the ground). Pushed by 0.35·m·g the ball
// slides (LINEAR_SHEAR, its dashpot cut while slipping, dp_mode 2): from 0.3 s to 0.8 s it accelerates at
// (0.35 − 0.3)·g = 0.4905 m/s² within 1e-3 (measured 3e-14); pushed by 0.25·m·g it holds (moves < 1 nm in 0.5 s).
TEST(ContactDipoleLinear, InheritedFrictionIsTheSmallerOfThePieces) {
  const std::string surfaces = "<Contact_Surface id=\"1\" graphic_id=\"200\" kn=\"2e5\" fric=\"0.3\"/>\n"
                               "<Contact_Surface id=\"2\" body_id=\"1\" kn=\"2e5\" fric=\"0.8\"/>\n";
  const double depth = kBallMass * kG / 1e5;
  const std::string shear = "cff_type=\"LINEAR_SHEAR\" ks=\"1e5\" dp_sratio=\"0.5\"";
  const ContactRun sliding = runSurfaces("surface_fric_slides", shear, surfaces, 0.35, depth, 0.8);
  ASSERT_TRUE(sliding.completed);
  const auto velocityAt = [](const ContactRun& run, double time) {
    for (size_t row = 0; row < run.bodies.rowCount(); ++row) {
      if (std::fabs(run.bodies.at(row, "time") - time) < 1e-9) return run.bodies.at(row, "vx");
    }
    ADD_FAILURE() << "no output at t = " << time;
    return std::numeric_limits<double>::quiet_NaN();
  };
  const double expected = (0.35 - 0.3) * kG;
  const double measured = (velocityAt(sliding, 0.8) - velocityAt(sliding, 0.3)) / 0.5;
  EXPECT_NEAR(measured, expected, 1e-3 * expected);
  RecordProperty("sliding_acceleration_relative_error", sci(measured / expected - 1));
  const ContactRun held = runSurfaces("surface_fric_holds", shear, surfaces, 0.25, depth, 0.8);
  ASSERT_TRUE(held.completed);
  const auto xAt = [](const ContactRun& run, double time) {
    for (size_t row = 0; row < run.bodies.rowCount(); ++row) {
      if (std::fabs(run.bodies.at(row, "time") - time) < 1e-9) return run.bodies.at(row, "x");
    }
    return std::numeric_limits<double>::quiet_NaN();
  };
  EXPECT_LT(std::fabs(xAt(held, 0.8) - xAt(held, 0.3)), 1e-9);
}

// Each piece's dipole moment as DIPOLE's dipole_mo1 (the I piece's) and dipole_mo2 (the J piece's): two free spheres
// 0.1 m apart on x, each with a Contact_Surface dipole_mo "1 0 0" and a Force_Contact that gives none, attract at
// t = 0 with the coaxial closed form 3μ0·m1·m2/(2π r⁴) = 6e-3 N, within 1e-9 (measured 2e-16).
TEST(ContactDipoleLinear, InheritedDipoleMomentsAreEachPiecesOwn) {
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.1\" cg_id=\"20\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.01\"/>\n"
      "<Body_Rigid id=\"3\" mass=\"0.1\" cg_id=\"30\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"30\" body_id=\"3\" pos_x=\"0.1\"/>\n"
      "<Post_Graphic id=\"201\" type=\"Sphere\" center_marker_id=\"30\" radius=\"0.01\"/>\n"
      "<Contact_Surface id=\"1\" body_id=\"2\" dipole_mo=\"1 0 0\"/>\n"
      "<Contact_Surface id=\"2\" graphic_id=\"201\" dipole_mo=\"1 0 0\"/>\n"
      "<Force_Contact id=\"400\" i_graphics_id=\"200\" j_graphics_id=\"201\" cnf_type=\"DIPOLE\" kn=\"1e3\" "
      "dipole_cap=\"1e-3\" dipole_d=\"1\" cff_type=\"COULOMB_OFF\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.01\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("surface_dipoles", deck);
  ASSERT_TRUE(run.completed);
  ASSERT_GT(run.contacts.rowCount(), 0u);
  const double expected = 6e-7 / std::pow(0.1, 4);  // 3μ0/(2π)·m1·m2/r⁴, μ0/(4π) = 1e-7
  const Eigen::Vector3d force = run.contacts.vector3(0, "fx", "fy", "fz");
  EXPECT_NEAR(force.x(), expected, 1e-9 * expected) << "I is pulled towards J (+x)";
  EXPECT_LT(std::hypot(force.y(), force.z()), 1e-12);
  RecordProperty("inherited_dipole_force_relative_error", sci(force.x() / expected - 1));
}

}  // namespace
}  // namespace lodestone::testing

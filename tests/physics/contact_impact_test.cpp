// Ball-on-plate impacts through the whole pipeline (deck, detection, IDAS with contact roots, results) against
// closed-form answers: Hertz elastic impact, POISSON restitution, and the free-fall onset time.
#include <cmath>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {


// The first located onset and the separation that follows it.
struct ImpactBounce {
  double onset = NAN, separation = NAN;
};
ImpactBounce firstImpactBounce(const std::vector<LoggedContactEvent>& events) {
  ImpactBounce bounce;
  for (const LoggedContactEvent& event : events) {
    if (event.onset && std::isnan(bounce.onset)) {
      EXPECT_TRUE(event.located) << "onset at t=" << event.time << " was not located";
      bounce.onset = event.time;
    } else if (!event.onset && !std::isnan(bounce.onset)) {
      EXPECT_TRUE(event.located) << "separation at t=" << event.time << " was not located";
      bounce.separation = event.time;
      break;
    }
  }
  return bounce;
}

// The speed a ball in flight under gravity has at the plate (centre at height `radius`), from one output row.
double speedAtPlate(const ResultsTable& bodies, size_t row, double radius) {
  const double vz = bodies.at(row, "vz");
  return std::sqrt(vz * vz + 2 * kG * (bodies.at(row, "z") - radius));
}

// Undamped Hertz (IMPACT, exponent 1.5): a 30 mm steel ball dropped 50 mm on a steel plate (rigid ground box).
// References: elastic ⇒ rebound speed = impact speed (tolerance 0.2 %); contact time from Hertz theory,
// tc = 2.87·(m*²/(R*·E*²·v))^(1/5) with K = (4/3)·E*·√R* (tolerance 2 %: the 2.87 rounds the exact 2.868).
TEST(ContactImpact, UndampedHertzBallReboundsElasticallyAfterTheHertzContactTime) {
  BallDrop drop;
  drop.radius = 0.03;
  drop.mass = 7800 * 4.0 / 3.0 * M_PI * std::pow(drop.radius, 3);  // 0.882 kg
  const double gap = 0.05;
  drop.height = drop.radius + gap;
  const double eStar = 1.0 / (2 * (1 - 0.3 * 0.3) / 200e9);  // steel on steel
  const double stiffness = 4.0 / 3.0 * eStar * std::sqrt(drop.radius);  // R* = R against a flat plate
  drop.law = "cnf_type=\"IMPACT\" stiffness=\"" + std::to_string(stiffness) +
             "\" exponent=\"1.5\" damping=\"0\" dmax=\"1e-5\" cff_type=\"COULOMB_OFF\"";
  drop.endTime = 0.15;
  drop.printInterval = 0.01;
  const ContactRun run = runContactDeck("hertz", ballDropDeck(drop));
  ASSERT_TRUE(run.completed);

  const double impactSpeed = std::sqrt(2 * kG * gap);
  const ImpactBounce bounce = firstImpactBounce(run.events);
  ASSERT_FALSE(std::isnan(bounce.separation)) << "no onset and separation in run.log";
  // Rebound speed from the first output in flight after the bounce (energy of the free flight).
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  double reboundSpeed = NAN;
  for (size_t row : rows) {
    if (run.bodies.at(row, "time") > bounce.separation + 1e-3) {
      reboundSpeed = speedAtPlate(run.bodies, row, drop.radius);
      ASSERT_GT(run.bodies.at(row, "vz"), 0) << "moving up after the bounce";
      break;
    }
  }
  const double speedError = std::fabs(reboundSpeed / impactSpeed - 1);
  EXPECT_LT(speedError, 2e-3) << "rebound " << reboundSpeed << " m/s, impact " << impactSpeed << " m/s";
  RecordProperty("rebound_speed_relative_error", sci(speedError));

  const double hertzTime =
      2.87 * std::pow(drop.mass * drop.mass / (drop.radius * eStar * eStar * impactSpeed), 0.2);
  const double duration = bounce.separation - bounce.onset;
  const double durationError = std::fabs(duration / hertzTime - 1);
  EXPECT_LT(durationError, 0.02) << "contact lasted " << duration << " s, Hertz " << hertzTime << " s";
  RecordProperty("contact_time_relative_error", sci(durationError));
}

// POISSON: for impact speeds far above normal_trans_vel the rebound/impact speed ratio is restitution_coef
// (REFERENCE §3). No gravity, 1 m/s impact, vt = 1e-3 m/s. Tolerance 2 % of e.
TEST(ContactImpact, PoissonReboundsWithTheRestitutionCoefficient) {
  for (double e : {0.3, 0.6, 0.9}) {
    BallDrop drop;
    drop.gravity = 0;
    drop.height = drop.radius + 1e-3;
    drop.speed = 1.0;
    drop.endTime = 0.01;
    drop.printInterval = 1e-3;
    drop.law = "cnf_type=\"POISSON\" penalty=\"1e10\" restitution_coef=\"" + std::to_string(e) +
               "\" normal_trans_vel=\"1e-3\" cff_type=\"COULOMB_OFF\"";
    const ContactRun run = runContactDeck("poisson_" + std::to_string(e), ballDropDeck(drop));
    ASSERT_TRUE(run.completed);
    const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
    ASSERT_FALSE(rows.empty());
    const double rebound = run.bodies.at(rows.back(), "vz");  // no gravity: constant once apart
    const ImpactBounce bounce = firstImpactBounce(run.events);
    ASSERT_LT(bounce.separation, drop.endTime) << "e=" << e << ": still in contact at the end";
    EXPECT_NEAR(rebound / drop.speed, e, 0.02 * e) << "e=" << e;
    RecordProperty("restitution_" + std::to_string(e), sci(rebound / drop.speed));
  }
}

// Onset of a ball dropped with gap h from rest: free fall, so t = sqrt(2h/g); the run.log time is located by
// root finding. Tolerance 1e-6 s.
TEST(ContactImpact, OnsetTimeOfAFreeFallIsLocated) {
  for (double gap : {0.05, 0.2}) {
    BallDrop drop;
    drop.height = drop.radius + gap;
    drop.endTime = std::sqrt(2 * gap / kG) + 0.02;
    drop.printInterval = 0.01;
    drop.law = "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\" "
               "cff_type=\"COULOMB_OFF\"";
    const ContactRun run = runContactDeck("onset_" + std::to_string(gap), ballDropDeck(drop));
    ASSERT_TRUE(run.completed);
    const ImpactBounce bounce = firstImpactBounce(run.events);
    const double expected = std::sqrt(2 * gap / kG);
    EXPECT_NEAR(bounce.onset, expected, 1e-6) << "gap " << gap;
    RecordProperty("onset_error_s_gap_" + std::to_string(gap), sci(bounce.onset - expected));
  }
}

// Two balls of one element dropped from gaps 1 µm apart touch the plate 1 µs apart, within one step (the steps before
// an onset are a few µs): each onset is located on its own at sqrt(2h/g), each pair's distance followed alone on
// IDAS's interpolant. With IMPACT IDAS restarts at the first (Hertz at order 2 or more) and finds the second again
// in the steps after it; SMOOTH never restarts it, and the second is returned from the step that found both.
// Tolerance 1e-7 s, a tenth of the time between them (measured: 3e-9 s at most).
TEST(ContactImpact, OnsetsOfTwoPairsWithinOneStepAreEachLocated) {
  const double gaps[] = {0.05, 0.050001};
  for (const std::string law : {"cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"",
                                "cnf_type=\"SMOOTH\" stiffness=\"1e5\" transition_width=\"1e-4\""}) {
    SCOPED_TRACE(law);
    BallDrop drop;
    drop.height = drop.radius + gaps[0];
    drop.endTime = std::sqrt(2 * gaps[1] / kG) + 0.005;
    drop.law = law + " cff_type=\"COULOMB_OFF\"";
    std::string deck = ballDropDeck(drop);
    const std::string secondBall =
        "<Body_Rigid id=\"3\" mass=\"0.11\" cg_id=\"30\" inertia_xx=\"4e-5\" inertia_yy=\"4e-5\" "
        "inertia_zz=\"4e-5\"/>\n<Reference_Marker id=\"30\" body_id=\"3\" pos_x=\"0.5\" pos_z=\"" +
        formatReal(drop.radius + gaps[1]) + "\"/>\n<Post_Graphic id=\"210\" type=\"Sphere\" center_marker_id=\"30\" "
        "radius=\"" + formatReal(drop.radius) + "\"/>\n";
    deck.insert(deck.find("<Force_Contact"), secondBall);
    const std::string oneBall = "i_graphics_id=\"200\"";
    deck.replace(deck.find(oneBall), oneBall.size(), "i_graphics_id=\"200 210\"");
    const ContactRun run = runContactDeck("two_onsets", deck);
    ASSERT_TRUE(run.completed);
    std::vector<double> onsets;
    for (const LoggedContactEvent& event : run.events) {
      if (!event.onset) continue;
      EXPECT_TRUE(event.located) << "at t=" << event.time;
      onsets.push_back(event.time);
    }
    ASSERT_EQ(onsets.size(), 2u);
    for (size_t k = 0; k < 2; ++k) EXPECT_NEAR(onsets[k], std::sqrt(2 * gaps[k] / kG), 1e-7) << "ball " << k;
    RecordProperty("onset_error_s_" + law.substr(10, 6), sci(onsets[1] - std::sqrt(2 * gaps[1] / kG)));
  }
}

// The integrator's restarts in a run: run.log's last count (the whole run's).
long restartsOf(const std::filesystem::path& log) {
  long restarts = -1;
  const std::string label = " Number of integrator restarts";
  for (const std::string& line : readLines(log)) {
    if (line.rfind(label, 0) == 0) restarts = std::stol(line.substr(line.find('=') + 1));
  }
  return restarts;
}

// IDAS restarts at a located onset or separation only where the force is less smooth than its order assumes
// (kSmoothForce). With max_order 2: SMOOTH without a damper begins and ends as δ³ and never restarts it; LINEAR's
// dashpot jumps by d·δ̇ at the onset and restarts it there, while at the separation its force is 0 already and IDAS
// carries on. Both onsets are located where free fall puts them, sqrt(2h/g) (tolerance 1e-6 s as above; 3e-9 s
// measured, the step that crosses the onset differing with the law), and the separations are located too.
TEST(ContactImpact, IntegratorRestartsOnlyWhereTheForceIsLessSmoothThanItsOrder) {
  struct Case {
    std::string name, law;
    long restarts;
  };
  const Case cases[] = {
      {"smooth", "cnf_type=\"SMOOTH\" stiffness=\"1e5\" transition_width=\"1e-4\" cff_type=\"COULOMB_OFF\"", 0},
      {"linear_dashpot", "cnf_type=\"LINEAR\" stiffness=\"1e5\" damping=\"5\" cff_type=\"COULOMB_OFF\"", 1}};
  const double gap = 0.05;
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    BallDrop drop;
    drop.height = drop.radius + gap;
    drop.endTime = 0.2;
    drop.law = c.law;
    std::string deck = ballDropDeck(drop);
    deck.insert(deck.find("<Param_Transient ") + 17, "max_order=\"2\" ");
    const ContactRun run = runContactDeck("restarts_" + c.name, deck);
    ASSERT_TRUE(run.completed);
    const ImpactBounce bounce = firstImpactBounce(run.events);
    ASSERT_FALSE(std::isnan(bounce.separation)) << "no onset and separation in run.log";
    EXPECT_NEAR(bounce.onset, std::sqrt(2 * gap / kG), 1e-6);
    RecordProperty("onset_error_s_" + c.name, sci(bounce.onset - std::sqrt(2 * gap / kG)));
    EXPECT_EQ(restartsOf(resultsFolderOf("restarts_" + c.name) / "run.log"), c.restarts);
  }
}

// A contact still closed when the run ends is in impacts.csv all the same: a ball pressed 1 µm into the floor at the
// start settles there; its one row begins at t = 0, not located (it was found at the start, not by root finding),
// and leaves the separation, v_out and restitution empty. Its peak is at least the weight it ends up carrying.
TEST(ContactImpact, AContactOpenAtTheEndIsWrittenWithItsSeparationEmpty) {
  BallDrop drop;
  drop.height = drop.radius - 1e-6;
  drop.endTime = 0.05;
  drop.printInterval = 0.01;
  drop.law = "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"100\" dmax=\"1e-6\" "
             "cff_type=\"COULOMB_OFF\"";
  const ContactRun run = runContactDeck("open_at_end", ballDropDeck(drop));
  ASSERT_TRUE(run.completed);
  const std::vector<std::string> lines = readLines(resultsFolderOf("open_at_end") / "impacts.csv");
  ASSERT_EQ(lines.size(), 2u) << "a header and one episode";
  std::vector<std::string> cells;
  std::stringstream row(lines[1]);
  for (std::string cell; std::getline(row, cell, ',');) cells.push_back(cell);
  cells.resize(14);  // getline drops a last empty cell
  EXPECT_EQ(cells[0] + "," + cells[1] + "," + cells[2], "300,200,100");
  EXPECT_EQ(cells[3], "0") << "onset_time";
  EXPECT_EQ(cells[4], "0") << "onset_located";
  EXPECT_EQ(cells[5], "") << "separation_time";
  EXPECT_EQ(cells[6], "") << "separation_located";
  EXPECT_GE(std::stod(cells[7]), drop.mass * kG * (1 - 1e-6)) << "peak_fn";
  EXPECT_EQ(cells[12], "") << "v_out";
  EXPECT_EQ(cells[13], "") << "restitution";
}

}  // namespace
}  // namespace lodestone::testing

// Contact laws given by the deck's expressions (cnf_type="EXPRESSION", cff_type="EXPRESSION"). The normal expression
// k·DELTA + c·DELTA_DOT is LINEAR with the same k and c to the bit: a ball dropped onto a plate and coming to rest,
// and a ball bouncing (zero crossing off: see the bouncing test), give the same bodies.csv byte for byte. A box sliding
// on the plate under a constant friction expression decelerates at F/m exactly, its force shared among the points
// of its face patch; COULOMB_DYNAMICONLY written out as friction expressions slides a box as the built-in law does.
// And a bad expression is an error with its line and column at `lodestone check` time.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kStiffness = 1e4;

std::string bodiesOf(const std::string& name, const BallDrop& drop) {
  const DeckRun run = runDeckText(name, ballDropDeck(drop));
  EXPECT_TRUE(run.completed);
  return readText(run.output / "bodies.csv");
}

void expectExpressionIsLinear(const std::string& name, BallDrop drop, double damping, const std::string& extra) {
  drop.law = "cnf_type=\"LINEAR\" stiffness=\"" + formatReal(kStiffness) + "\" damping=\"" + formatReal(damping) +
             "\" " + extra;
  const std::string linear = bodiesOf(name + "_linear", drop);
  drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"" + formatReal(kStiffness) + "*DELTA + " +
             formatReal(damping) + "*DELTA_DOT\" " + extra;
  const std::string expression = bodiesOf(name + "_expression", drop);
  ASSERT_GT(linear.size(), 1000u);
  EXPECT_EQ(linear, expression) << "bodies.csv differs between LINEAR and its expression";
}

// Overdamped (c = 100 N·s/m against 2·sqrt(k·m) = 66): the ball lands once and settles without leaving the plate.
// One onset, at which both laws jump (c·δ̇) and IDAS restarts alike.
TEST(ContactExpressionLaw, NormalExpressionReproducesLinearBitForBitAtRest) {
  BallDrop drop;
  drop.height = drop.radius + 0.01;
  expectExpressionIsLinear("expression_law_rest", drop, 100, "");
}

// A ball bouncing (c = 2): with zero crossing off no event is located, so no restart depends on what each law says of
// its smoothness (an expression's is not known and taken as a jump at separation too, where LINEAR's damped force
// has already reached 0: with zero crossing on, IDAS restarts at the expression's separations and not at LINEAR's).
TEST(ContactExpressionLaw, NormalExpressionReproducesLinearBitForBitBouncing) {
  BallDrop drop;
  drop.height = drop.radius + 0.02;
  drop.endTime = 0.4;
  expectExpressionIsLinear("expression_law_bounce", drop, 2, "zero_crossing=\"FALSE\"");
}

// A 0.2 m cube at rest on the plate at its static depth mg/k, sliding along x at 1 m/s; the friction expression is a
// constant −F along t1 (the plate marker's x: ground x). The face patch shares F among its points, so the block's
// velocity falls at F/m exactly, v(t) = v0 − F·t/m; BDF integrates a linear v without truncation error, so what is
// left is what Newton's convergence test leaves, within integr_tol (1e-8 m/s; measured 3.7e-9).
TEST(ContactExpressionLaw, ConstantFrictionExpressionDeceleratesABoxAtForceOverMass) {
  BallDrop drop;
  const double mass = 2, force = 3, side = 0.2, speed = 1;
  drop.mass = mass;
  drop.gravity = 9.81;
  drop.height = side / 2 - mass * drop.gravity / kStiffness;
  drop.endTime = 0.2;
  drop.law = "cnf_type=\"LINEAR\" stiffness=\"" + formatReal(kStiffness) + "\" damping=\"50\" cff_type=\"EXPRESSION\" "
             "friction_force_expression_t1=\"-" + formatReal(force) + "\" friction_force_expression_t2=\"0\"";
  std::string deck = ballDropDeck(drop);
  const std::string sphere = "type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(drop.radius) + "\"";
  ASSERT_NE(deck.find(sphere), std::string::npos);
  deck.replace(deck.find(sphere), sphere.size(),
               "type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.2\" length_y=\"0.2\" "
               "length_z=\"0.2\"");
  const std::string still = "v_ic_z=\"" + formatReal(-0.0) + "\"";
  ASSERT_NE(deck.find(still), std::string::npos);
  deck.replace(deck.find(still), still.size(), "v_ic_x=\"" + formatReal(speed) + "\"");
  const DeckRun run = runDeckText("expression_law_slide", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const ResultsTable contacts((run.output / "contacts.csv").string());
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  ASSERT_GE(rows.size(), 20u);
  double worst = 0;
  for (const size_t row : rows) {
    const double time = bodies.at(row, "time");
    const double expected = speed - force / mass * time;
    EXPECT_NEAR(bodies.at(row, "vx"), expected, 1e-8) << "t=" << time;
    worst = std::max(worst, std::fabs(bodies.at(row, "vx") - expected));
  }
  const std::vector<size_t> pairs = contacts.rowsOfBody(300);
  ASSERT_FALSE(pairs.empty());
  EXPECT_GT(contacts.at(pairs.back(), "points"), 1.0) << "the face patch has several points";
  EXPECT_NEAR(contacts.at(pairs.back(), "fx"), -force, 1e-9 * force) << "the points' shares add up to the force";
  RecordProperty("worst_velocity_error", sci(worst));
}

// The friction expression as COULOMB_DYNAMICONLY writes its law: μ(v) = STEP(v, 0, 0, vd, μd) of the slip speed v,
// against the slip, −μ(v)·N·v_t/v along each tangent (the division guarded where v = 0, where μ is 0). A 2 kg box
// let go sliding at (1, 0.5) m/s on the plate, μd = 0.3, vd = 0.01 m/s: it slows at about μd·g along its slip, and
// its velocities at every output are the built-in law's within 1e-9 m/s until it first slows below vd (the two differ
// by the expression's rounding; measured 8.8e-11), within 1e-6 after, where μ falls steeply with the slip and the
// rounding grows to the integrator's scale as the box rocks (integr_tol 1e-8; measured 3.8e-8).
TEST(ContactExpressionLaw, FrictionExpressionIsCoulombDynamicOnlyWrittenOut) {
  const auto slide = [](const std::string& name, const std::string& friction) {
    BallDrop drop;
    drop.mass = 2;
    drop.height = 0.1 - drop.mass * drop.gravity / kStiffness;
    drop.endTime = 0.5;
    drop.law = "cnf_type=\"LINEAR\" stiffness=\"" + formatReal(kStiffness) + "\" damping=\"50\" " + friction;
    std::string deck = ballDropDeck(drop);
    const std::string sphere = "type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(drop.radius) + "\"";
    deck.replace(deck.find(sphere), sphere.size(),
                 "type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.2\" length_y=\"0.2\" "
                 "length_z=\"0.2\"");
    const std::string still = "v_ic_z=\"" + formatReal(-0.0) + "\"";
    deck.replace(deck.find(still), still.size(), "v_ic_x=\"1\" v_ic_y=\"0.5\"");
    const DeckRun run = runDeckText(name, deck);
    EXPECT_TRUE(run.completed);
    return ResultsTable((run.output / "bodies.csv").string());
  };
  const ResultsTable builtIn =
      slide("expression_friction_builtin", "cff_type=\"COULOMB_DYNAMICONLY\" mu_dynamic=\"0.3\" "
                                           "friction_trans_vel=\"0.01\"");
  const std::string speed = "SQRT(SLIP_T1**2 + SLIP_T2**2)";
  const std::string law = "-STEP(" + speed + ", 0, 0, 0.01, 0.3)*NORMAL_FORCE/MAX(" + speed + ", 1e-300)";
  const ResultsTable written = slide("expression_friction_written",
                                     "cff_type=\"EXPRESSION\" friction_force_expression_t1=\"" + law +
                                         "*SLIP_T1\" friction_force_expression_t2=\"" + law + "*SLIP_T2\"");
  const std::vector<size_t> a = builtIn.rowsOfBody(2), b = written.rowsOfBody(2);
  ASSERT_EQ(a.size(), b.size());
  ASSERT_GE(a.size(), 20u);
  double worstSliding = 0, worstStopped = 0;
  bool sliding = true;  // until the box first slows below vd, where μ falls steeply and rounding grows to IDAS's scale
  for (size_t k = 0; k < a.size(); ++k) {
    sliding = sliding && std::hypot(builtIn.at(a[k], "vx"), builtIn.at(a[k], "vy")) > 0.01;
    for (const char* column : {"vx", "vy"}) {
      const double difference = std::fabs(written.at(b[k], column) - builtIn.at(a[k], column));
      EXPECT_LT(difference, sliding ? 1e-9 : 1e-6) << column << " at t=" << builtIn.at(a[k], "time");
      (sliding ? worstSliding : worstStopped) = std::max(sliding ? worstSliding : worstStopped, difference);
    }
  }
  // It slides against its slip, keeping its direction (vy/vx = 0.5, to its rocking's 2e-5), and first slows below vd
  // near |v0|/(μd·g) = 0.38 s (within 0.05 s: the rocking shifts its normal force a little).
  EXPECT_NEAR(builtIn.at(a[10], "vy") / builtIn.at(a[10], "vx"), 0.5, 1e-3);
  size_t stop = 0;
  while (stop < a.size() && std::hypot(builtIn.at(a[stop], "vx"), builtIn.at(a[stop], "vy")) > 0.01) ++stop;
  ASSERT_LT(stop, a.size()) << "the box never stopped";
  EXPECT_NEAR(builtIn.at(a[stop], "time"), std::sqrt(1.25) / (0.3 * 9.81), 0.05);
  RecordProperty("worst_difference_sliding", sci(worstSliding));
  RecordProperty("worst_difference_stopped", sci(worstStopped));
}

// A deck whose Force_Contact (line 11) or Sensor_Event (line 12) holds `contactAttributes` or `sensorExpression`;
// the messages of its run, which must fail when the deck is read.
std::string messagesOf(const std::string& name, const std::string& contactLaw, const std::string& sensor) {
  BallDrop drop;
  drop.law = contactLaw;
  std::string deck = ballDropDeck(drop);
  if (!sensor.empty()) {
    deck.insert(deck.find("</Model>"), "<Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"" + sensor +
                                           "\" compare=\"GE\" value=\"1\" error_tol=\"1e-6\"/>\n");
  }
  const RunOutcome outcome = runDeckTextOutcome(name, deck);
  EXPECT_EQ(outcome.status, RunStatus::BadDeck) << outcome.message;
  return outcome.diagnostics.formatAll();
}

TEST(ContactExpressionLaw, BadExpressionsAreErrorsWithLineAndColumn) {
  const std::string deck = "expression_law_errors.xml:11:1: Force_Contact id=300: ";
  // An unknown name in the normal expression; NORMAL_FORCE read by the normal expression.
  std::string messages =
      messagesOf("expression_law_errors", "cnf_type=\"EXPRESSION\" normal_force_expression=\"1e4*DELTA + PEN\"", "");
  EXPECT_NE(messages.find(deck + "normal_force_expression=\"1e4*DELTA + PEN\", column 13: unknown name 'PEN'"),
            std::string::npos)
      << messages;
  messages =
      messagesOf("expression_law_errors", "cnf_type=\"EXPRESSION\" normal_force_expression=\"NORMAL_FORCE\"", "");
  EXPECT_NE(messages.find("column 1: NORMAL_FORCE is read by a friction expression (cff_type=\"EXPRESSION\") only"),
            std::string::npos)
      << messages;
  // A syntax error; a marker measure, which a contact law's expression may not read.
  messages = messagesOf("expression_law_errors", "cnf_type=\"EXPRESSION\" normal_force_expression=\"(DELTA\"", "");
  EXPECT_NE(messages.find(deck + "normal_force_expression=\"(DELTA\", column 1: expected ')' to close '('"),
            std::string::npos)
      << messages;
  messages = messagesOf("expression_law_errors",
                        "cnf_type=\"EXPRESSION\" normal_force_expression=\"1e4*DELTA\" cff_type=\"EXPRESSION\" "
                        "friction_force_expression_t1=\"-0.1*NORMAL_FORCE*SIGN(1, SLIP_T1)*DZ(20)\" "
                        "friction_force_expression_t2=\"0\"",
                        "");
  EXPECT_NE(messages.find(deck + "friction_force_expression_t1=\"-0.1*NORMAL_FORCE*SIGN(1, SLIP_T1)*DZ(20)\", "
                                 "column 39: a marker measure is not available in a contact law's expression yet"),
            std::string::npos)
      << messages;
  // A missing friction expression; DELTA outside a contact law.
  messages = messagesOf("expression_law_errors",
                        "cnf_type=\"LINEAR\" stiffness=\"1e4\" cff_type=\"EXPRESSION\" "
                        "friction_force_expression_t1=\"0\"",
                        "");
  EXPECT_NE(messages.find("friction_force_expression_t2"), std::string::npos) << messages;
  messages = messagesOf("expression_law_errors", "cnf_type=\"LINEAR\" stiffness=\"1e4\"", "DZ(20) + DELTA");
  EXPECT_NE(messages.find("expression_law_errors.xml:12:1: Sensor_Event id=41: expr=\"DZ(20) + DELTA\", column 10: "
                          "DELTA (the penetration at a contact point) has a meaning only in a Force_Contact's "
                          "contact-law expressions"),
            std::string::npos)
      << messages;
}

}  // namespace
}  // namespace lodestone::testing

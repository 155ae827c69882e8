// Contact laws given by the deck's expressions (cnf_type="EXPRESSION", cff_type="EXPRESSION"). The normal expression
// k·DELTA + c·DELTA_DOT is LINEAR with the same k and c to the bit: a ball dropped onto a plate and coming to rest,
// and a ball bouncing (zero crossing off: see the bouncing test), give the same bodies.csv byte for byte. A box sliding
// on the plate under a constant friction expression decelerates at F/m exactly, its force shared among the points
// of its face patch; COULOMB_DYNAMICONLY written out as friction expressions slides a box as the built-in law does.
// The expressions read Reference_Variables and markers: a stiffness read by VARVAL is LINEAR to the bit, one growing
// with TIME through a variable follows a 1-D integration. And a bad expression, or one reading a contact's loads or
// accelerations, is an error with its line (and column) at `lodestone check` time.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/rk4.h"

namespace lodestone::testing {
namespace {

constexpr double kStiffness = 1e4;

std::string bodiesOf(const std::string& name, const BallDrop& drop) {
  const DeckRun run = runDeckText(name, ballDropDeck(drop));
  EXPECT_TRUE(run.completed);
  return fileText(run.output / "bodies.csv");
}

// `expressionLaw` (the Force_Contact attributes of an EXPRESSION law, and `elements` it reads) gives the bodies of
// LINEAR with stiffness k and `damping` byte for byte.
void expectSameAsLinear(const std::string& name, BallDrop drop, double damping, const std::string& extra,
                        const std::string& expressionLaw, const std::string& elements = "") {
  drop.law = "cnf_type=\"LINEAR\" stiffness=\"" + formatReal(kStiffness) + "\" damping=\"" + formatReal(damping) +
             "\" " + extra;
  const std::string linear = bodiesOf(name + "_linear", drop);
  drop.law = expressionLaw + " " + extra;
  drop.elements = elements;
  const std::string expression = bodiesOf(name + "_expression", drop);
  ASSERT_GT(linear.size(), 1000u);
  EXPECT_EQ(linear, expression) << "bodies.csv differs between LINEAR and its expression";
}

void expectExpressionIsLinear(const std::string& name, BallDrop drop, double damping, const std::string& extra) {
  expectSameAsLinear(name, drop, damping, extra,
                     "cnf_type=\"EXPRESSION\" normal_force_expression=\"" + formatReal(kStiffness) + "*DELTA + " +
                         formatReal(damping) + "*DELTA_DOT\"");
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

// The stiffness read from a Reference_Variable (VARVAL) whose value is k: the same products as LINEAR's, so the same
// bodies byte for byte. Fails when the law reads a variable not yet evaluated at the state (NaN, or a stale value).
TEST(ContactExpressionLaw, StiffnessReadByVarvalReproducesLinearBitForBit) {
  BallDrop drop;
  drop.height = drop.radius + 0.01;
  expectSameAsLinear("expression_law_varval", drop, 100, "",
                     "cnf_type=\"EXPRESSION\" normal_force_expression=\"VARVAL(7)*DELTA + 100*DELTA_DOT\"",
                     "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"" + formatReal(kStiffness) + "\"/>\n");
}

// The same growing stiffness as the output of a control system that feeds its input through (y = 0·x + 1·u, u the
// variable): ARYVAL of its Y array gives the law the variable's value at each state, so the ball moves as with
// VARVAL byte for byte (both decks carry the system). A law that reads no marker or variable read a stale output
// before: its context was never set to the state.
TEST(ContactExpressionLaw, StiffnessReadFromAControlSystemsOutputIsTheVariablesBitForBit) {
  BallDrop drop;
  drop.height = drop.radius + 0.01;
  drop.endTime = 0.3;
  const std::string system =
      "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"" + formatReal(kStiffness) + "*(1 + 4*TIME)\"/>\n"
      "<Reference_Array id=\"21\" type=\"U\" num_element=\"1\"> 7 </Reference_Array>\n"
      "<Reference_Array id=\"22\" type=\"X\" num_element=\"1\"/>\n"
      "<Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
      "<Reference_Matrix id=\"31\" nrow=\"1\" ncol=\"1\"> -1 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"1\"> 0 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"34\" nrow=\"1\" ncol=\"1\"> 1 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"3\" type=\"LINEAR\" x_array_id=\"22\" u_array_id=\"21\" y_array_id=\"23\" "
      "a_matrix_id=\"31\" c_matrix_id=\"33\" d_matrix_id=\"34\"/>\n";
  drop.elements = system;
  drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"VARVAL(7)*DELTA + 100*DELTA_DOT\"";
  const std::string variable = bodiesOf("expression_law_variable", drop);
  drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"ARYVAL(23, 1)*DELTA + 100*DELTA_DOT\"";
  const std::string output = bodiesOf("expression_law_output", drop);
  ASSERT_GT(variable.size(), 1000u);
  EXPECT_EQ(output, variable) << "bodies.csv differs between the output and the variable it feeds through";
  // And the stiffness does grow: a constant one (the output frozen at its start) moves the ball otherwise.
  drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"" + formatReal(kStiffness) +
             "*DELTA + 100*DELTA_DOT\"";
  EXPECT_NE(bodiesOf("expression_law_constant", drop), variable);
}

// A stiffness that grows with time, k(t) = k0·(1 + 4t), through a variable of TIME, and the depth taken from the
// ball's marker (DZ(20): its centre's height above the plate's top, z = 0) rather than DELTA: the ball landing on the
// plate (c = 100 N·s/m keeps it overdamped up to k = 2.2e4 at t = 0.3 s) against an RK4 integration of
// m·z'' = −m·g + k(t)·(r − z) − c·z' from the touch, which free fall reaches at t = sqrt(2·gap/g) exactly.
// The law reads the marker at the detected state, so the Jacobian leaves out the marker's share of dF/dz (Newton's
// iterations make up for it); the heights at every output agree within 10·integr_tol (measured: see the record).
TEST(ContactExpressionLaw, TimeVaryingStiffnessThroughVariableAndMarkerFollowsA1DIntegration) {
  BallDrop drop;
  const double gap = 0.01, k0 = kStiffness, growth = 4, damping = 100;
  drop.height = drop.radius + gap;
  drop.endTime = 0.3;
  drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"VARVAL(7)*(" + formatReal(drop.radius) +
             " - DZ(20)) + " + formatReal(damping) + "*DELTA_DOT\"";
  drop.elements = "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"" + formatReal(k0) + "*(1 + " +
                  formatReal(growth) + "*TIME)\"/>\n";
  const DeckRun run = runDeckText("expression_law_time_stiffness", ballDropDeck(drop));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  ASSERT_GE(rows.size(), 30u);

  const double touch = std::sqrt(2 * gap / drop.gravity);
  const auto acceleration = [&](double t, double z, double v) {
    const double depth = drop.radius - z;
    const double force = depth > 0 ? std::max(k0 * (1 + growth * t) * depth - damping * v, 0.0) : 0.0;
    return -drop.gravity + force / drop.mass;
  };
  const double h = 1e-6;
  double t = touch;
  PointMotion ball{drop.radius, -drop.gravity * touch};
  double worst = 0, deepest = 0;
  for (const size_t row : rows) {
    const double time = bodies.at(row, "time");
    const double expected = time <= touch ? drop.height - 0.5 * drop.gravity * time * time : [&] {
      while (t + h <= time) {
        ball = rk4Step(acceleration, t, ball, h);
        t += h;
      }
      return rk4Step(acceleration, t, ball, time - t).position;
    }();
    ASSERT_LT(expected, drop.radius + gap + 1e-12);
    if (time > touch) deepest = std::max(deepest, drop.radius - expected);
    worst = std::max(worst, std::fabs(bodies.at(row, "z") - expected));
  }
  // The ball does sink into the plate, and less as it stiffens: the law's stiffness does change.
  EXPECT_GT(deepest, 1e-4);
  // Settled, the depth follows the stiffness quasi-statically: k·δ + c·δ' = m·g with δ ≈ m·g/k, so
  // δ ≈ m·g/k + c·m·g·k0·growth/k³ (the second term 4e-7 m at 0.3 s, the next below 1e-8).
  const double settled = drop.radius - bodies.at(rows.back(), "z");
  const double weight = drop.mass * drop.gravity, stiffness = k0 * (1 + growth * drop.endTime);
  EXPECT_NEAR(settled, weight / stiffness + damping * weight * k0 * growth / std::pow(stiffness, 3), 2e-8);
  EXPECT_LT(worst, 10 * drop.tolerance);
  RecordProperty("largest_height_error_m", sci(worst));
  RecordProperty("settled_depth_m", sci(settled));
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
  // A syntax error; a contact's loads, which a contact law's expression may not read (its own among them).
  messages = messagesOf("expression_law_errors", "cnf_type=\"EXPRESSION\" normal_force_expression=\"(DELTA\"", "");
  EXPECT_NE(messages.find(deck + "normal_force_expression=\"(DELTA\", column 1: expected ')' to close '('"),
            std::string::npos)
      << messages;
  messages = messagesOf("expression_law_errors",
                        "cnf_type=\"EXPRESSION\" normal_force_expression=\"1e4*DELTA\" cff_type=\"EXPRESSION\" "
                        "friction_force_expression_t1=\"-0.1*NORMAL_FORCE*SIGN(1, SLIP_T1)*CONTACT(300,0,1,0)\" "
                        "friction_force_expression_t2=\"0\"",
                        "");
  EXPECT_NE(messages.find(deck + "friction_force_expression_t1=\"-0.1*NORMAL_FORCE*SIGN(1, SLIP_T1)*CONTACT(300,0,1,0)"
                                 "\", column 44: CONTACT is not available in a contact law's expression"),
            std::string::npos)
      << messages;
  // Through a variable: a missing one, one reading a contact's loads, one reading an acceleration.
  const std::string variables = "<Reference_Variable id=\"7\" type=\"EXPRESSION\" expr=\"CONTACT(300,0,1,0)\"/>\n"
                                "<Reference_Variable id=\"8\" type=\"EXPRESSION\" expr=\"ACCZ(20)\"/>\n";
  const auto throughVariable = [&](const std::string& expression) {
    BallDrop drop;
    drop.law = "cnf_type=\"EXPRESSION\" normal_force_expression=\"" + expression + "\"";
    drop.elements = variables;
    const RunOutcome outcome = runDeckTextOutcome("expression_law_variables", ballDropDeck(drop));
    EXPECT_EQ(outcome.status, RunStatus::BadDeck) << outcome.message;
    return outcome.diagnostics.formatAll();
  };
  const std::string variableDeck = "expression_law_variables.xml:11:1: Force_Contact id=300: normal_force_expression=";
  messages = throughVariable("VARVAL(9)*DELTA");
  EXPECT_NE(messages.find(variableDeck + "\"VARVAL(9)*DELTA\", column 8: names Reference_Variable id=9, which the "
                                         "deck does not have"),
            std::string::npos)
      << messages;
  messages = throughVariable("1e4*DELTA + 0*VARVAL(7)");
  EXPECT_NE(messages.find(variableDeck + "\"1e4*DELTA + 0*VARVAL(7)\" reads a contact's loads through a "
                                         "Reference_Variable (CONTACT)"),
            std::string::npos)
      << messages;
  messages = throughVariable("1e4*DELTA + 0*VARVAL(8)");
  EXPECT_NE(messages.find(variableDeck + "\"1e4*DELTA + 0*VARVAL(8)\" reads accelerations"), std::string::npos)
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

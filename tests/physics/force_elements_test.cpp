// The force elements through the whole pipeline, each against an analytic motion: Force_SpringDamper
// (translational and rotational), Force_Scalar_TwoBody (action-reaction and action-only), Force_Vector_OneBody and
// _TwoBody, Force_Bushing, Reference_Variable chains read by VARVAL, Deactivate/Activate FORCE and a command that
// changes a force's expression; and a NaN from an expression failing the run with the element named.
// Every deck has no gravity and integr_tol 1e-8 unless it says otherwise.
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/oscillation.h"
#include "support/math_constants.h"

namespace lodestone::testing {
namespace {


// Ground (body 1) with marker 10 at the origin, then `model`, then `commands`.
std::string forceDeck(const std::string& model,
                      const std::string& commands = "<Simulate analysis_type=\"Transient\" end_time=\"4\" "
                                                    "print_interval=\"0.01\"/>") {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Param_Transient integr_tol=\"1e-8\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"10\" body_id=\"1\"/>\n" +
         model + "\n</Model><Command>\n" + commands + "\n</Command></MultiBodySystem>\n";
}

// Body `id` with its CG on marker `id`·10 at `position` ("pos_x=\"1.1\""), diagonal inertia.
std::string body(int id, double mass, double inertia, const std::string& position, const std::string& more = "") {
  const std::string marker = std::to_string(10 * id);
  return "<Reference_Marker id=\"" + marker + "\" body_id=\"" + std::to_string(id) + "\" " + position + "/>\n"
         "<Body_Rigid id=\"" + std::to_string(id) + "\" cg_id=\"" + marker + "\" mass=\"" + formatReal(mass) +
         "\" inertia_xx=\"" + formatReal(inertia) + "\" inertia_yy=\"" + formatReal(inertia) + "\" inertia_zz=\"" +
         formatReal(inertia) + "\" " + more + "/>\n";
}

ResultsTable bodiesOf(const DeckRun& run) { return ResultsTable((run.output / "bodies.csv").string()); }

// `deck` with `commands` in place of its commands.
std::string withCommands(std::string deck, const std::string& commands) {
  const size_t from = deck.find("<Command>") + 9, to = deck.find("</Command>");
  return deck.replace(from, to - from, "\n" + commands + "\n");
}

// ---- a mass on a spring: m = 2, k = 50 along x from ground marker 10, free length 1, released at x = 1.1 -----------

constexpr double kSpringMass = 2, kSpringStiffness = 50, kFreeLength = 1, kSpringStart = 1.1;
const double kSpringOmega = std::sqrt(kSpringStiffness / kSpringMass);  // 5 rad/s
const double kPeriod = 2 * kPi / kSpringOmega;              // 2π√(m/k) = 1.2566 s

std::string massOnSpring(const std::string& force) {
  return forceDeck(body(2, kSpringMass, 1, "pos_x=\"1.1\"") + force);
}

const std::string kSpring =
    "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" stiffness=\"50\" "
    "damping=\"0\" length=\"1\" preload=\"0\"/>";

double measuredPeriod(const ResultsTable& bodies) {
  return periodOf(zeroCrossings(signalOf(bodies, 2, "x", "vx", kFreeLength)));
}

// Fails when the spring's force has the wrong size (the period scales with it) or acts on the wrong side (the mass
// then runs away and never crosses back).
TEST(ForceSpringDamper, MassOscillatesWithThePeriodOfTheSpring) {
  const DeckRun run = runDeckText("spring_period", massOnSpring(kSpring));
  ASSERT_TRUE(run.completed);
  const double period = measuredPeriod(bodiesOf(run));
  EXPECT_NEAR(period / kPeriod, 1, 1e-5);
  RecordProperty("period_relative_error", sci(period / kPeriod - 1));
}

// With damping c = 0.4 the oscillation's envelope, √(u² + ((u̇ + σu)/ω_d)²) for u = x − length, is exactly
// A·exp(−σt) with σ = c/2m = 0.1 /s. Fails when the damping force is missing, doubled, or uses the wrong rate.
TEST(ForceSpringDamper, DampedSpringDecaysAsExpMinusCtOver2m) {
  const double damping = 0.4, sigma = damping / (2 * kSpringMass);
  const double omegaD = std::sqrt(kSpringOmega * kSpringOmega - sigma * sigma);
  std::string spring = kSpring;
  spring.replace(spring.find("damping=\"0\""), 11, "damping=\"0.4\"");
  const DeckRun run = runDeckText("spring_damped", massOnSpring(spring));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  const auto envelope = [&](size_t row) {
    const double u = bodies.at(row, "x") - kFreeLength, rate = bodies.at(row, "vx");
    return std::hypot(u, (rate + sigma * u) / omegaD);
  };
  const double initial = envelope(rows.front());
  double worst = 0;
  for (size_t row : rows) {
    const double t = bodies.at(row, "time");
    worst = std::max(worst, std::fabs(envelope(row) / (initial * std::exp(-sigma * t)) - 1));
  }
  EXPECT_LT(worst, 1e-4);
  EXPECT_NEAR(bodies.at(rows.back(), "time"), 4, 1e-12);
  RecordProperty("envelope_worst_relative_error", sci(worst));
}

// Two bodies (I_zz = 0.5 each) spinning about z at 8 and −2 rad/s, joined by a rotational spring-damper
// (stiffness 1, damping 0.05, free angle 0): their relative angle θ obeys θ̈ = −(2/I)(kθ + cθ̇), so
// θ(t) = (10/ω_d)·e^(−σt)·sin(ω_d t) with σ = 0.1, ω_d = √(4 − σ²), an amplitude of 5 rad — the spring winds past
// half a turn — while the mean spin stays 3 rad/s. Fails when the spring loses count of the turn at ±π (the torque
// then jumps), when the reaction on J is missing (the mean spin changes), or when the torque is about the wrong
// axis or has the wrong sign.
TEST(ForceSpringDamper, RotationalSpringWindsPastHalfATurnBetweenSpinningBodies) {
  const std::string model =
      body(2, 1, 0.5, "", "w_ic_z=\"8\"") + body(3, 1, 0.5, "pos_x=\"1\"", "w_ic_z=\"-2\"") +
      "<Force_SpringDamper id=\"6\" type=\"ROTATIONAL\" i_marker_id=\"20\" j_marker_id=\"30\" stiffness=\"1\" "
      "damping=\"0.05\" length=\"0\" preload=\"0\"/>";
  const DeckRun run = runDeckText("spring_rotational", forceDeck(model));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> a = bodies.rowsOfBody(2), b = bodies.rowsOfBody(3);
  ASSERT_EQ(a.size(), b.size());
  const double sigma = 0.1, omegaD = std::sqrt(4 - sigma * sigma);
  // Each body's angle about z from its Euler parameters, followed continuously from output to output.
  const auto spin = [&](size_t row) { return 2 * std::atan2(bodies.at(row, "e3"), bodies.at(row, "e0")); };
  double previous = 0, worstAngle = 0, worstRate = 0, worstMean = 0, largest = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const double t = bodies.at(a[k], "time");
    double relative = spin(a[k]) - spin(b[k]);
    relative += 2 * kPi * std::round((previous - relative) / (2 * kPi));
    previous = relative;
    const double expected = 10 / omegaD * std::exp(-sigma * t) * std::sin(omegaD * t);
    const double expectedRate =
        10 * std::exp(-sigma * t) * (std::cos(omegaD * t) - sigma / omegaD * std::sin(omegaD * t));
    worstAngle = std::max(worstAngle, std::fabs(relative - expected));
    worstRate = std::max(worstRate, std::fabs(bodies.at(a[k], "wz") - bodies.at(b[k], "wz") - expectedRate));
    worstMean = std::max(worstMean, std::fabs(0.5 * (bodies.at(a[k], "wz") + bodies.at(b[k], "wz")) - 3));
    largest = std::max(largest, std::fabs(relative));
  }
  EXPECT_GT(largest, 4.5) << "the spring must wind well past pi";
  EXPECT_LT(worstAngle, 1e-5);
  EXPECT_LT(worstRate, 1e-5);
  EXPECT_LT(worstMean, 1e-9);
  RecordProperty("relative_angle_worst_error_rad", sci(worstAngle));
}

// ---- Force_Scalar_TwoBody -----------------------------------------------------------------------------------------

// The spring written as a scalar force: −k·(DM(I,J) − L0) pushes I away from J when positive, so it is the same
// spring, and the motion is the same at every output. Fails when a positive value pulls instead of pushing.
TEST(ForceScalarTwoBody, ExpressionOfTheDistanceGivesTheSpringsMotion) {
  const DeckRun spring = runDeckText("scalar_reference_spring", massOnSpring(kSpring));
  const DeckRun scalar = runDeckText(
      "scalar_spring", massOnSpring("<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" i_marker_id=\"20\" "
                                    "j_marker_id=\"10\" val_expression=\"-50*(DM(20,10)-1)\"/>"));
  ASSERT_TRUE(spring.completed && scalar.completed);
  const ResultsTable expected = bodiesOf(spring), actual = bodiesOf(scalar);
  ASSERT_EQ(expected.rowCount(), actual.rowCount());
  double worst = 0;
  for (size_t row = 0; row < actual.rowCount(); ++row) {
    worst = std::max(worst, std::fabs(actual.at(row, "x") - expected.at(row, "x")));
  }
  EXPECT_LT(worst, 1e-7);
  EXPECT_NEAR(measuredPeriod(actual) / kPeriod, 1, 1e-5);
  RecordProperty("worst_difference_from_spring_m", sci(worst));
}

// Body A (m = 1, marker 20 at x = 1) and body B (m = 3, marker 30 at the origin) with a constant val = 2 between
// them; J's z axis points along +y.
std::string pushedPair(const std::string& actionOnly) {
  return forceDeck(body(2, 1, 1, "pos_x=\"1\"") +
                       "<Reference_Marker id=\"30\" body_id=\"3\" a00=\"1\" a10=\"0\" a20=\"0\" a02=\"0\" a12=\"1\" "
                       "a22=\"0\"/>\n"
                       "<Body_Rigid id=\"3\" cg_id=\"30\" mass=\"3\" inertia_xx=\"1\" inertia_yy=\"1\" "
                       "inertia_zz=\"1\"/>\n"
                       "<Force_Scalar_TwoBody id=\"7\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"30\" val=\"2\" "
                       "is_action_only=\"" + actionOnly + "\"/>",
                   "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>");
}

// Action-reaction: the bodies push apart along the line between them, A at 2 m/s², B at 2/3 m/s² the other way,
// and the pair's momentum stays zero. Fails without the reaction, or with the force along J's z axis.
TEST(ForceScalarTwoBody, ActionReactionPushesThePairApartAndKeepsItsMomentum) {
  const DeckRun run = runDeckText("scalar_pair", pushedPair("FALSE"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> a = bodies.rowsOfBody(2), b = bodies.rowsOfBody(3);
  double worstMomentum = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const double t = bodies.at(a[k], "time");
    EXPECT_NEAR(bodies.at(a[k], "x"), 1 + t * t, 1e-8) << t;
    EXPECT_NEAR(bodies.at(b[k], "x"), -t * t / 3, 1e-8) << t;
    const Eigen::Vector3d momentum =
        bodies.vector3(a[k], "vx", "vy", "vz") + 3 * bodies.vector3(b[k], "vx", "vy", "vz");
    worstMomentum = std::max(worstMomentum, momentum.norm());
  }
  EXPECT_LT(worstMomentum, 1e-9);
  RecordProperty("worst_pair_momentum", sci(worstMomentum));
}

// Action-only: the force acts on A along J's z axis (+y, not the line from B to A), and nothing acts on B, so the
// pair's momentum grows at the force's rate: p_y = 2t. Fails with a reaction on J or with the force along the line.
TEST(ForceScalarTwoBody, ActionOnlyPushesAlongJsZAxisWithoutReaction) {
  const DeckRun run = runDeckText("scalar_action_only", pushedPair("TRUE"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> a = bodies.rowsOfBody(2), b = bodies.rowsOfBody(3);
  for (size_t k = 0; k < a.size(); ++k) {
    const double t = bodies.at(a[k], "time");
    EXPECT_NEAR(bodies.at(a[k], "x"), 1, 1e-9) << t;
    EXPECT_NEAR(bodies.at(a[k], "y"), t * t, 1e-8) << t;
    EXPECT_LT(bodies.vector3(b[k], "vx", "vy", "vz").norm(), 1e-12) << t;
    const Eigen::Vector3d momentum =
        bodies.vector3(a[k], "vx", "vy", "vz") + 3 * bodies.vector3(b[k], "vx", "vy", "vz");
    EXPECT_NEAR(momentum.y(), 2 * t, 1e-8) << t;
  }
}

// A torque about J's z axis (+y here) on A and its reaction on B (both I = 1): equal and opposite spins about +y,
// ω_A = 2t and ω_B = −2t. Fails when the torque is about another axis or has no reaction.
TEST(ForceScalarTwoBody, TorqueTurnsAboutJsZAxisWithReaction) {
  std::string deck = pushedPair("FALSE");
  deck.replace(deck.find("type=\"FORCE\""), 12, "type=\"TORQUE\"");
  const DeckRun run = runDeckText("scalar_torque", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> a = bodies.rowsOfBody(2), b = bodies.rowsOfBody(3);
  for (size_t k = 0; k < a.size(); ++k) {
    const double t = bodies.at(a[k], "time");
    EXPECT_LT((bodies.vector3(a[k], "wx", "wy", "wz") - Eigen::Vector3d(0, 2 * t, 0)).norm(), 1e-8) << t;
    EXPECT_LT((bodies.vector3(b[k], "wx", "wy", "wz") - Eigen::Vector3d(0, -2 * t, 0)).norm(), 1e-8) << t;
  }
}

// ---- Force_Vector_OneBody and Force_Vector_TwoBody -----------------------------------------------------------------

// A constant fx = 3 in the axes of a ground marker turned 90° about z (its x axis is ground's +y): a parabola along
// +y, y = 1.5/m·t² with m = 1.5. Fails when the components are taken in ground axes.
TEST(ForceVectorOneBody, ConstantForceInTheReferenceAxesGivesAParabola) {
  const std::string model = body(2, 1.5, 1, "") +
                            "<Reference_Marker id=\"40\" body_id=\"1\" a00=\"0\" a10=\"1\" a20=\"0\" a02=\"0\" "
                            "a12=\"0\" a22=\"1\"/>\n"
                            "<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" ref_marker_id=\"40\" "
                            "fx_expression=\"3\" fy_expression=\"0\" fz_expression=\"0\"/>";
  const DeckRun run = runDeckText("vector_constant",
                                  forceDeck(model, "<Simulate analysis_type=\"Transient\" end_time=\"2\" "
                                                   "print_interval=\"0.1\"/>"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    EXPECT_LT((bodies.vector3(row, "x", "y", "z") - Eigen::Vector3d(0, t * t, 0)).norm(), 1e-8) << t;
  }
}

// fx = A·sin(w·TIME) with A = 2, w = 3 on m = 0.5 from rest: x = A/(m w)·t − A/(m w²)·sin(w t); and a torque
// tz = 0.25 about ground z spins the body (I_zz = 0.1) up as ω_z = 2.5 t. Fails when TIME is not the simulation time
// or the torque is dropped.
TEST(ForceVectorOneBody, SinusoidalForceOfTimeGivesTheAnalyticDisplacement) {
  const std::string model = body(2, 0.5, 0.1, "") +
                            "<Force_Vector_OneBody id=\"8\" type=\"ForceAndTorque\" marker_id=\"20\" "
                            "fx_expression=\"2*SIN(3*TIME)\" tz_expression=\"0.25\"/>";
  const DeckRun run = runDeckText("vector_sine", forceDeck(model, "<Simulate analysis_type=\"Transient\" "
                                                                  "end_time=\"2\" print_interval=\"0.05\"/>"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  double worst = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    const double expected = 2 / (0.5 * 3) * t - 2 / (0.5 * 9) * std::sin(3 * t);
    worst = std::max(worst, std::fabs(bodies.at(row, "x") - expected));
    EXPECT_NEAR(bodies.at(row, "wz"), 2.5 * t, 1e-8) << t;
  }
  EXPECT_LT(worst, 1e-7);
  RecordProperty("worst_displacement_error_m", sci(worst));
}

// Two free bodies, the force applied at a point of A away from its CG (marker 21), resolved in A's own turning axes,
// the reaction on B (floating marker 31) at that same point, with a torque too. The pair's linear momentum and its
// angular momentum about the origin stay what they were, while each body's changes. Fails without the reaction,
// or with the reaction at B's CG or at the floating marker's own place (the angular momentum then drifts).
TEST(ForceVectorTwoBody, ThePairKeepsItsLinearAndAngularMomentum) {
  const std::string model =
      body(2, 1, 0.1, "", "v_ic_x=\"0.2\" w_ic_z=\"0.5\"") + body(3, 2, 0.2, "pos_x=\"1\" pos_y=\"0.5\"") +
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"0.3\" pos_y=\"0.1\"/>\n"
      "<Reference_Marker id=\"31\" body_id=\"3\" pos_x=\"1.4\" pos_y=\"0.2\" pos_z=\"0.3\"/>\n"
      "<Force_Vector_TwoBody id=\"9\" type=\"ForceAndTorque\" i_marker_id=\"21\" j_floating_marker_id=\"31\" "
      "ref_marker_id=\"21\" fx_expression=\"SIN(TIME)+1\" fy_expression=\"0.5\" fz_expression=\"0\" "
      "tx_expression=\"0\" ty_expression=\"0.1\" tz_expression=\"0.3*COS(2*TIME)\"/>";
  // At integr_tol 1e-10: the angular momentum's drift is integration error (measured 6.7e-7 at 1e-8, 1.7e-8 at
  // 1e-10), while a misplaced reaction would change it by about 1.
  std::string deck = forceDeck(model, "<Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.1\"/>");
  const std::string tolerance = "integr_tol=\"1e-8\"";
  deck.replace(deck.find(tolerance), tolerance.size(), "integr_tol=\"1e-10\"");
  const DeckRun run = runDeckText("vector_pair", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const std::vector<size_t> a = bodies.rowsOfBody(2), b = bodies.rowsOfBody(3);
  // Isotropic inertia: a body's spin angular momentum is I·ω whatever its attitude.
  const auto momenta = [&](size_t rowA, size_t rowB) {
    const Eigen::Vector3d pA = 1 * bodies.vector3(rowA, "vx", "vy", "vz");
    const Eigen::Vector3d pB = 2 * bodies.vector3(rowB, "vx", "vy", "vz");
    const Eigen::Vector3d angular =
        bodies.vector3(rowA, "x", "y", "z").cross(pA) + 0.1 * bodies.vector3(rowA, "wx", "wy", "wz") +
        bodies.vector3(rowB, "x", "y", "z").cross(pB) + 0.2 * bodies.vector3(rowB, "wx", "wy", "wz");
    return std::make_pair(Eigen::Vector3d(pA + pB), angular);
  };
  const auto [linear0, angular0] = momenta(a.front(), b.front());
  double worstLinear = 0, worstAngular = 0;
  for (size_t k = 0; k < a.size(); ++k) {
    const auto [linear, angular] = momenta(a[k], b[k]);
    worstLinear = std::max(worstLinear, (linear - linear0).norm());
    worstAngular = std::max(worstAngular, (angular - angular0).norm());
  }
  EXPECT_GT((bodies.vector3(b.back(), "vx", "vy", "vz")).norm(), 0.5) << "the force must move the bodies";
  EXPECT_LT(worstLinear, 1e-9);
  EXPECT_LT(worstAngular, 1e-7);
  RecordProperty("worst_linear_momentum_change", sci(worstLinear));
  RecordProperty("worst_angular_momentum_change", sci(worstAngular));
}

// ---- Force_Bushing ---------------------------------------------------------------------------------------------

// Only kx = 50 between the body's CG marker and ground: the body (m = 2) released 0.1 along x oscillates with
// 2π√(m/kx). Fails when the bushing's stiffness takes the wrong component or the wrong sign.
TEST(ForceBushing, TranslationalStiffnessGivesTheSpringsPeriod) {
  const std::string model = body(2, kSpringMass, 1, "pos_x=\"0.1\"") +
                            "<Force_Bushing id=\"11\" i_marker_id=\"20\" j_marker_id=\"10\" kx=\"50\"/>";
  const DeckRun run = runDeckText("bushing_kx", forceDeck(model));
  ASSERT_TRUE(run.completed);
  const double period = periodOf(zeroCrossings(signalOf(bodiesOf(run), 2, "x", "vx")));
  EXPECT_NEAR(period / kPeriod, 1, 1e-5);
  RecordProperty("period_relative_error", sci(period / kPeriod - 1));
}

// Only ktz = 2 on a body with I_zz = 0.5 released turned 0.3 rad about z: a torsional oscillation of period
// 2π√(I_zz/ktz) = π. Fails when the rotation is measured about another axis or the torque has the wrong sign.
TEST(ForceBushing, TorsionalStiffnessGivesSqrtKtzOverIzz) {
  const std::string model = body(2, 1, 0.5, "psi=\"0.3\"") +
                            "<Force_Bushing id=\"11\" i_marker_id=\"20\" j_marker_id=\"10\" ktz=\"2\"/>";
  const DeckRun run = runDeckText("bushing_ktz", forceDeck(model));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  Signal angle;
  for (size_t row : bodies.rowsOfBody(2)) {
    angle.times.push_back(bodies.at(row, "time"));
    angle.values.push_back(2 * std::atan2(bodies.at(row, "e3"), bodies.at(row, "e0")));
    angle.rates.push_back(bodies.at(row, "wz"));
  }
  const double period = periodOf(zeroCrossings(angle));
  EXPECT_NEAR(period / kPi, 1, 1e-5);
  RecordProperty("period_relative_error", sci(period / kPi - 1));
}

// ---- Reference_Variable --------------------------------------------------------------------------------------------

// The spring again, its force a variable that reads another variable (declared after it): VARVAL(VARVAL(DX)).
// Fails when a variable reads a stale value or VARVAL reads the wrong variable.
TEST(ReferenceVariable, ChainOfVariablesDrivesAForce) {
  const DeckRun run = runDeckText(
      "variable_chain",
      massOnSpring("<Reference_Variable id=\"70\" type=\"EXPRESSION\" expr=\"-50*VARVAL(71)\"/>\n"
                   "<Reference_Variable id=\"71\" type=\"EXPRESSION\" expr=\"DX(20,10)-1\"/>\n"
                   "<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
                   "val_expression=\"VARVAL(70)\"/>"));
  ASSERT_TRUE(run.completed);
  EXPECT_NEAR(measuredPeriod(bodiesOf(run)) / kPeriod, 1, 1e-5);
}

// The spring built as MotionSolve's manual builds a force from a plant output (POUVAL(12, 1) + POUVAL(12, 2)), its
// two variables reading the stretch through a plant input: the period of k = 30 + 20 = 50, and the very numbers of
// the same deck written with VARVAL (the same operations in the same order). Fails when a port reads the wrong
// variable or position, or when a bound read differs in any way from VARVAL.
TEST(ControlPlant, PlantPortsDriveAForceAsVarvalDoes) {
  const auto springDeck = [](const std::string& stretch, const std::string& first, const std::string& second) {
    return massOnSpring("<Reference_Variable id=\"71\" expr=\"DX(20,10)-1\"/>\n"
                        "<Reference_Variable id=\"72\" expr=\"TIME\"/>\n"
                        "<Control_PlantInput id=\"3\" num_element=\"2\" variable_id_list=\"72, 71\"/>\n"
                        "<Reference_Variable id=\"121\" expr=\"-30*" + stretch + "\"/>\n"
                        "<Reference_Variable id=\"122\" expr=\"-20*" + stretch + "\"/>\n"
                        "<Control_PlantOutput id=\"12\" num_element=\"2\" variable_id_list=\"121, 122\"/>\n"
                        "<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
                        "val_expression=\"" + first + " + " + second + "\"/>");
  };
  const DeckRun ports = runDeckText("plant_ports", springDeck("PINVAL(3, 2)", "POUVAL(12, 1)", "POUVAL(12, 2)"));
  const DeckRun variables =
      runDeckText("plant_ports_as_varval", springDeck("VARVAL(71)", "VARVAL(121)", "VARVAL(122)"));
  ASSERT_TRUE(ports.completed);
  ASSERT_TRUE(variables.completed);
  EXPECT_NEAR(measuredPeriod(bodiesOf(ports)) / kPeriod, 1, 1e-5);
  const ResultsTable withPorts = bodiesOf(ports), withVariables = bodiesOf(variables);
  ASSERT_EQ(withPorts.rowCount(), withVariables.rowCount());
  for (size_t row = 0; row < withPorts.rowCount(); ++row) {
    for (const char* column : {"time", "x", "vx"}) {
      ASSERT_EQ(withPorts.at(row, column), withVariables.at(row, column)) << column << " in row " << row;
    }
  }
}

// ---- switching and changing forces between Simulates ---------------------------------------------------------------

double valueAt(const ResultsTable& bodies, double time, const std::string& column) {
  for (size_t row : bodies.rowsOfBody(2)) {
    if (std::fabs(bodies.at(row, "time") - time) < 1e-9) return bodies.at(row, column);
  }
  ADD_FAILURE() << "no output at t=" << time;
  return NAN;
}

// Deactivated at 0.3 s, the spring exerts nothing: the mass flies on at the velocity it had; activated at 0.8 s it
// pulls again from where the mass is, and the spring's energy ½mv² + ½k(x − L)² is kept from then on. Fails when
// Deactivate FORCE does not reach the spring, or Activate does not bring it back.
TEST(ForceActivation, DeactivatedSpringLetsTheMassFlyFree) {
  const DeckRun run = runDeckText(
      "spring_switched",
      withCommands(massOnSpring(kSpring),
                   "<Simulate analysis_type=\"Transient\" end_time=\"0.3\" print_interval=\"0.01\"/>\n"
                   "<Deactivate element_type=\"FORCE\" element_id=\"5\"/>\n"
                   "<Simulate analysis_type=\"Transient\" end_time=\"0.8\" print_interval=\"0.01\"/>\n"
                   "<Activate element_type=\"SPDP\" element_id=\"5\"/>\n"
                   "<Simulate analysis_type=\"Transient\" end_time=\"1.5\" print_interval=\"0.01\"/>"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const double v = valueAt(bodies, 0.3, "vx"), x = valueAt(bodies, 0.3, "x");
  ASSERT_GT(std::fabs(v), 0.1);
  for (double t = 0.31; t <= 0.8 + 1e-9; t += 0.01) {
    EXPECT_NEAR(valueAt(bodies, t, "vx"), v, 1e-9) << t;
    EXPECT_NEAR(valueAt(bodies, t, "x"), x + v * (t - 0.3), 1e-9) << t;
  }
  const auto energy = [&](double t) {
    const double u = valueAt(bodies, t, "x") - kFreeLength, rate = valueAt(bodies, t, "vx");
    return 0.5 * kSpringMass * rate * rate + 0.5 * kSpringStiffness * u * u;
  };
  EXPECT_NEAR(energy(1.5) / energy(0.8), 1, 1e-6);
  EXPECT_GT(std::fabs(valueAt(bodies, 1.5, "vx") - v), 0.1) << "the spring acts again";
}

// A command changes the scalar force's expression between Simulates: with val_expression="0" from 0.3 s the mass
// flies free. Fails when a command's new expression is dropped.
TEST(ForceActivation, CommandChangesTheForcesExpression) {
  const std::string scalar = "<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
                             "val_expression=\"-50*(DM(20,10)-1)\"/>";
  const std::string deck =
      withCommands(massOnSpring(scalar), "<Simulate analysis_type=\"Transient\" end_time=\"0.3\" "
                                         "print_interval=\"0.01\"/>\n"
                                         "<Force_Scalar_TwoBody id=\"5\" val_expression=\"0\"/>\n"
                                         "<Simulate analysis_type=\"Transient\" end_time=\"0.6\" "
                                         "print_interval=\"0.01\"/>");
  const DeckRun run = runDeckText("scalar_modified", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies = bodiesOf(run);
  const double v = valueAt(bodies, 0.3, "vx");
  ASSERT_GT(std::fabs(v), 0.1);
  EXPECT_NEAR(valueAt(bodies, 0.6, "vx"), v, 1e-9);
}

// ---- a NaN from an expression ----------------------------------------------------------------------------------

// 1 + 0·SQRT(0.45 − TIME) is 1 until 0.45 s and NaN after: the residual is not finite there, the run fails at
// 0.45 s, and both the outcome and run.log name the force element. Fails when the force's NaN is lost or the element
// is not named.
TEST(ForceElements, NotFiniteExpressionFailsTheRunNamingTheElement) {
  const std::string deck =
      forceDeck(body(2, 1, 1, "") + "<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" "
                                    "fx_expression=\"1+0*SQRT(0.45-TIME)\"/>",
                "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>");
  const RunOutcome outcome = runDeckTextOutcome("force_nan", deck);
  EXPECT_EQ(outcome.status, RunStatus::SimulationFailed) << outcome.message;
  EXPECT_NE(outcome.message.find("not finite: Force_Vector_OneBody id=8"), std::string::npos) << outcome.message;
  std::string log;
  for (const std::string& line : readLines(resultsFolderOf("force_nan") / "run.log")) log += line + "\n";
  EXPECT_NE(log.find("ERROR: Force_Vector_OneBody id=8 (" + scratchFile("force_nan.xml").string()), std::string::npos) << log;
  const ResultsTable bodies((resultsFolderOf("force_nan") / "bodies.csv").string());
  EXPECT_NEAR(bodies.at(bodies.rowCount() - 1, "time"), 0.4, 1e-9) << "outputs up to the failure are kept";
}

}  // namespace
}  // namespace lodestone::testing

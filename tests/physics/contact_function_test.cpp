// CONTACT() through the whole pipeline. A ball resting on a plate (IMPACT): the force form gives its weight on the I
// body and the opposite on the J body, the same numbers contacts.csv writes, rotated by rm's axes; the index form
// gives the static penetration (mg/k)^(1/e). A ball dropped on the plate: a Sensor_Event on CONTACT's |F| halts the
// run when the force first reaches a value, at the time a 1-D RK4 integration of the fall and the law gives. A force
// element that reads the contact's force bounces the ball as the law made stiffer and more damped by that share does.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/rk4.h"

namespace lodestone::testing {
namespace {

constexpr double kLawStiffness = 1e5, kLawExponent = 1.5;

std::string impactLaw(double damping) {
  return "cnf_type=\"IMPACT\" stiffness=\"" + formatReal(kLawStiffness) + "\" exponent=\"" + formatReal(kLawExponent) +
         "\" damping=\"" + formatReal(damping) + "\" dmax=\"1e-4\" cff_type=\"COULOMB_OFF\"";
}

// The ball starts at its static penetration δs = (mg/k)^(1/e), 0.2 m off the origin in x so that the torque of the
// plate's reaction about the ground origin (the J side's "CG") is mg·0.2 about y. Marker 30 on ground has its x axis
// along ground z, y along ground x, z along ground y. Requests: f1 CONTACT(300,0,4,0) the I body's Fz, f2 the J
// body's, f3 the I body's x component in 30's axes (ground z), f4 its z component there (ground y), f5 the index
// form's penetration, f6 DX(20,0,30) (the ball's height, along 30's x: the same axes convention), f7 |F| on I,
// f8 the J side's Ty.
TEST(ContactFunction, ARestingBallsContactLoadsAreItsWeightInEveryForm) {
  BallDrop drop;
  drop.law = impactLaw(10);
  const double weight = drop.mass * kG;
  const double restDepth = std::pow(weight / kLawStiffness, 1 / kLawExponent);
  drop.height = drop.radius - restDepth;
  drop.endTime = 0.1;
  drop.elements =
      "<Reference_Marker id=\"30\" body_id=\"1\" a00=\"0\" a10=\"0\" a20=\"1\" a01=\"1\" a11=\"0\" a21=\"0\" "
      "a02=\"0\" a12=\"1\" a22=\"0\"/>\n"
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"CONTACT(300,0,4,0)\" expr2=\"CONTACT(300,1,4,0)\" "
      "expr3=\"CONTACT(300,0,2,30)\" expr4=\"CONTACT(300,0,4,30)\" expr5=\"CONTACT(300,1,0)\" "
      "expr6=\"DX(20,0,30)\" expr7=\"CONTACT(300,0,1,0)\" expr8=\"CONTACT(300,1,7,0)\"/>\n";
  std::string deck = ballDropDeck(drop);
  const std::string ballMarker = "id=\"20\" body_id=\"2\"";
  deck.replace(deck.find(ballMarker), ballMarker.size(), ballMarker + " pos_x=\"0.2\"");
  const DeckRun run = runDeckText("contact_function_rest", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable requests((run.output / "requests.csv").string());
  const ResultsTable contacts((run.output / "contacts.csv").string());
  const std::vector<size_t> rows = requests.rowsOfBody(7);
  ASSERT_EQ(rows.size(), contacts.rowsOfBody(300).size());
  ASSERT_GE(rows.size(), 10u);
  double worstWeight = 0, worstDepth = 0, worstCsv = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    const size_t row = rows[k], pair = contacts.rowsOfBody(300)[k];
    ASSERT_EQ(requests.at(row, "time"), contacts.at(pair, "time"));
    const double fz = requests.at(row, "f1");
    // The same number contacts.csv writes for the I body (both written with the same digits).
    EXPECT_NEAR(fz, contacts.at(pair, "fz"), 1e-12 * weight) << "t=" << requests.at(row, "time");
    worstCsv = std::max(worstCsv, std::fabs(fz - contacts.at(pair, "fz")));
    // The weight, as long as the ball stays at rest (integr_tol 1e-8 on its height: k·e·δs^(e−1)·1e-8 = 3e-5 N).
    EXPECT_NEAR(fz, weight, 1e-6 * weight);
    worstWeight = std::max(worstWeight, std::fabs(fz - weight) / weight);
    EXPECT_EQ(requests.at(row, "f2"), -fz);
    EXPECT_NEAR(requests.at(row, "f3"), fz, 1e-12 * weight) << "rm's x axis is ground z";
    EXPECT_NEAR(requests.at(row, "f4"), 0.0, 1e-12 * weight) << "rm's z axis is ground y";
    EXPECT_NEAR(requests.at(row, "f6"), drop.height, 1e-9) << "DX in rm's axes agrees on the convention";
    EXPECT_NEAR(requests.at(row, "f7"), fz, 1e-12 * weight);
    EXPECT_NEAR(requests.at(row, "f8"), 0.2 * fz, 1e-9 * weight) << "the J side's torque about its own CG";
    // The index form: (mg/k)^(1/e), within what the height's integration error does to it (1e-8 m at most).
    const double depth = requests.at(row, "f5");
    EXPECT_NEAR(depth, restDepth, 1e-5 * restDepth);
    EXPECT_NEAR(depth, contacts.at(pair, "penetration"), 1e-12);
    worstDepth = std::max(worstDepth, std::fabs(depth - restDepth) / restDepth);
  }
  RecordProperty("weight_relative_error", sci(worstWeight));
  RecordProperty("penetration_relative_error", sci(worstDepth));
  RecordProperty("contacts_csv_difference_N", sci(worstCsv));
}

// The ball falls 20 mm onto the undamped plate; the sensor halts when CONTACT's |F| first reaches 5 N (about 4.6
// times the weight, before the deepest point of the impact). Reference: free fall to the plate in closed form, then
// RK4 of m·z'' = −mg + k·δ^e at 1e-8 s steps, the crossing interpolated within the step. Tolerance: the sensor's
// error_tol (1e-3 N) over dF/dt there, plus the integrator's (integr_tol 1e-8 on the height, 1e-7 s at most at the
// ball's speed of 0.4 m/s and dF/dδ = 1.1e4 N/m).
TEST(ContactFunction, ASensorOnTheContactForceHaltsWhereTheReferenceIntegrationReachesTheValue) {
  BallDrop drop;
  drop.law = impactLaw(0);
  const double gap = 0.02, threshold = 5, errorTol = 1e-3;
  drop.height = drop.radius + gap;
  drop.endTime = 0.2;
  drop.elements = "<Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"CONTACT(300,0,1,0)\" compare=\"GE\" value=\"" +
                  formatReal(threshold) + "\" error_tol=\"" + formatReal(errorTol) + "\" halt=\"TRUE\"/>\n";
  const std::string deck = ballDropDeck(drop);
  const DeckRun run = runDeckText("contact_function_sensor", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<std::string> events = readLines(run.output / "events.csv");
  ASSERT_EQ(events.size(), 2u);
  ASSERT_NE(events[1].find(",41,halt,"), std::string::npos) << events[1];
  const double haltTime = std::stod(events[1]);
  const double haltValue = std::stod(events[1].substr(events[1].rfind(',') + 1));

  // Reference: the depth δ = −(z − r) from the touch on.
  const double touch = std::sqrt(2 * gap / kG);
  const auto acceleration = [&](double depth) {  // of the depth, downward positive
    return kG - (depth > 0 ? kLawStiffness * std::pow(depth, kLawExponent) / drop.mass : 0.0);
  };
  const double thresholdDepth = std::pow(threshold / kLawStiffness, 1 / kLawExponent);
  const double h = 1e-8;
  PointMotion now{0, kG * touch};
  double reference = NAN, speed = NAN;
  for (int step = 0; step < 10000000; ++step) {
    const PointMotion next = rk4Step(acceleration, now, h);
    if (next.position >= thresholdDepth) {
      reference = touch + h * (step + (thresholdDepth - now.position) / (next.position - now.position));
      speed = next.velocity;
      break;
    }
    now = next;
  }
  ASSERT_FALSE(std::isnan(reference)) << "the reference never reached the force";
  const double forceRate = kLawStiffness * kLawExponent * std::pow(thresholdDepth, kLawExponent - 1) * speed;
  const double tolerance = errorTol / forceRate + 1e-7;
  EXPECT_NEAR(haltTime, reference, tolerance);
  EXPECT_NEAR(haltValue, threshold, errorTol);
  // Not at the touch nor past the impact's peak: the first time the force reaches the value.
  EXPECT_GT(haltTime, touch);
  EXPECT_GT(speed, 0);
  RecordProperty("halt_time_s", sci(haltTime));
  RecordProperty("reference_time_s", sci(reference));
  RecordProperty("halt_time_error_s", sci(haltTime - reference));
  RecordProperty("tolerance_s", sci(tolerance));
  RecordProperty("force_at_halt_N", sci(haltValue));
}

// A ball bouncing on the plate (LINEAR, k = 1e4 N/m, c = 2 N·s/m) with a Force_Vector_OneBody at its centre that adds
// half the contact's push again, fz = 0.5·CONTACT(300,0,4,0) (Fz on I): the ball feels 1.5·(k·δ + c·δ̇), LINEAR with
// 1.5·k and 1.5·c. Its heights at every output are that law's within 10·integr_tol (measured: see the record); the
// same force element without the contact's help would not bounce it alike (checked: the heights differ by far more).
TEST(ContactFunction, AForceElementReadingTheContactForceActsAsThatShareOfTheLaw) {
  BallDrop drop;
  drop.height = drop.radius + 0.02;
  drop.endTime = 0.4;
  const auto lawOf = [](double share) {
    return "cnf_type=\"LINEAR\" stiffness=\"" + formatReal(1e4 * share) + "\" damping=\"" + formatReal(2 * share) +
           "\" cff_type=\"COULOMB_OFF\"";
  };
  drop.law = lawOf(1.5);
  const DeckRun stiffer = runDeckText("contact_function_stiffer_law", ballDropDeck(drop));
  drop.law = lawOf(1);
  const DeckRun plain = runDeckText("contact_function_plain_law", ballDropDeck(drop));
  drop.elements = "<Force_Vector_OneBody id=\"40\" type=\"FORCEONLY\" marker_id=\"20\" "
                  "fz_expression=\"0.5*CONTACT(300,0,4,0)\"/>\n";
  const DeckRun helped = runDeckText("contact_function_force_element", ballDropDeck(drop));
  ASSERT_TRUE(stiffer.completed && plain.completed && helped.completed);
  const ResultsTable expected((stiffer.output / "bodies.csv").string());
  const ResultsTable actual((helped.output / "bodies.csv").string());
  const ResultsTable unhelped((plain.output / "bodies.csv").string());
  const std::vector<size_t> rows = actual.rowsOfBody(2);
  ASSERT_EQ(rows.size(), expected.rowsOfBody(2).size());
  ASSERT_GE(rows.size(), 40u);
  double worst = 0, apart = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    const double z = actual.at(rows[k], "z");
    worst = std::max(worst, std::fabs(z - expected.at(expected.rowsOfBody(2)[k], "z")));
    apart = std::max(apart, std::fabs(z - unhelped.at(unhelped.rowsOfBody(2)[k], "z")));
  }
  EXPECT_LT(worst, 10 * drop.tolerance);
  EXPECT_GT(apart, 1e-4);
  RecordProperty("largest_height_difference_m", sci(worst));
  RecordProperty("difference_without_the_element_m", sci(apart));
}

}  // namespace
}  // namespace lodestone::testing

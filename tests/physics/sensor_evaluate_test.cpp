// Sensor_Evaluate against the closed form of a fall: a body dropped from z = 1 m under g = 9.81 crosses z = 0.5 m at
// t* = sqrt(2·0.5/g) = 0.319275428 s with vz* = −sqrt(2·g·0.5) = −3.132091953 m/s. A Sensor_Event on DZ < 0.5 whose
// evaluate_id names a Sensor_Evaluate of VZ stores vz* there; SENVAL reads 0 before and vz* after, in a
// Reference_Variable a request writes, and in a force that then pushes the body up by −2·SENVAL, whose fall after t*
// is the parabola of the new acceleration.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

const double kCrossingTime = std::sqrt(2 * 0.5 / kG);
const double kCrossingSpeed = -std::sqrt(2 * kG * 0.5);

const std::string kSimulate = "<Simulate analysis_type=\"Transient\" end_time=\"0.6\" print_interval=\"0.01\"/>";

// The fall, with `more` statements, `sensorMore` attributes on the sensor, and the deck's `commands`.
std::string fallDeck(const std::string& more, const std::string& sensorMore = "",
                     const std::string& commands = kSimulate) {
  return deck("<Force_Gravity grav_z=\"-9.81\"/>\n"
              "<Param_Transient integr_tol=\"1e-8\"/>\n"
              "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
              "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1\" inertia_yy=\"1\" inertia_zz=\"1\"/>\n"
              "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"1\"/>\n"
              "<Sensor_Evaluate id=\"5\" type=\"EXPRESSION\" expr=\"VZ(20)\"/>\n"
              "<Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"DZ(20)\" compare=\"LT\" value=\"0.5\" "
              "error_tol=\"1e-9\" evaluate_id=\"5\" " + sensorMore + "/>\n"
              "<Reference_Variable id=\"3\" type=\"EXPRESSION\" expr=\"SENVAL(5)\"/>\n"
              "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"VARVAL(3)\" expr2=\"SENVAL(5)\" expr3=\"0\" "
              "expr4=\"0\" expr5=\"0\" expr6=\"0\" expr7=\"0\" expr8=\"0\"/>\n" + more,
              commands);
}

// SENVAL through a variable and directly: 0 at every output before t*, vz* at every output after (within 1e-7:
// the crossing is located to IDAS's precision, and vz*'s error is g times its time's).
TEST(SensorEvaluate, StoresTheValueAtTheFiringAndSenvalReadsIt) {
  const DeckRun run = runDeckText("sensor_evaluate_variable", fallDeck(""));
  ASSERT_TRUE(run.completed);
  const ResultsTable requests((run.output / "requests.csv").string());
  int before = 0, after = 0;
  double worst = 0;
  for (size_t row : requests.rowsOfBody(7)) {
    const double t = requests.at(row, "time");
    if (t < kCrossingTime - 1e-9) {
      EXPECT_EQ(requests.at(row, "f1"), 0) << "t=" << t;
      EXPECT_EQ(requests.at(row, "f2"), 0) << "t=" << t;
      ++before;
    } else if (t > kCrossingTime + 1e-9) {
      worst = std::max(worst, std::fabs(requests.at(row, "f1") - kCrossingSpeed));
      EXPECT_EQ(requests.at(row, "f1"), requests.at(row, "f2")) << "t=" << t;
      ++after;
    }
  }
  EXPECT_EQ(before, 32);
  EXPECT_GE(after, 28);
  EXPECT_LT(worst, 1e-7);
  RecordProperty("worst_stored_speed_error", sci(worst));
}

// The body's height at time t under the force −2·SENVAL(5) along z (0 before t*, 2·|vz*| = 6.264 N after) on the 1 kg
// body: the free fall, then from t* z = 0.5 + vz*·τ + (−g − 2·vz*)·τ²/2, τ = t − t*.
double heightWithSenvalForce(double t) {
  const double acceleration = -kG - 2 * kCrossingSpeed;
  const double tau = t - kCrossingTime;
  return tau < 0 ? 1 - kG * t * t / 2 : 0.5 + kCrossingSpeed * tau + acceleration * tau * tau / 2;
}

// The largest departure of body 2's height in bodies.csv from heightWithSenvalForce.
double worstHeightError(const ResultsTable& bodies) {
  double worst = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    worst = std::max(worst, std::fabs(bodies.at(row, "z") - heightWithSenvalForce(bodies.at(row, "time"))));
  }
  return worst;
}

// A force −2·SENVAL(5) along z: after t* the body falls on the parabola of heightWithSenvalForce. Fails when forces do
// not see the stored value, or see it late (IDAS not restarted at the jump).
TEST(SensorEvaluate, AForceReadingSenvalChangesTheFallFromTheFiring) {
  const DeckRun run = runDeckText(
      "sensor_evaluate_force",
      fallDeck("<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"0\" "
               "fy_expression=\"0\" fz_expression=\"-2*SENVAL(5)\"/>\n"));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const double worst = worstHeightError(bodies);
  EXPECT_LT(worst, 1e-6);
  // Without the force the body would be at 1 − g·0.6²/2 = −0.7658 m at the end; with it, at −0.5190 m.
  EXPECT_NEAR(bodies.at(bodies.rowsOfBody(2).back(), "z"), -0.5190, 1e-4);
  RecordProperty("worst_height_error", sci(worst));
}

// The same fall with a command between two Simulates (t = 0.4 s, after t*): the command rebuilds the model, and the
// stored value stays what SENVAL reads, so the body keeps the parabola of the force −2·SENVAL to the end. Fails when
// the stored values start again at 0 with the rebuilt model (the force would vanish from t = 0.4 s).
TEST(SensorEvaluate, TheStoredValueOutlivesACommandBetweenSimulates) {
  const std::string commands =
      "<Simulate analysis_type=\"Transient\" end_time=\"0.4\" print_interval=\"0.01\"/>\n"
      "<Deactivate element_type=\"SFORCE\" element_id=\"9\"/>\n" + kSimulate;
  const DeckRun run = runDeckText(
      "sensor_evaluate_command",
      fallDeck("<Force_Vector_OneBody id=\"8\" type=\"ForceOnly\" marker_id=\"20\" fx_expression=\"0\" "
               "fy_expression=\"0\" fz_expression=\"-2*SENVAL(5)\"/>\n"
               "<Force_Scalar_OneBody id=\"9\" type=\"FORCE\" marker_id=\"20\" val=\"0\"/>\n",
               "", commands));
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const double worst = worstHeightError(bodies);
  int afterCommand = 0;
  for (size_t row : bodies.rowsOfBody(2)) afterCommand += bodies.at(row, "time") > 0.4 + 1e-9;
  EXPECT_GE(afterCommand, 20);
  EXPECT_LT(worst, 1e-6);
  RecordProperty("worst_height_error", sci(worst));
}

TEST(SensorEvaluateDeck, MistakesAreReportedWithTheirPlace) {
  const std::string ground = "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n";
  // Line 3: ground; line 4: the element under test.
  const Diagnostics userSub = readAndBuildDeck(
      deck(ground + "<Sensor_Evaluate id=\"5\" type=\"USERSUB\" usrsub_param_string=\"USER(1)\"/>"));
  EXPECT_TRUE(hasError(userSub, 4, "deck.xml:4:1: Sensor_Evaluate id=5"));
  EXPECT_TRUE(hasError(userSub, 4, "usrsub_dll_name is needed: the shared library that holds SEVSUB"));
  const Diagnostics noExpr = readAndBuildDeck(deck(ground + "<Sensor_Evaluate id=\"5\" type=\"EXPRESSION\"/>"));
  EXPECT_TRUE(hasError(noExpr, 4, "Sensor_Evaluate id=5: type=\"EXPRESSION\" needs expr"));
  const Diagnostics badMarker =
      readAndBuildDeck(deck(ground + "<Sensor_Evaluate id=\"5\" type=\"EXPRESSION\" expr=\"2*DZ(99)\"/>"));
  EXPECT_TRUE(hasError(badMarker, 4, "expr=\"2*DZ(99)\", column 6: names Reference_Marker id=99"));
  const Diagnostics missingEvaluate = readAndBuildDeck(
      deck(ground + "<Reference_Variable id=\"3\" type=\"EXPRESSION\" expr=\"1 + SENVAL(6)\"/>"));
  EXPECT_TRUE(hasError(missingEvaluate, 4,
                       "expr=\"1 + SENVAL(6)\", column 12: names Sensor_Evaluate id=6, which the deck does not have"));
  const Diagnostics missingId = readAndBuildDeck(
      deck(ground + "<Sensor_Event id=\"41\" expr=\"TIME\" compare=\"GE\" value=\"1\" evaluate_id=\"6\"/>"));
  EXPECT_TRUE(hasError(missingId, 4, "evaluate_id' refers to Sensor_Evaluate id=6, which is not defined"));
}

}  // namespace
}  // namespace lodestone::testing

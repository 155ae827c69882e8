// Sensor_Event, Deactivate and Activate in decks: expressions that do not compile are errors with the column inside
// expr and the element's line, markers the deck does not have are named, a USERSUB sensor names its SENSUB, and the
// activation commands must name an element of the model.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: the sensor.
constexpr int kSensorLine = 6;
constexpr int kSensorFirstCommandLine = kSensorLine + 3;

std::string sensorDeck(const std::string& attributes, const std::string& commands =
                                                          "<Simulate analysis_type=\"Transient\" end_time=\"1\" "
                                                          "print_interval=\"0.1\"/>") {
  return deck(groundAndBody() + "\n<Sensor_Event id=\"41\" " + attributes + "/>", commands);
}

TEST(SensorEventDeck, AValidSensorReadsAndBuilds) {
  const Diagnostics diagnostics = readAndBuildDeck(
      sensorDeck("type=\"EXPRESSION\" expr=\"DZ(20) + 0.1*TIME\" compare=\"GE\" value=\"2\" halt=\"TRUE\""));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
}

TEST(SensorEventDeck, ExpressionErrorsPointAtTheColumnInsideExpr) {
  const Diagnostics diagnostics = readAndBuildDeck(sensorDeck("expr=\"DZ(20) + SINN(TIME)\" value=\"1\""));
  EXPECT_TRUE(hasError(diagnostics, kSensorLine, "Sensor_Event id=41: expr=\"DZ(20) + SINN(TIME)\", column 10: "));
}

TEST(SensorEventDeck, MarkersTheDeckDoesNotHaveAreNamed) {
  const Diagnostics diagnostics = readAndBuildDeck(sensorDeck("expr=\"DX(20, 77)\" value=\"1\""));
  EXPECT_TRUE(hasError(diagnostics, kSensorLine,
                       "expr=\"DX(20, 77)\", column 8: names Reference_Marker id=77, which the deck does not "
                       "have"));
}

TEST(SensorEventDeck, ExpressionIsRequiredAndUserSubroutinesAreRefused) {
  EXPECT_TRUE(hasError(readAndBuildDeck(sensorDeck("value=\"1\"")), kSensorLine,
                       "type=\"EXPRESSION\" needs expr, the expression compared with value"));
  EXPECT_TRUE(hasError(readAndBuildDeck(sensorDeck("type=\"USERSUB\" value=\"1\"")), kSensorLine,
                       "usrsub_dll_name is needed: the shared library that holds SENSUB"));
  EXPECT_TRUE(hasError(readAndBuildDeck(sensorDeck("expr=\"TIME\" compare=\"LE\"")), kSensorLine,
                       "attribute 'compare' must be one of GE, LT, EQ (got 'LE')"));
  EXPECT_TRUE(hasError(readAndBuildDeck(sensorDeck("expr=\"TIME\" error_tol=\"-1e-3\"")), kSensorLine,
                       "attribute 'error_tol' must be >= 0 (got -0.001)"));
}

// MotionView exports error_tol="0." by default (a real vehicle deck has it): valid, since zero crossing locates the
// event whatever the tolerance; only an EQ sensor that is merely checked after each step could then never fire.
TEST(SensorEventDeck, ZeroErrorToleranceIsValidAndWarnedOnlyWhereItCannotFire) {
  Diagnostics diagnostics = readAndBuildDeck(sensorDeck("expr=\"TIME\" value=\"0.5\" error_tol=\"0.\""));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
  diagnostics = readAndBuildDeck(sensorDeck("expr=\"TIME\" value=\"0.5\" error_tol=\"0\" zero_crossing=\"FALSE\""));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(diagnostics, kSensorLine, "fires only if expr equals value exactly at the end of a step"));
  diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\" compare=\"GE\" error_tol=\"0\" zero_crossing=\"FALSE\""));
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(SensorEventDeck, ActivationCommandsNameAnElementOfTheModel) {
  const std::string simulate = "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>";
  Diagnostics diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\"", "<Deactivate element_type=\"SENSOR\" element_id=\"41\"/>\n" + simulate));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\"", "<Deactivate element_type=\"SENSOR\" element_id=\"42\"/>\n" + simulate));
  EXPECT_TRUE(hasError(diagnostics, kSensorFirstCommandLine,
                       "Deactivate: element_id=42: the model has no Sensor_Event with this id (element_type=\"SENSOR\")"));
  diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\"", "<Activate element_type=\"CONTACT\" element_id=\"41\"/>\n" + simulate));
  EXPECT_TRUE(hasError(diagnostics, kSensorFirstCommandLine, "the model has no Force_Contact with this id"));
  diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\"", "<Deactivate element_type=\"JOINT\" element_id=\"41\"/>\n" + simulate));
  EXPECT_TRUE(hasError(diagnostics, kSensorFirstCommandLine, "the model has no Constraint_Joint with this id"));
  diagnostics = readAndBuildDeck(
      sensorDeck("expr=\"TIME\" value=\"0.5\"", "<Deactivate element_type=\"GEAR\" element_id=\"41\"/>\n" + simulate));
  EXPECT_TRUE(hasError(diagnostics, kSensorFirstCommandLine,
                       "element_type=\"GEAR\" cannot be switched yet: those elements are not available; Deactivate "
                       "and Activate switch CONTACT, SENSOR, BEAM, BUSH, FIELD, FORCE, GFORCE, JOINT, JPRIM, MOTION, "
                       "SFORCE, VFORCE, VTORQUE, SPDP and SPRINGDAMPER elements"));
}

}  // namespace
}  // namespace lodestone::testing

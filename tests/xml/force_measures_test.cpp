// JOINT, SFORCE…, FX… in decks: where they may be read (requests, sensors, the variables these read) and where they
// are refused with the element, its line and the column (force elements, themselves or through a variable: the
// forces would read the reactions solved for with them); the elements they name must be in the deck, and VFORCE,
// VTORQ, GFORCE name a Force_Vector of their type.
#include "elements/post_request.h"
#include "elements/sensor_event.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 21 on ground; line 7: a spherical joint 3 between them,
// line 8: a spring 8 between them; the statements under test from line 9 on.
constexpr int kMeasureLine = 9;

struct MeasuresBuilt {
  Diagnostics diagnostics;
  bool built = false;
};

MeasuresBuilt readAndBuildMeasures(const std::string& statements) {
  ReadResult result = readText(deck(
      groundAndBody() + "\n<Reference_Marker id=\"21\" body_id=\"1\"/>\n" +
      "<Constraint_Joint id=\"3\" type=\"SPHERICAL\" i_marker_id=\"20\" j_marker_id=\"21\"/>\n" +
      "<Force_Scalar_TwoBody id=\"8\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"21\" val=\"1\"/>\n" +
      statements));
  MeasuresBuilt built;
  if (result.spec) built.built = buildModel(*result.spec, result.diagnostics).has_value();
  built.diagnostics = std::move(result.diagnostics);
  return built;
}

TEST(ForceMeasuresDeck, RequestsSensorsAndTheirVariablesReadThem) {
  const MeasuresBuilt built = readAndBuildMeasures(
      "<Reference_Variable id=\"5\" type=\"EXPRESSION\" expr=\"FZ(20,21) + SFORCE(8,1,4,0)\"/>\n"
      "<Sensor_Event id=\"6\" type=\"EXPRESSION\" expr=\"JOINT(3,0,1,0) + VARVAL(5)\" compare=\"GE\" value=\"1\"/>\n"
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"JOINT(3,1,4,21)\" expr2=\"VARVAL(5)\" "
      "expr3=\"TM(20)\"/>");
  EXPECT_TRUE(built.built) << built.diagnostics.formatAll();
  EXPECT_EQ(built.diagnostics.errorCount() + built.diagnostics.warningCount(), 0) << built.diagnostics.formatAll();
}

// A force that read a joint's reaction would close an algebraic loop on the multipliers the equations solve for.
TEST(ForceMeasuresDeck, AForceElementReadingAReactionIsRefusedAtItsColumn) {
  const MeasuresBuilt direct = readAndBuildMeasures(
      "<Force_Scalar_TwoBody id=\"9\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"21\" "
      "val_expression=\"1 + JOINT(3,0,4,0)\"/>");
  EXPECT_FALSE(direct.built);
  EXPECT_TRUE(hasError(direct.diagnostics, kMeasureLine,
                       "Force_Scalar_TwoBody id=9: val_expression=\"1 + JOINT(3,0,4,0)\", column 5: JOINT reads the "
                       "reaction of Constraint_Joint id=3, which the equations of motion solve for together with the "
                       "forces (an algebraic loop on the joints' multipliers): an expression that loads the bodies may "
                       "not read it (Post_Request, Sensor_Event and the Reference_Variables they read may)"));
  const MeasuresBuilt throughVariable = readAndBuildMeasures(
      "<Reference_Variable id=\"5\" type=\"EXPRESSION\" expr=\"2*FZ(20,21)\"/>\n"
      "<Reference_Variable id=\"4\" type=\"EXPRESSION\" expr=\"VARVAL(5)\"/>\n"
      "<Force_Vector_OneBody id=\"9\" type=\"FORCEONLY\" marker_id=\"20\" fz_expression=\"TIME + VARVAL(4)\"/>");
  EXPECT_FALSE(throughVariable.built);
  EXPECT_TRUE(hasError(throughVariable.diagnostics, kMeasureLine + 2,
                       "Force_Vector_OneBody id=9: fz_expression=\"TIME + VARVAL(4)\", column 15: reads (through "
                       "VARVAL) Reference_Variable id=5 (deck.xml:9:"));
  EXPECT_TRUE(hasError(throughVariable.diagnostics, kMeasureLine + 2,
                       "whose expr at column 3: FZ reads the loads at Reference_Marker id=20 (joints' among them), "
                       "which the equations of motion solve for together with the forces"));
}

TEST(ForceMeasuresDeck, AForceElementReadingAnotherForceIsRefusedAtItsColumn) {
  const MeasuresBuilt built = readAndBuildMeasures(
      "<Force_Scalar_TwoBody id=\"9\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"21\" "
      "val_expression=\"SFORCE(8,0,1,0)\"/>");
  EXPECT_FALSE(built.built);
  EXPECT_TRUE(hasError(built.diagnostics, kMeasureLine,
                       "val_expression=\"SFORCE(8,0,1,0)\", column 1: SFORCE reads the force of Force_Scalar_TwoBody "
                       "id=8, which is computed in the same pass as the other forces: an expression that loads the "
                       "bodies may not read it yet"));
}

// A contact law given by expressions loads the bodies too.
TEST(ForceMeasuresDeck, AContactLawReadingAReactionIsRefusedAtItsColumn) {
  const MeasuresBuilt built = readAndBuildMeasures(
      "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
      "length_y=\"2\" length_z=\"1\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"EXPRESSION\" "
      "normal_force_expression=\"1e5*DELTA + 0*JOINT(3,0,1,0)\"/>");
  EXPECT_FALSE(built.built);
  EXPECT_TRUE(hasError(built.diagnostics, kMeasureLine + 3,
                       "Force_Contact id=300: normal_force_expression=\"1e5*DELTA + 0*JOINT(3,0,1,0)\", column 15: "
                       "JOINT reads the reaction of Constraint_Joint id=3, which the equations of motion solve for"));
}

TEST(ForceMeasuresDeck, TheElementsNamedMustBeInTheDeckAndOfTheirType) {
  const MeasuresBuilt missing = readAndBuildMeasures(
      "<Post_Request id=\"7\" type=\"EXPRESSION\" expr2=\"JOINT(4,0,4,0)\" expr3=\"2*BUSH(8,0,1,0)\"/>");
  EXPECT_FALSE(missing.built);
  EXPECT_TRUE(hasError(missing.diagnostics, kMeasureLine,
                       "Post_Request id=7: expr2=\"JOINT(4,0,4,0)\", column 1: JOINT names Constraint_Joint id=4, "
                       "which the deck does not have"));
  EXPECT_TRUE(hasError(missing.diagnostics, kMeasureLine,
                       "expr3=\"2*BUSH(8,0,1,0)\", column 3: BUSH names Force_Bushing id=8, which the deck does not "
                       "have"));
  const MeasuresBuilt wrongType = readAndBuildMeasures(
      "<Force_Vector_OneBody id=\"9\" type=\"TORQUEONLY\" marker_id=\"20\" tz_expression=\"1\"/>\n"
      "<Sensor_Event id=\"6\" type=\"EXPRESSION\" expr=\"VFORCE(9,0,1,0)\" compare=\"GE\" value=\"1\"/>\n"
      "<Reference_Variable id=\"5\" type=\"EXPRESSION\" expr=\"VTORQ(9,0,8,0) + GFORCE(9,0,1,0)\"/>");
  EXPECT_FALSE(wrongType.built);
  EXPECT_TRUE(hasError(wrongType.diagnostics, kMeasureLine + 1,
                       "Sensor_Event id=6: expr=\"VFORCE(9,0,1,0)\", column 1: VFORCE names Force_Vector_OneBody "
                       "id=9 (deck.xml:9:"));
  EXPECT_TRUE(hasError(wrongType.diagnostics, kMeasureLine + 1,
                       "whose type is TORQUEONLY, not FORCEONLY (VFORCE reads FORCEONLY, VTORQ TORQUEONLY, GFORCE "
                       "FORCEANDTORQUE)"));
  EXPECT_TRUE(hasError(wrongType.diagnostics, kMeasureLine + 2, "column 18: GFORCE names Force_Vector_OneBody id=9"));
  EXPECT_EQ(wrongType.diagnostics.errorCount(), 2) << "VTORQ reads it: " << wrongType.diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

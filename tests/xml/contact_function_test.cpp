// CONTACT() in expressions, as the deck is checked: the two forms told apart by their argument count, a Force_Contact
// or marker the deck does not have, a jflag, comp or index that cannot work, and the elements that may not read
// contacts — each an error on the reading element's line with the column inside its attribute.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); 6: a ground marker; 7: a ground box; 8: a sphere on body 2;
// 9: Force_Contact 300; 10: the element that reads it.
constexpr int kReaderLine = 10;

std::string contactDeck(const std::string& reader) {
  return deck(groundAndBody() +
              "\n<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>"
              "\n<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
              "length_y=\"2\" length_z=\"1\"/>"
              "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>"
              "\n<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
              "stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"/>\n" +
              reader);
}

std::string sensor(const std::string& expr) {
  return "<Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"" + expr + "\" compare=\"GE\" value=\"5\"/>";
}

TEST(ContactFunctionDeck, BothFormsReadAndBuildInSensorsRequestsAndVariables) {
  const Diagnostics diagnostics = readAndBuildDeck(contactDeck(
      sensor("CONTACT(300, 0, 1, 0) + CONTACT(300,1,8,20) + contact(300, 1, 0)") +
      "\n<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"CONTACT(300,0,4,11)\" expr2=\"VARVAL(5)\"/>"
      "\n<Reference_Variable id=\"5\" type=\"EXPRESSION\" expr=\"CONTACT(300,1,0)\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
}

TEST(ContactFunctionDeck, AForceContactTheDeckDoesNotHaveIsNamedWithItsColumn) {
  const Diagnostics diagnostics = readAndBuildDeck(contactDeck(sensor("1 + CONTACT(301, 0, 1, 0)")));
  EXPECT_TRUE(hasError(diagnostics, kReaderLine,
                       "Sensor_Event id=41: expr=\"1 + CONTACT(301, 0, 1, 0)\", column 13: names Force_Contact "
                       "id=301, which the deck does not have"));
}

TEST(ContactFunctionDeck, AMarkerRmTheDeckDoesNotHaveIsNamedWithItsColumn) {
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0,2,77)"))), kReaderLine,
                       "expr=\"CONTACT(300,0,2,77)\", column 17: names Reference_Marker id=77, which the deck does "
                       "not have"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,1,78)"))), kReaderLine,
                       "expr=\"CONTACT(300,1,78)\", column 15: names Reference_Marker id=78"));
}

TEST(ContactFunctionDeck, BadFlagsComponentsIndicesAndCountsAreErrorsAtTheirColumn) {
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,2,1,0)"))), kReaderLine,
                       "expr=\"CONTACT(300,2,1,0)\", column 13: jflag 2 of CONTACT is neither 0 (the loads on the "
                       "I body) nor 1 (on the J body)"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0,9,0)"))), kReaderLine,
                       "column 15: comp 9 of CONTACT is not 1 to 8"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0,0,0)"))), kReaderLine,
                       "column 15: comp 0 of CONTACT is not 1 to 8"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0,0)"))), kReaderLine,
                       "column 13: index 0 of CONTACT(id, index, rm) is not 1 to 28 (1 penetration, 2 contact signal, "
                       "3 separation, 4-5 normal and friction force, 6-8 relative velocity in the contact frame, 9-15 "
                       "and 16-22 the frame on J and on I, 23-25 point, 26-28 normal in rm's axes)"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,29,0)"))), kReaderLine,
                       "column 13: index 29 of CONTACT(id, index, rm) is not 1 to 28"));
  EXPECT_FALSE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,28,0)"))), kReaderLine, "CONTACT"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0)"))), kReaderLine,
                       "column 1: CONTACT takes 4 arguments (id, jflag, comp, rm) or 3 (id, index, rm), got 2"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,0,1.5,0)"))), kReaderLine,
                       "column 15: literal '1.5' of CONTACT is not a whole number"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(0,0,1,0)"))), kReaderLine,
                       "column 9: Force_Contact id '0' of CONTACT is 0; ids are positive"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck(sensor("CONTACT(300,-1,1,0)"))), kReaderLine,
                       "column 13: literal '-1' of CONTACT is negative"));
}

// A force element may read a contact's loads, itself or through a variable; a motion, whose expression may read
// TIME and positions only, may not.
TEST(ContactFunctionDeck, ForceElementsReadContactsAndMotionsAreRefused) {
  const Diagnostics direct = readAndBuildDeck(contactDeck("<Force_Scalar_TwoBody id=\"50\" type=\"FORCE\" "
                                                          "i_marker_id=\"20\" j_marker_id=\"11\" "
                                                          "val_expression=\"CONTACT(300,0,1,0)\"/>"));
  EXPECT_EQ(direct.errorCount(), 0) << direct.formatAll();
  const Diagnostics throughVariable = readAndBuildDeck(contactDeck(
      "<Force_Scalar_TwoBody id=\"50\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"11\" "
      "val_expression=\"2*VARVAL(5)\"/>\n"
      "<Reference_Variable id=\"5\" type=\"EXPRESSION\" expr=\"CONTACT(300,1,0)\"/>"));
  EXPECT_EQ(throughVariable.errorCount(), 0) << throughVariable.formatAll();
  // A contact the deck lacks is an error at its column, as anywhere.
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck("<Force_Scalar_TwoBody id=\"50\" type=\"FORCE\" i_marker_id=\"20\" "
                                                    "j_marker_id=\"11\" val_expression=\"CONTACT(301,0,1,0)\"/>")),
                       kReaderLine, "column 9: names Force_Contact id=301, which the deck does not have"));
  EXPECT_TRUE(hasError(readAndBuildDeck(contactDeck("<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"T\" "
                                                    "expr=\"CONTACT(300,0,1,0)\"/>\n<Constraint_Joint id=\"1\" "
                                                    "type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"11\"/>")),
                       kReaderLine,
                       "Motion_Joint id=5: expr=\"CONTACT(300,0,1,0)\" reads Force_Contact id=300; a motion's "
                       "expression may read TIME and the markers' positions and angles, not a contact's loads"));
}

}  // namespace
}  // namespace lodestone::testing

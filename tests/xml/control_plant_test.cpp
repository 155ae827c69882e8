// Control_PlantInput and Control_PlantOutput as the deck is checked: their attributes on the element's line, and
// PINVAL and POUVAL in expressions, with the column of a call the ports cannot answer, and the checks a VARVAL of the
// variable a call reads has (cycles, what motions and forces may read) made through the call.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

constexpr int kPortLine = 6;  // the first line after groundAndBody()'s three

// Input 3 lists variables 7 (DX) and 8 (TIME); output 12 lists variable 9; then `more`.
std::string plantDeck(const std::string& more, const std::string& input3 = "num_element=\"2\" "
                                                                           "variable_id_list=\"7, 8\"") {
  return deck(groundAndBody() + "\n" +
              "<Control_PlantInput id=\"3\" label=\"driver\" " + input3 + "/>\n"
              "<Control_PlantOutput id=\"12\" num_element=\"1\" variable_id_list=\"9\"/>\n"
              "<Reference_Variable id=\"7\" expr=\"DX(20)\"/>\n"
              "<Reference_Variable id=\"8\" expr=\"TIME\"/>\n"
              "<Reference_Variable id=\"9\" expr=\"2*PINVAL(3, 2)\"/>\n" +
              more);
}
constexpr int kPlantMoreLine = kPortLine + 5;

std::string plantRequest(const std::string& expression) {
  return "<Post_Request id=\"40\" type=\"EXPRESSION\" expr1=\"" + expression + "\"/>";
}

TEST(ControlPlantDecks, PortsAndTheirReadsBuild) {
  const Diagnostics diagnostics = readAndBuildDeck(plantDeck(plantRequest("POUVAL(12, 1) + pinval(3,1)")));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(ControlPlantDecks, TheListIsCheckedOnThePortsLine) {
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", "num_element=\"3\" variable_id_list=\"7, 8\"")), kPortLine,
                       "deck.xml:6:1: Control_PlantInput id=3: num_element=\"3\" but variable_id_list holds 2 "
                       "variables"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", "variable_id_list=\"7, 8\"")), kPortLine,
                       "needs num_element, the number of variables variable_id_list holds (2 here)"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", "num_element=\"2\"")), kPortLine,
                       "needs variable_id_list, the Reference_Variables whose values are the port's signals"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", "num_element=\"2\" variable_id_list=\"7, 99\"")), kPortLine,
                       "attribute 'variable_id_list' refers to Reference_Variable id=99"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", "num_element=\"0\" variable_id_list=\"7\"")), kPortLine,
                       "attribute 'num_element' must be >= 1 (got 0)"));
  // MotionSolve's POUVAL example writes num_variable: said to be num_element here, and the count still needed.
  const Diagnostics manualsExample = readAndBuildDeck(plantDeck("", "num_variable=\"2\" variable_id_list=\"7, 8\""));
  EXPECT_TRUE(hasWarning(manualsExample, kPortLine, "unknown attribute 'num_variable' ignored; the count MotionSolve's "
                                                    "POUVAL example names num_variable is 'num_element' here"));
  EXPECT_TRUE(hasError(manualsExample, kPortLine, "needs num_element"));
}

// A port whose signals a user subroutine gives is for co-simulation: refused, saying what to write instead. The
// sampling attributes only serve co-simulation: each is said to do nothing.
TEST(ControlPlantDecks, CosimulationAttributesAreRefusedOrSaidToDoNothing) {
  const std::string lists = "num_element=\"2\" variable_id_list=\"7, 8\" ";
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", lists + "type=\"USERSUB\" usrsub_dll_name=\"ports\"")),
                       kPortLine,
                       "attribute 'type' is not supported: a port whose signals a user subroutine defines serves "
                       "co-simulation, which Lodestone does not do; list the signals as Reference_Variables"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("", lists + "type=\"USERSUB\" usrsub_dll_name=\"ports\"")),
                       kPortLine, "attribute 'usrsub_dll_name' is not supported"));
  for (const char* attribute : {"hold_order=\"1\"", "sampling_period=\"0.01\"", "offset_time=\"0\""}) {
    const Diagnostics diagnostics = readAndBuildDeck(plantDeck("", lists + attribute));
    EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
    EXPECT_TRUE(hasWarning(diagnostics, kPortLine, "has no effect in Lodestone: MotionSolve uses it only to "
                                                   "co-simulate with a control package"));
  }
}

TEST(ControlPlantDecks, ACallThePortsCannotAnswerIsAnErrorAtItsColumn) {
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck(plantRequest("1 + PINVAL(4, 1)"))), kPlantMoreLine,
                       "Post_Request id=40: expr1=\"1 + PINVAL(4, 1)\", column 5: PINVAL names Control_PlantInput "
                       "id=4, which the deck does not have"));
  // Output 3 does not exist, only input 3.
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck(plantRequest("POUVAL(3, 1)"))), kPlantMoreLine,
                       "column 1: POUVAL names Control_PlantOutput id=3, which the deck does not have"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck(plantRequest("PINVAL(3, 3)"))), kPlantMoreLine,
                       "column 1: PINVAL reads variable 3 of Control_PlantInput id=3 (deck.xml:6:1), which lists 2"));
  // Each kind of element that compiles an expression binds its reads.
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("<Sensor_Event id=\"50\" expr=\"PINVAL(3, 5)\" value=\"1\" "
                                                  "compare=\"GE\"/>")),
                       kPlantMoreLine, "Sensor_Event id=50: expr=\"PINVAL(3, 5)\", column 1: PINVAL reads variable 5"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("<Control_Diff id=\"51\" expr=\"-POUVAL(12, 2)\"/>")),
                       kPlantMoreLine,
                       "Control_Diff id=51: expr=\"-POUVAL(12, 2)\", column 2: POUVAL reads variable 2"));
  EXPECT_TRUE(hasError(readAndBuildDeck(plantDeck("<Force_Scalar_TwoBody id=\"52\" type=\"FORCE\" i_marker_id=\"20\" "
                                                  "j_marker_id=\"10\" val_expression=\"PINVAL(9, 1)\"/>\n"
                                                  "<Reference_Marker id=\"10\" body_id=\"1\"/>")),
                       kPlantMoreLine, "Force_Scalar_TwoBody id=52: val_expression=\"PINVAL(9, 1)\", column 1: PINVAL "
                                       "names Control_PlantInput id=9"));
}

// A variable that reads itself through a port is a cycle, as through VARVAL.
TEST(ControlPlantDecks, AVariableReadingItselfThroughAPortIsACycle) {
  const Diagnostics diagnostics = readAndBuildDeck(deck(
      groundAndBody() + "\n" +
      "<Control_PlantOutput id=\"12\" num_element=\"1\" variable_id_list=\"9\"/>\n"
      "<Reference_Variable id=\"9\" expr=\"1 + POUVAL(12, 1)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kPortLine + 1,
                       "Reference_Variable id=9: expr=\"1 + POUVAL(12, 1)\": the variable depends on its own value "
                       "through the variables it reads (VARVAL, PINVAL, POUVAL): id=9 -> id=9"));
}

// What a force may not read through VARVAL it may not read through a port either: a force reading accelerations.
TEST(ControlPlantDecks, AForceReadingAccelerationsThroughAPortIsRefused) {
  const Diagnostics diagnostics = readAndBuildDeck(deck(
      groundAndBody() + "\n" +
      "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
      "<Control_PlantOutput id=\"12\" num_element=\"1\" variable_id_list=\"9\"/>\n"
      "<Reference_Variable id=\"9\" expr=\"ACCX(20)\"/>\n"
      "<Force_Scalar_TwoBody id=\"52\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
      "val_expression=\"POUVAL(12, 1)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kPortLine + 3, "Force_Scalar_TwoBody id=52")) << diagnostics.formatAll();
  EXPECT_TRUE(hasError(diagnostics, kPortLine + 3, "accelerations")) << diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

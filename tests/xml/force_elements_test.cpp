// Force elements and Reference_Variable in decks: missing and contradictory attributes, expressions that name
// markers or variables the deck does not have (with the column inside the attribute), variables that read
// themselves, user subroutines refused by name, and Deactivate of force types.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 10 on ground; line 7 on: `elements`.
constexpr int kForceLine = 7;

std::string forceDeck(const std::string& elements,
                      const std::string& commands =
                          "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>") {
  return deck(groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n" + elements, commands);
}

const std::string kScalar = "<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" ";

TEST(ForceElementDecks, EveryElementReadsAndBuilds) {
  const Diagnostics diagnostics = readAndBuildDeck(forceDeck(
      kScalar + "val_expression=\"-50*(DM(20,10)-1) + VARVAL(3)\"/>\n"
      "<Reference_Variable id=\"3\" type=\"EXPRESSION\" expr=\"VX(20)\"/>\n"
      "<Force_Vector_TwoBody id=\"6\" type=\"ForceAndTorque\" i_marker_id=\"20\" j_floating_marker_id=\"10\" "
      "ref_marker_id=\"20\" fx_expression=\"1\" fy_expression=\"0\" fz_expression=\"0\" tx_expression=\"0\" "
      "ty_expression=\"0\" tz_expression=\"TIME\"/>\n"
      "<Force_Vector_OneBody id=\"6\" type=\"TorqueOnly\" marker_id=\"20\" tz_expression=\"VARVAL(3)\"/>\n"
      "<Force_SpringDamper id=\"7\" type=\"Rotational\" i_marker_id=\"20\" j_marker_id=\"10\" stiffness=\"2\" "
      "damping=\"0.1\" length=\"0.5\" preload=\"1\"/>\n"
      "<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"10\" kx=\"1\" ctz=\"2\" preload_ty=\"-1\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(ForceElementDecks, MarkersAreRequired) {
  const Diagnostics diagnostics =
      readAndBuildDeck(forceDeck("<Force_Scalar_TwoBody id=\"5\" type=\"FORCE\" j_marker_id=\"10\" val=\"1\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kForceLine, "Force_Scalar_TwoBody id=5: missing required attribute 'i_marker_id'"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"99\"/>")),
                       kForceLine, "attribute 'j_marker_id' refers to Reference_Marker id=99, which is not defined"));
}

TEST(ForceElementDecks, ScalarForceTakesExactlyOneOfValAndValExpression) {
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(kScalar + "val=\"1\" val_expression=\"2*TIME\"/>")), kForceLine,
                       "Force_Scalar_TwoBody id=5: give either val or val_expression, not both"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(kScalar + "/>")), kForceLine,
                       "needs the magnitude: val (a number), val_expression (an expression) or an SFOSUB "
                       "subroutine"));
}

// The element's line and column in the deck, then the column inside the attribute.
TEST(ForceElementDecks, ExpressionProblemsPointAtTheColumnInsideTheAttribute) {
  const Diagnostics diagnostics = readAndBuildDeck(forceDeck(kScalar + "val_expression=\"-50*(DM(20,99)-1)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kForceLine,
                       "deck.xml:7:1: Force_Scalar_TwoBody id=5: val_expression=\"-50*(DM(20,99)-1)\", column 12: "
                       "names Reference_Marker id=99, which the deck does not have"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(kScalar + "val_expression=\"1 + VARVAL(4)\"/>")), kForceLine,
                       "val_expression=\"1 + VARVAL(4)\", column 12: names Reference_Variable id=4, which the deck "
                       "does not have"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(kScalar + "val_expression=\"2*SINN(TIME)\"/>")), kForceLine,
                       "val_expression=\"2*SINN(TIME)\", column 3: unknown function 'SINN'"));
  EXPECT_TRUE(hasError(
      readAndBuildDeck(forceDeck("<Force_Vector_OneBody id=\"6\" type=\"ForceOnly\" marker_id=\"20\" "
                                 "fz_expression=\"ACCZ(20)\"/>")),
      kForceLine, "fz_expression=\"ACCZ(20)\" reads accelerations"));
}

TEST(ForceElementDecks, VectorComponentsMustBelongToTheType) {
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Force_Vector_OneBody id=\"6\" type=\"ForceOnly\" marker_id=\"20\" "
                                                  "fx_expression=\"1\" tz_expression=\"2\"/>")),
                       kForceLine, "tz_expression does not belong to type=\"FORCEONLY\""));
}

// Subroutines run end to end in tests/plugins; here, what the reader says about their attributes.
TEST(ForceElementDecks, SubroutineAttributesAreChecked) {
  const std::string subroutine = kScalar + "usrsub_dll_name=\"no_such_forces\" usrsub_param_string=\"USER(1)\"/>";
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(subroutine)), kForceLine,
                       "Force_Scalar_TwoBody id=5: usrsub_dll_name=\"no_such_forces\": library \"no_such_forces\" "
                       "not found"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck(kScalar + "val=\"1\" usrsub_dll_name=\"forces\"/>")), kForceLine,
                       "give one of val, val_expression and an SFOSUB subroutine"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Reference_Variable id=\"3\" type=\"USERSUB\"/>")), kForceLine,
                       "Reference_Variable id=3: usrsub_dll_name is needed: the shared library that holds VARSUB"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Reference_Variable id=\"3\" type=\"USERSUB\" "
                                                  "usrsub_dll_name=\"forces\" usrsub_param_string=\"USER(1,\"/>")),
                       kForceLine, "Reference_Variable id=3: usrsub_param_string=\"USER(1,\", column "));
}

// A cycle of a thousand variables is named by its start and its way back, not link by link.
TEST(ForceElementDecks, ALongCycleIsShortenedInItsMessage) {
  std::string variables;
  for (int id = 1; id <= 1000; ++id) {
    const std::string next = std::to_string(id % 1000 + 1);
    variables += "<Reference_Variable id=\"" + std::to_string(id) + "\" expr=\"VARVAL(" + next + ")\"/>\n";
  }
  const Diagnostics diagnostics = readAndBuildDeck(forceDeck(variables));
  ASSERT_EQ(diagnostics.errorCount(), 1) << diagnostics.formatAll();
  const std::string message = diagnostics.entries()[0].format();
  EXPECT_NE(message.find("(VARVAL, PINVAL, POUVAL): id=1 -> id=2 (deck.xml:8:1)"), std::string::npos) << message;
  EXPECT_NE(message.find("characters left out]..."), std::string::npos) << message;
  EXPECT_NE(message.find("-> id=1000 (deck.xml:1006:1) -> id=1; break the cycle"), std::string::npos) << message;
  EXPECT_LT(message.size(), 500u) << message;
}

// A variable may not read itself, directly or through others; the error names the chain and where each one is.
TEST(ForceElementDecks, VariablesThatReadThemselvesAreAnErrorNamingTheChain) {
  const Diagnostics diagnostics = readAndBuildDeck(forceDeck(
      "<Reference_Variable id=\"3\" expr=\"1 + VARVAL(4)\"/>\n"
      "<Reference_Variable id=\"4\" expr=\"2*VARVAL(5)\"/>\n"
      "<Reference_Variable id=\"5\" expr=\"VARVAL(3) + DX(20)\"/>\n"
      "<Reference_Variable id=\"6\" expr=\"VARVAL(6)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kForceLine,
                       "Reference_Variable id=3: expr=\"1 + VARVAL(4)\": the variable depends on its own value through "
                       "the variables it reads (VARVAL, PINVAL, POUVAL): id=3 -> id=4 (deck.xml:8:1) -> id=5 "
                       "(deck.xml:9:1) -> id=3"));
  EXPECT_TRUE(hasError(diagnostics, kForceLine + 3, "Reference_Variable id=6: expr=\"VARVAL(6)\": the variable depends "
                                                    "on its own value through the variables it reads (VARVAL, "
                                                    "PINVAL, POUVAL): id=6 -> id=6"));
  EXPECT_EQ(diagnostics.errorCount(), 2) << diagnostics.formatAll();
}

TEST(ForceElementDecks, DeactivateForceTypesNameAnElementOfTheModel) {
  const std::string simulate = "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>";
  const std::string spring = "<Force_SpringDamper id=\"7\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" "
                             "j_marker_id=\"10\" stiffness=\"2\" length=\"1\"/>";
  for (const char* type : {"FORCE", "SPDP", "SPRINGDAMPER"}) {
    const Diagnostics diagnostics = readAndBuildDeck(
        forceDeck(spring, "<Deactivate element_type=\"" + std::string(type) + "\" element_id=\"7\"/>\n" + simulate));
    EXPECT_EQ(diagnostics.errorCount(), 0) << type << "\n" << diagnostics.formatAll();
  }
  // Line 8 is the first command (the one element is on line 7, then </Model> and <Command>).
  EXPECT_TRUE(
      hasError(readAndBuildDeck(forceDeck(spring, "<Deactivate element_type=\"BUSH\" element_id=\"7\"/>\n" + simulate)),
               kForceLine + 3, "element_id=7: the model has no Force_Bushing with this id"));
  EXPECT_TRUE(hasError(
      readAndBuildDeck(forceDeck(spring, "<Activate element_type=\"FORCE\" element_id=\"8\"/>\n" + simulate)),
      kForceLine + 3,
      "element_id=8: the model has no Force_Scalar_TwoBody, Force_Scalar_OneBody, Force_Vector_TwoBody, "
      "Force_Vector_OneBody, Force_SpringDamper, Force_Bushing, Force_Beam, Force_Field with this id "
      "(element_type=\"FORCE\")"));
}

TEST(ForceElementDecks, TranslationalFreeLengthIsNotNegative) {
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Force_SpringDamper id=\"7\" type=\"TRANSLATIONAL\" "
                                                  "i_marker_id=\"20\" j_marker_id=\"10\" length=\"-1\"/>")),
                       kForceLine,
                       "length is the spring's free length and must be >= 0 for type=\"TRANSLATIONAL\" (got -1)"));
  EXPECT_TRUE(hasError(readAndBuildDeck(forceDeck("<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"10\" "
                                                  "ktx=\"-1\"/>")),
                       kForceLine, "attribute 'ktx' must be >= 0 (got -1)"));
}

}  // namespace
}  // namespace lodestone::testing

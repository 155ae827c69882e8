// Control_Diff in decks: the forms that read, and each refusal on the element's line — a missing expr, a DIFSUB, an
// id that DIF or DIF1 names without a Control_Diff, with its column.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

constexpr int kDiffLine = 6;  // after groundAndBody()'s three lines

std::string diffDeck(const std::string& elements) { return deck(groundAndBody() + "\n" + elements); }

TEST(ControlDiffDecks, ExplicitAndImplicitFormsRead) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck(
      "<Control_Diff id=\"5\" label=\"lag\" full_label=\"Model-lag\" is_implicit=\"FALSE\" ic=\"1\" "
      "is_static_hold=\"TRUE\" type=\"EXPRESSION\" expr=\"-DIF(5) + DX(20)\"/>\n"
      "<Control_Diff id=\"6\" is_implicit=\"TRUE\" ic=\"0.\" ic_dot=\"0.\" expr=\"VARVAL(3) - DIF(6)\"/>\n"
      "<Reference_Variable id=\"3\" expr=\"DIF1(5)\"/>\n"
      "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"DIF(6) + DIF1(6)\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(ControlDiffDecks, MissingExpressionIsAnError) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck("<Control_Diff id=\"5\" ic=\"1\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kDiffLine, "Control_Diff id=5: type=\"EXPRESSION\" needs expr, the expression "
                                                "that gives the state's time derivative"));
}

TEST(ControlDiffDecks, DifsubNamesItsMissingLibrary) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck(
      "<Control_Diff id=\"5\" type=\"USERSUB\" usrsub_dll_name=\"libdiff.so\" usrsub_fnc_name=\"DIFSUB\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kDiffLine, "Control_Diff id=5: usrsub_dll_name=\"libdiff.so\": library "
                                                "\"libdiff.so\" not found (tried "));
  const Diagnostics neither = readAndBuildDeck(diffDeck("<Control_Diff id=\"5\" type=\"USERSUB\"/>"));
  EXPECT_TRUE(hasError(neither, kDiffLine, "usrsub_dll_name is needed: the shared library that holds DIFSUB"));
}

TEST(ControlDiffDecks, UnknownIdsAreNamedWithTheirColumn) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck(
      "<Control_Diff id=\"5\" expr=\"-DIF(5) + DIF1(77)\"/>\n"
      "<Reference_Variable id=\"3\" expr=\"2*DIF(78)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kDiffLine, "expr=\"-DIF(5) + DIF1(77)\", column 16: names Control_Diff id=77, "
                                                "which the deck does not have"));
  EXPECT_TRUE(hasError(diagnostics, kDiffLine + 1, "expr=\"2*DIF(78)\", column 7: names Control_Diff id=78"));
}

TEST(ControlDiffDecks, AccelerationsReadAndContactsAreRefusedInTheEquation) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck("<Control_Diff id=\"5\" expr=\"ACCX(20)\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  // Lines 6-9: a ground marker, a box on it, a sphere on body 2, the contact between them; line 10 the equation.
  const Diagnostics contact = readAndBuildDeck(diffDeck(
      "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" length_y=\"2\" "
      "length_z=\"1\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"1e7\" "
      "exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"/>\n"
      "<Control_Diff id=\"5\" expr=\"-DIF(5) + CONTACT(300,0,4,0)\"/>"));
  EXPECT_TRUE(hasError(contact, kDiffLine + 4, "expr=\"-DIF(5) + CONTACT(300,0,4,0)\" reads a Force_Contact's loads "
                                                "(CONTACT), itself or through VARVAL"))
      << contact.formatAll();
}

// Its row has no joint reactions or force elements' loads to read: without the refusal JOINT gave NaN there, and the
// run failed at its start with only IDAS's residual error.
TEST(ControlDiffDecks, JointAndForceLoadsAreRefusedWithTheirColumn) {
  const Diagnostics diagnostics = readAndBuildDeck(diffDeck(
      "<Reference_Marker id=\"21\" body_id=\"1\"/>\n"
      "<Constraint_Joint id=\"3\" type=\"SPHERICAL\" i_marker_id=\"20\" j_marker_id=\"21\"/>\n"
      "<Control_Diff id=\"5\" expr=\"-DIF(5) + JOINT(3,0,4,0)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kDiffLine + 2, "expr=\"-DIF(5) + JOINT(3,0,4,0)\", column 11: JOINT reads the "
                                                    "reaction of Constraint_Joint id=3"))
      << diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

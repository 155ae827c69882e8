// Control_StateEqn, Control_SISO and Reference_Matrix in decks: the forms that read, and each refusal on the
// element's line — matrices of the wrong size, arrays of the wrong type or shared by two systems, a GSE's attributes,
// an improper transfer function, an ARYVAL of an X array no system owns, an input of a feed-through system that reads
// accelerations, and an algebraic loop through a feed-through output.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

constexpr int kEqnLine = 6;  // after groundAndBody()'s three lines

std::string controlDeck(const std::string& elements) { return deck(groundAndBody() + "\n" + elements); }

// Lines 6-10: the arrays and the input variable every deck below starts with.
const std::string kArrays =
    "<Reference_Variable id=\"5\" expr=\"DX(20)\"/>\n"
    "<Reference_Array id=\"21\" type=\"U\" num_element=\"1\"> 5 </Reference_Array>\n"
    "<Reference_Array id=\"22\" type=\"X\" num_element=\"2\"/>\n"
    "<Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
    "<Reference_Array id=\"24\" type=\"IC\" num_element=\"2\"> 1 0 </Reference_Array>\n";
constexpr int kAfterArrays = kEqnLine + 5;

TEST(ControlStateEqnDecks, LinearFormAndSisoRead) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\" isroworder=\"TRUE\"> 0 1, -4 -0.4 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"32\" nrow=\"2\" ncol=\"1\" issparse=\"TRUE\" nval=\"1\"> 2 1 1 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"2\"> 1 0 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" label=\"plant\" type=\"LINEAR\" x_array_id=\"22\" u_array_id=\"21\" "
      "y_array_id=\"23\" ic_array_id=\"24\" a_matrix_id=\"31\" b_matrix_id=\"32\" c_matrix_id=\"33\" num_state=\"2\" "
      "num_output=\"1\" is_static_hold=\"FALSE\"/>\n"
      "<Reference_Array id=\"42\" type=\"X\" num_element=\"1\"/>\n"
      "<Reference_Array id=\"43\" type=\"Y\" num_element=\"1\"/>\n"
      "<Control_SISO id=\"2\" x_array_id=\"42\" y_array_id=\"43\" u_array_id=\"21\" num_numerator_coef=\"2\" "
      "numerator_coef=\"10 1\" num_denominator_coef=\"2\" denominator_coef=\"0 1\"/>\n"
      "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(22, 2)\" expr2=\"ARYVAL(23, 1)\" "
      "expr3=\"ARYVAL(43, 1)\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(ControlStateEqnDecks, MatrixSizesAreCheckedAgainstTheSystem) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"3\"> 1 2 3 4 5 6 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\"/>\n"
      "<Reference_Matrix id=\"32\" nrow=\"2\" ncol=\"2\"> 1 2 3 4 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"1\"> 1 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"2\" type=\"LINEAR\" x_array_id=\"22\" u_array_id=\"21\" a_matrix_id=\"32\" "
      "b_matrix_id=\"33\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 1, "Control_StateEqn id=1: a_matrix_id=\"31\" (Reference_Matrix "
                                                      "id=31, deck.xml:11:1) is 2 x 3; it must be 2 x 2"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 4, "b_matrix_id=\"33\" (Reference_Matrix id=33, deck.xml:14:1) is "
                                                      "1 x 1; it must be 2 x 1 (n states by the U array's m inputs)"));
}

TEST(ControlStateEqnDecks, MatrixTextMustFitItsSize) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\"> 1 2 3 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"32\" nrow=\"2\" ncol=\"2\" issparse=\"TRUE\" nval=\"1\"> 3 1 5 </Reference_Matrix>"));
  EXPECT_TRUE(hasError(diagnostics, kEqnLine, "nrow=\"2\" and ncol=\"2\" need 4 values in the text; it holds 3"));
  EXPECT_TRUE(hasError(diagnostics, kEqnLine + 1, "triple 1 of the text names entry (3, 1), which is not in a 2 x 2 "
                                                    "matrix"));
}

TEST(ControlStateEqnDecks, ArraysOfTheWrongTypeOrSharedAreRefused) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\"> 0 -1 1 0 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" type=\"LINEAR\" x_array_id=\"23\" a_matrix_id=\"31\"/>\n"
      "<Control_StateEqn id=\"2\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\"/>\n"
      "<Control_StateEqn id=\"3\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 1, "x_array_id=\"23\" names Reference_Array id=23 (deck.xml:9:1) "
                                                      "of type Y; it must be of type X"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 3, "x_array_id=\"22\": Reference_Array id=22 holds the states of "
                                                      "Control_StateEqn id=2 (deck.xml:13:1) already"));
}

TEST(ControlStateEqnDecks, ASystemRefusedOwnsNoArray) {
  // System 1 is refused for its B; its X array is then free for system 2, whose check must not read system 1 as the
  // array's owner (an owner is an index into the systems added).
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\"> 0 -1 1 0 </Reference_Matrix>\n"
      "<Reference_Matrix id=\"33\" nrow=\"1\" ncol=\"1\"> 1 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" type=\"LINEAR\" x_array_id=\"22\" u_array_id=\"21\" a_matrix_id=\"31\" "
      "b_matrix_id=\"33\"/>\n"
      "<Control_StateEqn id=\"2\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 2, "b_matrix_id=\"33\" (Reference_Matrix id=33, deck.xml:12:1) is "
                                                      "1 x 1; it must be 2 x 1"));
  EXPECT_EQ(diagnostics.errorCount(), 1) << diagnostics.formatAll();
}

TEST(ControlStateEqnDecks, GseAttributesAreChecked) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"2\" ncol=\"2\"> 0 1 -4 -1 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" type=\"USERSUB\" x_array_id=\"22\" usrsub_dll_name=\"mbdtire\"/>\n"
      "<Control_StateEqn id=\"305001\" type=\"USERSUB\" u_solver_array_id=\"21\" ic_solver_array_id=\"0\" "
      "num_state=\"2\" num_output=\"0\" a_matrix_id=\"31\" usrsub_param_string=\"USER(908)\" "
      "usrsub_dll_name=\"mbdtire\" usrsub_fnc_name=\"GSESUB\" usrsub_der1_name=\"GSEXX\" usrsub_der2_name=\"GSEXU\"/>\n"
      "<Control_StateEqn id=\"2\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\" usrsub_der1_name=\"GSEXX\" "
      "script_name=\"gse.py\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 1, "Control_StateEqn id=1: type=\"USERSUB\" needs num_state"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 2, "Control_StateEqn id=305001: num_state=\"2\" needs x_array_id, "
                                                      "a Reference_Array of type X that holds the states"));
  EXPECT_TRUE(hasWarning(diagnostics, kAfterArrays + 2, "usrsub_der1_name=\"GSEXX\", usrsub_der2_name=\"GSEXU\": the "
                                                        "partial derivatives (GSEXX, GSEXU, GSEYX, GSEYU) are not "
                                                        "called; Lodestone differences GSESUB"));
  EXPECT_TRUE(hasWarning(diagnostics, kAfterArrays + 2, "a_matrix_id is ignored: type=\"USERSUB\" takes the states' "
                                                        "rates and the outputs from GSESUB"));
  EXPECT_TRUE(hasWarning(diagnostics, kAfterArrays + 3, "usrsub_der1_name is ignored: type=\"LINEAR\" takes its "
                                                        "matrices"));
  EXPECT_TRUE(hasWarning(diagnostics, kAfterArrays + 3, "script_name is ignored: type=\"LINEAR\" takes its matrices, "
                                                        "not a GSESUB"));
  // The vendor library, not found, is named once for both elements that need it (an error where a run needs it).
  int libraryReports = 0;
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.message.find("\"mbdtire\"") != std::string::npos) ++libraryReports;
  }
  EXPECT_EQ(libraryReports, 1) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.errorCount(), 3) << diagnostics.formatAll();
}

TEST(ControlStateEqnDecks, AStateArrayOfAnotherSizeIsSizedByItsSystem) {
  // MotionView writes num_element="1" for the X and Y arrays of a GSE of five states, and MotionSolve runs the deck.
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Reference_Matrix id=\"31\" nrow=\"3\" ncol=\"3\"> 0 1 0 0 0 1 -1 -2 -3 </Reference_Matrix>\n"
      "<Control_StateEqn id=\"1\" type=\"LINEAR\" x_array_id=\"22\" a_matrix_id=\"31\"/>\n"
      "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(22, 3)\"/>"));
  EXPECT_TRUE(hasWarning(diagnostics, kAfterArrays + 1, "x_array_id=\"22\": Reference_Array id=22 (deck.xml:8:1) has "
                                                        "num_element=\"2\", and the system has 3 states, which it "
                                                        "holds"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
}

TEST(ControlStateEqnDecks, ImproperTransferFunctionIsRefused) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays +
      "<Control_SISO id=\"2\" x_array_id=\"22\" y_array_id=\"23\" u_array_id=\"21\" num_numerator_coef=\"3\" "
      "numerator_coef=\"1 0 1\" num_denominator_coef=\"2\" denominator_coef=\"1 1\"/>\n"
      "<Control_SISO id=\"3\" x_array_id=\"22\" y_array_id=\"23\" u_array_id=\"21\" num_numerator_coef=\"2\" "
      "numerator_coef=\"1\" denominator_coef=\"1 1\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays, "Control_SISO id=2: the numerator's order (2) is above the "
                                                  "denominator's (1): the transfer function must be proper"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays + 1, "num_numerator_coef=\"2\" but numerator_coef holds 1 "
                                                      "coefficients"));
}

TEST(ControlStateEqnDecks, ArrayValueOfAnUnownedStateArrayIsRefused) {
  const Diagnostics diagnostics = readAndBuildDeck(controlDeck(
      kArrays + "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"ARYVAL(22, 1)\"/>"));
  EXPECT_TRUE(hasError(diagnostics, kAfterArrays, "expr1=\"ARYVAL(22, 1)\", column 1: ARYVAL reads Reference_Array "
                                                  "id=22 (deck.xml:8:1) of type X, whose values are the states of a "
                                                  "Control_StateEqn or Control_SISO, and no such element of the deck "
                                                  "names it"));
}

// Lines 6-10: variable 5 = `input`, the U array of it, one-state X and Y arrays, and on line 10 Control_SISO id=2,
// `numerator` over s + 1.
std::string firstOrderSisoDeck(const std::string& input, const std::string& numerator) {
  return controlDeck("<Reference_Variable id=\"5\" expr=\"" + input + "\"/>\n"
                     "<Reference_Array id=\"21\" type=\"U\" num_element=\"1\"> 5 </Reference_Array>\n"
                     "<Reference_Array id=\"22\" type=\"X\" num_element=\"1\"/>\n"
                     "<Reference_Array id=\"23\" type=\"Y\" num_element=\"1\"/>\n"
                     "<Control_SISO id=\"2\" x_array_id=\"22\" y_array_id=\"23\" u_array_id=\"21\" numerator_coef=\"" +
                     numerator + "\" denominator_coef=\"1 1\"/>");
}

TEST(ControlStateEqnDecks, InputsThatReadAccelerationsAreRefusedWithFeedThroughOnly) {
  // 1/(s + 1) has no feed-through: its states may integrate an acceleration.
  const Diagnostics strictlyProper = readAndBuildDeck(firstOrderSisoDeck("ACCX(20)", "1"));
  EXPECT_EQ(strictlyProper.errorCount(), 0) << strictlyProper.formatAll();
  // (s + 2)/(s + 1) outputs its input at the same instant: a force reading it would read an acceleration.
  const Diagnostics diagnostics = readAndBuildDeck(firstOrderSisoDeck("ACCX(20)", "2 1"));
  EXPECT_TRUE(hasError(diagnostics, kEqnLine + 4, "Control_SISO id=2: input 1 (u_array_id's Reference_Variable id=5)"
                                                    " (deck.xml:6:1) reads accelerations (ACCX…, WDTX…), itself or "
                                                    "through VARVAL, and the system's outputs read its inputs at the "
                                                    "same instant (D is not 0)"));
}

TEST(ControlStateEqnDecks, FeedThroughLoopIsRefused) {
  // (s + 2)/(s + 1) has D = 1: its output is its input plus a state, and its input reads its output.
  const Diagnostics diagnostics = readAndBuildDeck(firstOrderSisoDeck("1 - ARYVAL(23, 1)", "2 1"));
  EXPECT_TRUE(hasError(diagnostics, kEqnLine + 4, "Control_SISO id=2: its outputs read themselves at the same "
                                                    "instant through its inputs (D is not 0), an algebraic loop: "
                                                    "Control_SISO id=2 -> Control_SISO id=2"));
  // Strictly proper (D = 0), the same feedback is a state equation, and reads.
  const Diagnostics strictlyProper = readAndBuildDeck(firstOrderSisoDeck("1 - ARYVAL(23, 1)", "2"));
  EXPECT_EQ(strictlyProper.errorCount(), 0) << strictlyProper.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

// Reference_Spline, Reference_Array and Reference_String in decks: the forms that read, every check of their numbers
// on the element's line (counts, order, files), and expressions that name data the deck lacks or cannot answer,
// with the column inside the attribute.
#include <filesystem>
#include <fstream>
#include <unistd.h>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

constexpr int kDataLine = 6;  // after groundAndBody()'s three lines

std::string dataDeck(const std::string& elements) { return deck(groundAndBody() + "\n" + elements); }

const std::string kCurve =
    "<Reference_Spline id=\"50\" num_xy_pair=\"4\" linear_extrap=\"FALSE\">0 0  1 0  2 1  3 1</Reference_Spline>\n";
// Two curves at z = 0 and 10: the z row, then per x: x, y at z = 0, y at z = 10.
const std::string kFamily =
    "<Reference_Spline id=\"51\" num_x=\"3\" num_z=\"2\">0 10   0 0 1   1 1 3   2 4 9</Reference_Spline>\n";

std::string request(const std::string& expression) {
  return "<Post_Request id=\"9\" type=\"EXPRESSION\" expr1=\"" + expression + "\"/>";
}

TEST(ReferenceDataDecks, EveryFormReadsAndBuilds) {
  const Diagnostics diagnostics = readAndBuildDeck(dataDeck(
      kCurve + kFamily +
      "<Reference_Spline id=\"52\" label=\"Gear Ratios\" full_label=\"Model-Gear Ratios\" num_x=\"2\" "
      "linear_extrap=\"TRUE\">0.0 0.0\n1.0E+00 1.0D+00</Reference_Spline>\n"
      "<Reference_Array id=\"60\" type=\"IC\" num_element=\"3\"> 0 1.5\n -2 </Reference_Array>\n"
      "<Reference_Array id=\"61\" num_element=\"2\">4 5</Reference_Array>\n"
      "<Reference_Array id=\"62\" type=\"X\" num_element=\"1\"/>\n"
      "<Reference_Array id=\"63\" type=\"U\" num_element=\"1\">3</Reference_Array>\n"
      "<Reference_Variable id=\"3\" expr=\"AKISPL(TIME, 0, 50, 1) + CUBSPL(TIME, 5, 51) + INTERP(TIME, 1, 52)\"/>\n"
      "<Reference_String id=\"70\" label=\"role\" string=\"front\"/>\n" +
      request("ARYVAL(60, 3) * ARYVAL(61, 1) + VARVAL(3)")));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

TEST(ReferenceDataDecks, IdsAreUniquePerElement) {
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck(kCurve + kCurve)), kDataLine + 1,
                       "duplicate id: Reference_Spline id=50 is already defined at deck.xml:6"));
}

TEST(ReferenceDataDecks, SplineNumbersAreChecked) {
  const auto spline = [](const std::string& attributes, const std::string& text) {
    return readAndBuildDeck(dataDeck("<Reference_Spline id=\"50\" " + attributes + ">" + text + "</Reference_Spline>"));
  };
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"4\"", "0 0 1 0 2 1 3"), kDataLine,
                       "deck.xml:6:1: Reference_Spline id=50: num_xy_pair=\"4\" needs 8 numbers (x y per point); "
                       "the text holds 7"));
  EXPECT_TRUE(hasError(spline("num_x=\"3\" num_z=\"2\"", "0 10 0 0 1 1 1 3 2 4"), kDataLine,
                       "num_x=\"3\" and num_z=\"2\" needs 11 numbers (the 2 values of z, then per x: x and y at each "
                       "z); the text holds 10"));
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"4\"", "0 0 1 0 1 1 3 1"), kDataLine,
                       "x must be strictly increasing: value 3 is 1 after 1"));
  EXPECT_TRUE(hasError(spline("num_x=\"2\" num_z=\"2\"", "5 4  0 0 1  1 1 3"), kDataLine,
                       "z must be strictly increasing: value 2 is 4 after 5"));
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"2\"", "0 0 1 abc"), kDataLine,
                       "number 4 of the text, 'abc', is not a finite number"));
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"2\" num_x=\"2\"", "0 0 1 1"), kDataLine,
                       "give num_xy_pair (one curve) or num_x (with num_z, a family of curves), not both"));
  EXPECT_TRUE(hasError(spline("", "0 0 1 1"), kDataLine, "needs num_xy_pair (the points of one curve) or num_x"));
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"1\"", "0 0"), kDataLine, "attribute 'num_xy_pair' must be >= 2 (got 1)"));
  EXPECT_TRUE(hasError(spline("num_xy_pair=\"2\" usrsub_dll_name=\"reader\" block_name=\"b\"", ""), kDataLine,
                       "SPLINE_READ user subroutines are not available yet"));
}

TEST(ReferenceDataDecks, SplineFilesAreReadRelativeToTheDeckOrReported) {
  const std::filesystem::path folder = std::filesystem::temp_directory_path() /
                                       ("lodestone_reference_data_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(folder);
  const std::filesystem::path file = folder / "curve.txt";
  std::ofstream(file) << "# time  angle\n0 0\n1 0   # flat\n2,1\n3 1\n";
  const auto splineWithFile = [](const std::string& name, const std::string& text) {
    return dataDeck("<Reference_Spline id=\"50\" num_xy_pair=\"4\" file_name=\"" + name + "\">" + text +
                    "</Reference_Spline>");
  };
  const auto withFile = [&](const std::string& name, const std::string& text) {
    return readAndBuildDeck(splineWithFile(name, text));
  };
  const Diagnostics read = withFile(file.string(), "");
  EXPECT_EQ(read.errorCount(), 0) << read.formatAll();
  // A relative name is found beside the deck, wherever the process runs.
  const std::filesystem::path deckPath = folder / "deck.xml";
  std::ofstream(deckPath) << splineWithFile("curve.txt", "");
  Diagnostics relative;
  const std::optional<ModelSpec> spec = readDeck(deckPath.string(), relative);
  ASSERT_TRUE(spec) << relative.formatAll();
  EXPECT_TRUE(buildModel(*spec, relative).has_value()) << relative.formatAll();
  EXPECT_EQ(relative.errorCount(), 0) << relative.formatAll();
  EXPECT_TRUE(hasError(withFile("no_such_spline.txt", ""), kDataLine,
                       "deck.xml:6:1: Reference_Spline id=50: file_name=\"no_such_spline.txt\": cannot open "
                       "'no_such_spline.txt': No such file or directory"));
  EXPECT_TRUE(hasError(withFile(folder.string(), ""), kDataLine, "is a folder, not a file of numbers"));
  EXPECT_TRUE(hasError(withFile(file.string(), "0 0 1 1"), kDataLine,
                       "gives the numbers, so the element's text must be empty"));
  std::ofstream(file) << "0 0 1 0 2 1\n";
  EXPECT_TRUE(hasError(withFile(file.string(), ""), kDataLine,
                       "num_xy_pair=\"4\" needs 8 numbers (x y per point); file_name=\"" + file.string() +
                           "\" holds 6"));
  std::filesystem::remove_all(folder);
}

TEST(ReferenceDataDecks, ArrayNumbersAreChecked) {
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_Array id=\"60\" type=\"IC\" num_element=\"3\">1 2"
                                                 "</Reference_Array>")),
                       kDataLine, "Reference_Array id=60: num_element=\"3\" but the text holds 2 values"));
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_Array id=\"60\" type=\"U\">3 4.5</Reference_Array>")),
                       kDataLine, "item 2 of the text, '4.5', is not a Reference_Variable id"));
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_Array id=\"60\" type=\"Y\" num_element=\"1\">0"
                                                 "</Reference_Array>")),
                       kDataLine, "type=\"Y\" holds the outputs of a Control_StateEqn, so its text must be empty"));
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_Array id=\"60\" type=\"Z\">1</Reference_Array>")),
                       kDataLine, "Reference_Array id=60: attribute 'type' must be one of X, U, Y, IC (got 'Z')"));
}

TEST(ReferenceDataDecks, StringsNeedTheirText) {
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_String id=\"70\"/>")), kDataLine,
                       "Reference_String id=70: needs string, the text it holds"));
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck("<Reference_String id=\"70\" usrsub_dll_name=\"msautoutils\"/>")),
                       kDataLine, "Reference_String id=70: usrsub_dll_name=\"msautoutils\": library \"msautoutils\" "
                                   "not found (tried "));
}

// The ids an expression names are checked when the model is built, each with its column.
TEST(ReferenceDataDecks, ExpressionsNamingMissingOrUnanswerableDataAreErrors) {
  const int line = kDataLine + 2;
  const auto withRequest = [](const std::string& expression) {
    return readAndBuildDeck(dataDeck(kCurve + kFamily + "<Reference_Array id=\"60\" num_element=\"2\">1 2"
                                     "</Reference_Array><Reference_Array id=\"62\" type=\"X\" num_element=\"1\"/>"
                                     "<Reference_Array id=\"63\" type=\"U\" num_element=\"1\">3</Reference_Array>"
                                     "<Reference_Variable id=\"3\" expr=\"TIME\"/>\n" +
                                     request(expression)));
  };
  EXPECT_TRUE(hasError(withRequest("1 + AKISPL(TIME, 0, 77)"), line + 1,
                       "Post_Request id=9: expr1=\"1 + AKISPL(TIME, 0, 77)\", column 5: AKISPL names "
                       "Reference_Spline id=77, which the deck does not have"));
  EXPECT_TRUE(hasError(withRequest("CUBSPL(TIME, 5, 51, 1)"), line + 1,
                       "column 1: CUBSPL asks for derivative iord=1 of Reference_Spline id=51 (deck.xml:7:1), a "
                       "family of 2 curves"));
  EXPECT_TRUE(hasError(withRequest("INTERP(TIME, 3, 51)"), line + 1,
                       "INTERP interpolates one curve, and Reference_Spline id=51 (deck.xml:7:1) is a family of 2 "
                       "curves"));
  EXPECT_TRUE(hasError(withRequest("ARYVAL(60, 3)"), line + 1,
                       "column 1: ARYVAL reads element 3 of Reference_Array id=60 (deck.xml:8:1), which has 2 "
                       "elements"));
  EXPECT_TRUE(hasError(withRequest("ARYVAL(61, 1)"), line + 1,
                       "ARYVAL names Reference_Array id=61, which the deck does not have"));
  EXPECT_TRUE(hasError(withRequest("ARYVAL(62, 1)"), line + 1,
                       "of type X, whose values are the states of a Control_StateEqn or Control_SISO, and no such "
                       "element of the deck names it"));
  EXPECT_TRUE(hasError(withRequest("ARYVAL(63, 1)"), line + 1,
                       "whose element 1 is Reference_Variable id=3; Lodestone reads a U array's variables as a "
                       "control system's inputs, not through ARYVAL: read the variable itself, VARVAL(3)"));
  // A spline of a family read at a given z, without iord, is fine.
  const Diagnostics fine = withRequest("AKISPL(TIME, 5, 51) + AKISPL(TIME, 0, 50, 2) + ARYVAL(60, 2)");
  EXPECT_EQ(fine.errorCount(), 0) << fine.formatAll();
}

// A motion of measured points: a spline of TIME is allowed, and its id is checked like any other.
TEST(ReferenceDataDecks, MotionsMayReadSplinesOfTime) {
  const std::string crank =
      "<Reference_Marker id=\"10\" body_id=\"1\"/><Reference_Marker id=\"21\" body_id=\"2\"/>"
      "<Constraint_Joint id=\"1\" type=\"REVOLUTE\" i_marker_id=\"21\" j_marker_id=\"10\"/>\n";
  const Diagnostics good = readAndBuildDeck(dataDeck(
      kCurve + crank + "<Motion_Joint id=\"5\" joint_id=\"1\" motion_type=\"R\" expr=\"AKISPL(TIME, 0, 50)\"/>"));
  EXPECT_EQ(good.errorCount(), 0) << good.formatAll();
  EXPECT_TRUE(hasError(readAndBuildDeck(dataDeck(kCurve + crank + "<Motion_Joint id=\"5\" joint_id=\"1\" "
                                                 "motion_type=\"R\" expr=\"AKISPL(TIME, 0, 49)\"/>")),
                       kDataLine + 2, "Motion_Joint id=5: expr=\"AKISPL(TIME, 0, 49)\", column 1: AKISPL names "
                                       "Reference_Spline id=49, which the deck does not have"));
}

}  // namespace
}  // namespace lodestone::testing

// 2D curve contact in decks: Reference_ParamCurve's points and refusals, Post_Graphic type ParamCurve (and Curve), and
// MotionSolve's rules of Force_Contact between curves (only curves, one plane, not two straight lines), each error on
// its line; contact_stability_2d beside solids is said to do nothing.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// The points of a circle of `radius` about (cx, cy), `count` of them, x y z per line.
std::string circleText(double radius, int count, double cx = 0, double cy = 0, double z = 0) {
  std::string text;
  for (int k = 0; k < count; ++k) {
    const double angle = 2 * std::numbers::pi * k / count;
    text += formatReal(cx + radius * std::cos(angle)) + " " + formatReal(cy + radius * std::sin(angle)) + " " +
            formatReal(z) + "\n";
  }
  return text;
}

// Lines 3–5: ground and body 2 (marker 20); 6: ground marker 11; 7: the bore's curve (its text spans lines); then the
// pin's curve, the two graphics and the contact, each on one line after the curves' text.
struct CurveDeck {
  std::string boreCurve = "<Reference_ParamCurve id=\"1\" is_u_closed=\"TRUE\">";
  std::string boreText = circleText(1.0, 16);
  std::string pinCurve = "<Reference_ParamCurve id=\"2\" is_u_closed=\"TRUE\">";
  std::string pinText = circleText(0.9, 16);
  std::string boreGraphic = "<Post_Graphic id=\"100\" type=\"ParamCurve\" ref_marker_id=\"11\" curve_id=\"1\" "
                            "is_material_inside=\"FALSE\" nseg=\"64\"/>";
  std::string pinGraphic = "<Post_Graphic id=\"200\" type=\"Curve\" ref_marker_id=\"20\" curve_id=\"2\"/>";
  std::string contact = "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
                        "stiffness=\"1e5\" exponent=\"1\" damping=\"0\" dmax=\"1e-4\"/>";
  std::string more;  // further model lines, after the contact

  std::string text() const {
    return deck(groundAndBody() + "\n<Reference_Marker id=\"11\" body_id=\"1\"/>\n" + boreCurve + "\n" + boreText +
                "</Reference_ParamCurve>\n" + pinCurve + "\n" + pinText + "</Reference_ParamCurve>\n" + boreGraphic +
                "\n" + pinGraphic + "\n" + contact + more);
  }
  // Lines of the elements after the curves.
  int boreCurveLine() const { return 7; }
  int pinCurveLine() const { return boreCurveLine() + 2 + lines(boreText); }
  int boreGraphicLine() const { return pinCurveLine() + 2 + lines(pinText); }
  int contactLine() const { return boreGraphicLine() + 2; }
  static int lines(const std::string& text) { return static_cast<int>(std::count(text.begin(), text.end(), '\n')); }
};

TEST(CurveContactDeck, APinInItsBoreBuilds) {
  const CurveDeck deckParts;
  ReadResult result = readText(deckParts.text());
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  ASSERT_EQ(result.spec->paramCurves.size(), 2u);
  EXPECT_EQ(result.spec->paramCurves[0].points.size(), 16u);
  EXPECT_NEAR(result.spec->paramCurves[1].points[4].y(), 0.9, 1e-12);  // a quarter round
  const std::optional<Model> model = buildModel(*result.spec, result.diagnostics);
  ASSERT_TRUE(model) << result.diagnostics.formatAll();
  EXPECT_FALSE(result.diagnostics.hasErrors()) << result.diagnostics.formatAll();
}

TEST(CurveContactDeck, ParamCurveTextAndAttributesAreChecked) {
  const auto errorOf = [](const std::string& opening, const std::string& text, const std::string& message) {
    CurveDeck parts;
    parts.boreCurve = opening;
    parts.boreText = text;
    return hasError(readText(parts.text()).diagnostics, parts.boreCurveLine(), message);
  };
  const std::string closed = "<Reference_ParamCurve id=\"1\" is_u_closed=\"TRUE\"";
  EXPECT_TRUE(errorOf(closed + ">", "0 0 0\n1 0\n", "the text holds 5 numbers, which is not three per point"));
  EXPECT_TRUE(errorOf(closed + ">", "0 0 0\n1 x 0\n1 1 0\n", "point 2 has coordinate 'x'"));
  EXPECT_TRUE(errorOf(closed + ">", "0 0 0\n0 0 0\n1 1 0\n", "point 2 repeats the point before it"));
  EXPECT_TRUE(errorOf(closed + ">", "0 0 0\n1 0 0\n0 0 0\n", "a closed curve needs at least 3 distinct points"));
  EXPECT_TRUE(errorOf("<Reference_ParamCurve id=\"1\">", "0 0 0\n", "an open curve needs at least 2 distinct points"));
  EXPECT_TRUE(errorOf(closed + " is_curve_points=\"FALSE\">", circleText(1, 8), "is_curve_points=\"FALSE\""));
  EXPECT_TRUE(errorOf(closed + " usrsub_fnc_name=\"CURSUB\">", circleText(1, 8), "CURSUB"));
}

// matrix_id: the points are the matrix's rows (x y z), checked as the text's; the matrix may come after the curve.
TEST(CurveContactDeck, ACurvesPointsMayBeTheRowsOfAMatrix) {
  CurveDeck parts;
  const CurveDeck fromText = parts;
  parts.boreCurve = "<Reference_ParamCurve id=\"1\" is_u_closed=\"TRUE\" matrix_id=\"5\">";
  parts.boreText = "";
  parts.more = "\n<Reference_Matrix id=\"5\" nrow=\"16\" ncol=\"3\" isroworder=\"TRUE\">\n" +
               circleText(1.0, 16) + "</Reference_Matrix>";
  ReadResult matrix = readText(parts.text());
  ASSERT_TRUE(matrix.spec) << matrix.diagnostics.formatAll();
  ReadResult text = readText(fromText.text());
  ASSERT_TRUE(text.spec) << text.diagnostics.formatAll();
  EXPECT_EQ(matrix.spec->paramCurves[0].points, text.spec->paramCurves[0].points);
  EXPECT_EQ(matrix.diagnostics.warningCount(), 0) << matrix.diagnostics.formatAll();
  ASSERT_TRUE(buildModel(*matrix.spec, matrix.diagnostics)) << matrix.diagnostics.formatAll();

  // Its points checked as the text's are, and a matrix of another shape named.
  parts.more = "\n<Reference_Matrix id=\"5\" nrow=\"3\" ncol=\"3\"> 0 1 0 0 0 0 0 0 0 </Reference_Matrix>";
  EXPECT_TRUE(hasError(readText(parts.text()).diagnostics, parts.boreCurveLine(),
                       "a closed curve needs at least 3 distinct points; Reference_Matrix id=5 (deck.xml:"));
  parts.more = "\n<Reference_Matrix id=\"5\" nrow=\"2\" ncol=\"4\"> 0 1 0 0 0 0 1 0 </Reference_Matrix>";
  EXPECT_TRUE(hasError(readText(parts.text()).diagnostics, parts.boreCurveLine(),
                       "matrix_id=\"5\": Reference_Matrix id=5 (deck.xml:"));
  EXPECT_TRUE(hasError(readText(parts.text()).diagnostics, parts.boreCurveLine(),
                       ") is 2 x 4; a curve's matrix holds one point per row, x y z: it must have 3 columns"));
}

TEST(CurveContactDeck, ACurveGraphicNeedsItsCurve) {
  CurveDeck parts;
  parts.boreGraphic = "<Post_Graphic id=\"100\" type=\"ParamCurve\" ref_marker_id=\"11\"/>";
  EXPECT_TRUE(hasError(readText(parts.text()).diagnostics, parts.boreGraphicLine(), "curve_id"));
  parts.boreGraphic = "<Post_Graphic id=\"100\" type=\"ParamCurve\" ref_marker_id=\"11\" curve_id=\"7\"/>";
  EXPECT_TRUE(hasError(readText(parts.text()).diagnostics, parts.boreGraphicLine(), "Reference_ParamCurve"));
}

TEST(CurveContactDeck, ACurveOutOfItsMarkersPlaneIsRefusedOnItsGraphicsLine) {
  CurveDeck parts;
  parts.boreText = circleText(1.0, 15) + "1 0 0.01\n";
  EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.boreGraphicLine(),
                       "Reference_ParamCurve id=1 (deck.xml:7:1): point 16 has z=0.01; a contact curve lies in the xy "
                       "plane of its graphic's reference marker"));
}

TEST(CurveContactDeck, MotionSolvesRulesAreErrorsOnTheContactsLine) {
  {  // a solid among the curves
    CurveDeck parts;
    parts.contact = "<Force_Contact id=\"300\" i_graphics_id=\"200 201\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
                    "stiffness=\"1e5\" exponent=\"1\" damping=\"0\" dmax=\"1e-4\"/>";
    parts.pinGraphic += "\n<Post_Graphic id=\"201\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"/>";
    EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.contactLine() + 1,
                         "Post_Graphic id=201 is a sphere and Post_Graphic id=200 a curve: 2D curve contact needs "
                         "every graphic of i_graphics_id and j_graphics_id to be a curve"));
  }
  {  // the pin's plane lifted off the bore's
    CurveDeck parts;
    parts.more = "\n<Reference_Marker id=\"21\" body_id=\"2\" pos_z=\"0.001\"/>";
    parts.pinGraphic = "<Post_Graphic id=\"200\" type=\"Curve\" ref_marker_id=\"21\" curve_id=\"2\"/>";
    EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.contactLine(),
                         "Post_Graphic id=100's curve is not in the plane of Post_Graphic id=200's"));
  }
  {  // tilted
    CurveDeck parts;
    parts.more = "\n<Reference_Marker id=\"21\" body_id=\"2\" theta=\"0.1\"/>";
    parts.pinGraphic = "<Post_Graphic id=\"200\" type=\"Curve\" ref_marker_id=\"21\" curve_id=\"2\"/>";
    EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.contactLine(), "its z axis turned"));
  }
  {  // two straight lines
    CurveDeck parts;
    parts.boreCurve = "<Reference_ParamCurve id=\"1\">";
    parts.boreText = "-1 0 0\n0 0 0\n1 0 0\n";
    parts.pinCurve = "<Reference_ParamCurve id=\"2\">";
    parts.pinText = "-1 0.5 0\n1 0.5 0\n";
    EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.contactLine(),
                         "Post_Graphic id=200 and Post_Graphic id=100 are both straight lines"));
  }
}

TEST(CurveContactDeck, StabilityIsReadAndBesideSolidsSaidToDoNothing) {
  CurveDeck parts;
  parts.contact.insert(parts.contact.size() - 2, " contact_stability_2d=\"0.5\"");
  ReadResult result = readText(parts.text());
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_EQ(result.spec->contacts[0].contact_stability_2d, 0.5);
  parts.contact.insert(parts.contact.size() - 2, "");
  CurveDeck negative;
  negative.contact.insert(negative.contact.size() - 2, " contact_stability_2d=\"-1\"");
  EXPECT_TRUE(hasError(readText(negative.text()).diagnostics, negative.contactLine(), "contact_stability_2d"));

  const std::string solids =
      groundAndBody() +
      "\n<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>"
      "\n<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" length_y=\"2\" "
      "length_z=\"1\"/>"
      "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>"
      "\n<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"1e5\" "
      "exponent=\"1\" damping=\"0\" dmax=\"1e-4\" contact_stability_2d=\"1\"/>";
  EXPECT_TRUE(hasWarning(readAndBuildDeck(deck(solids)), 9, "contact_stability_2d applies to 2D curve contact"));
}

// VOLUME acts over the overlap's area, which two outlines' overlap does not have: refused on the element's line
// rather than pushing with nothing.
TEST(CurveContactDeck, AnAreaLawIsRefusedBetweenCurves) {
  CurveDeck parts;
  parts.contact = "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"VOLUME\" "
                  "i_elastic_modulus=\"1e9\" j_elastic_modulus=\"1e9\" i_layer_depth=\"0.01\" j_layer_depth=\"0.01\" "
                  "exponent=\"1\" damping=\"0\"/>";
  EXPECT_TRUE(hasError(readAndBuildDeck(parts.text()), parts.contactLine(),
                       "cnf_type=\"VOLUME\" acts over the contact's overlap area, and Post_Graphic id=200 (a curve) "
                       "has none"));
}

}  // namespace
}  // namespace lodestone::testing

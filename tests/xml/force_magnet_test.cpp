// Force_Magnet in decks: what a magnet needs, and the magnets this version cannot make, each refused on the magnet's
// line with the graphic named.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 10 on ground; line 7: a sphere on body 2; line 8: a box
// on ground; line 9: a cylinder on body 2; line 10: a frustum on body 2; line 11: an ellipsoid on body 2; line 12: a
// circle (a viewer's graphic) on body 2; line 13 on: `magnets`.
constexpr int kMagnetLine = 13;

Diagnostics readAndBuildMagnets(const std::string& magnets) {
  ReadResult result = readText(deck(
      groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
                        "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.01\"/>\n"
                        "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"10\" "
                        "length_x=\"0.1\" length_y=\"0.1\" length_z=\"0.1\"/>\n"
                        "<Post_Graphic id=\"201\" type=\"Cylinder\" center_marker_id=\"20\" radius=\"0.01\" "
                        "length=\"0.02\"/>\n"
                        "<Post_Graphic id=\"202\" type=\"Frustum\" center_marker_id=\"20\" top_radius=\"0.01\" "
                        "bottom_radius=\"0.02\" length=\"0.02\"/>\n"
                        "<Post_Graphic id=\"204\" type=\"Ellipsoid\" center_marker_id=\"20\" x_scale=\"0.01\" "
                        "y_scale=\"0.02\" z_scale=\"0.03\"/>\n"
                        "<Post_Graphic id=\"205\" type=\"Circle\" center_marker_id=\"20\"/>\n" +
      magnets));
  if (result.spec) (void)buildModel(*result.spec, result.diagnostics);
  return result.diagnostics;
}

TEST(ForceMagnetDecks, MagnetsOfEachShapeReadAndBuild) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\" moment_z=\"0.5\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"100\" magnetization_x=\"1e6\" magnetization_z=\"-3e5\" accuracy=\"1e-8\" "
      "strength_expression=\"STEP(TIME, 0, 0, 0.1, 1)\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"201\" magnetization_z=\"8e5\" dipoles_per_axis=\"3\"/>\n"
      "<Force_Magnet id=\"4\" graphic_id=\"202\" magnetization_x=\"8e5\"/>\n"
      "<Force_Magnet id=\"5\" graphic_id=\"202\" magnetization_z=\"8e5\" dipoles_per_axis=\"4\"/>");
  EXPECT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
}

TEST(ForceMagnetDecks, AMagnetNeedsItsMagnetisationOrItsMomentButNotBoth) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"100\" magnetization_x=\"1e6\" moment_x=\"2\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "a magnet needs its magnetization_x/y/z"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "not both"));
}

// A graphic a viewer draws (a circle) is no volume.
TEST(ForceMagnetDecks, MagnetsOfOtherShapesAreRefusedNamingTheGraphic) {
  const Diagnostics diagnostics = readAndBuildMagnets("<Force_Magnet id=\"1\" graphic_id=\"205\" moment_z=\"1\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "Post_Graphic id=205 (deck.xml:12"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine,
                       "is a Circle; a magnet is a Sphere, a Box, a Cylinder, a Frustum, an Ellipsoid or a TriaMesh"))
      << diagnostics.formatAll();
}

// An ellipsoid is exact (its closed-form field) or sampled, permanent or soft.
TEST(ForceMagnetDecks, AnEllipsoidIsExactOrSampled) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"204\" magnetization_x=\"1e6\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"204\" magnetization_x=\"1e6\" dipoles_per_axis=\"4\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"204\" susceptibility=\"100\"/>");
  EXPECT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
}

// A cylinder magnetised across its axis, or obliquely, is exact (its diametral closed form) or sampled.
TEST(ForceMagnetDecks, ACylinderMagnetisedAcrossItsAxisIsExactOrSampled) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"201\" magnetization_x=\"1e6\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"201\" magnetization_x=\"1e6\" dipoles_per_axis=\"4\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"201\" magnetization_y=\"-4e5\" magnetization_z=\"8e5\"/>");
  EXPECT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
}

TEST(ForceMagnetDecks, BadValuesAreRefusedWithTheirRange) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\" moment_z=\"1\" accuracy=\"0\" dipoles_per_axis=\"-1\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"200\" moment_z=\"1\" strength_expression=\"STEP(TIME, 0\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"999\" moment_z=\"1\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "accuracy"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "dipoles_per_axis"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "strength_expression"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 2, "999"));
}

// Soft magnets: a susceptibility instead of a magnetisation or a moment, on a Sphere, a Cylinder (sampled) and a
// Frustum, beside a permanent Box.
TEST(ForceMagnetDecks, SoftMagnetsOfEachShapeReadAndBuild) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\" susceptibility=\"600\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"100\" moment_z=\"1\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"201\" susceptibility=\"-0.2\" dipoles_per_axis=\"3\"/>\n"
      "<Force_Magnet id=\"4\" graphic_id=\"202\" susceptibility=\"100\"/>");
  EXPECT_FALSE(diagnostics.hasErrors()) << diagnostics.formatAll();
}

TEST(ForceMagnetDecks, ASusceptibilityIsAboveMinusOneAndNotZero) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\" susceptibility=\"-1\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"200\" susceptibility=\"0\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"200\" susceptibility=\"-0.999\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "susceptibility"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "susceptibility 0 is no magnet"));
  for (const Diagnostic& d : diagnostics.entries()) EXPECT_NE(d.where.line, kMagnetLine + 2) << d.format();
}

// A soft magnet's magnetisation is induced: it has no magnetisation, moment or strength of its own.
TEST(ForceMagnetDecks, ASoftMagnetHasNoMagnetisationMomentOrStrength) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Force_Magnet id=\"1\" graphic_id=\"200\" susceptibility=\"5\" magnetization_z=\"1e6\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"200\" susceptibility=\"5\" moment_x=\"1\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"200\" susceptibility=\"5\" strength_expression=\"TIME\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine, "a soft magnet (susceptibility) has its magnetisation induced"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "only one of them"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 2, "strength_expression is a permanent magnet's factor on M"));
}

// A closed TriaMesh may be soft when sampled by dipoles (they give its demagnetising factors too), not otherwise; a
// permanent one exact or sampled.
TEST(ForceMagnetDecks, ASoftMeshMustBeSampled) {
  const Diagnostics diagnostics = readAndBuildMagnets(
      "<Post_Graphic id=\"203\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"4\" num_triangle=\"4\">"
      "0 0 0  0.01 0 0  0 0.01 0  0 0 0.01  0 2 1  0 1 3  0 3 2  1 2 3</Post_Graphic>\n"
      "<Force_Magnet id=\"1\" graphic_id=\"203\" susceptibility=\"100\"/>\n"
      "<Force_Magnet id=\"2\" graphic_id=\"203\" susceptibility=\"100\" dipoles_per_axis=\"4\"/>\n"
      "<Force_Magnet id=\"3\" graphic_id=\"203\" moment_x=\"1\"/>\n"
      "<Force_Magnet id=\"4\" graphic_id=\"203\" moment_x=\"1\" dipoles_per_axis=\"4\"/>");
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "Post_Graphic id=203 (deck.xml:13"));
  EXPECT_TRUE(hasError(diagnostics, kMagnetLine + 1, "a soft mesh is sampled by dipoles"));
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.severity == Severity::Error) {
      EXPECT_TRUE(d.where.line == kMagnetLine + 1) << d.format();
    }
  }
}

}  // namespace
}  // namespace lodestone::testing

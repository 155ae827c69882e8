// Post_Graphic: every supported type reads, each type's own attributes are checked, TriaMesh text is parsed.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

std::string graphic(const std::string& attributes, const std::string& text = "") {
  const std::string open = "<Post_Graphic id=\"7\" " + attributes;
  return groundAndBody() + "\n" + (text.empty() ? open + "/>" : open + ">" + text + "</Post_Graphic>");
}

TEST(PostGraphic, EverySupportedTypeReads) {
  const std::vector<std::string> graphics = {
      "type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"",
      "type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"1\" length_y=\"2\" length_z=\"3\"",
      "type=\"BoxDefinedFromCorner\" corner_marker_id=\"20\" length_x=\"1\" length_y=\"2\" length_z=\"3\"",
      "type=\"Cylinder\" center_marker_id=\"20\" radius=\"0.1\" length=\"2\" ends_type=\"OPEN\"",
      "type=\"Frustum\" center_marker_id=\"20\" top_radius=\"0\" bottom_radius=\"0.3\" length=\"-2\"",
      "type=\"Ellipsoid\" center_marker_id=\"20\" x_scale=\"1\" y_scale=\"2\" z_scale=\"3\"",
  };
  for (const std::string& attributes : graphics) {
    const ReadResult result = readText(deck(graphic(attributes + " color=\"1:2:3\" refinement_level=\"3\"")));
    ASSERT_TRUE(result.spec) << attributes << "\n" << result.diagnostics.formatAll();
    EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
    EXPECT_EQ(result.spec->graphics[0].markerId(), 20);
  }
}

TEST(PostGraphic, TypeSpecificAttributesAreRequiredAndChecked) {
  const ReadResult missing = readText(deck(graphic("type=\"Sphere\" center_marker_id=\"20\"")));
  EXPECT_TRUE(hasError(missing.diagnostics, 6, "Post_Graphic id=7: missing required attribute 'radius'"));
  const ReadResult negative = readText(deck(graphic("type=\"Ellipsoid\" center_marker_id=\"20\" x_scale=\"1\" "
                                                    "y_scale=\"-2\" z_scale=\"3\"")));
  EXPECT_TRUE(hasError(negative.diagnostics, 6, "attribute 'y_scale' must be > 0 (got -2)"));
  const ReadResult zeroLength =
      readText(deck(graphic("type=\"Cylinder\" center_marker_id=\"20\" radius=\"1\" length=\"0\"")));
  EXPECT_TRUE(hasError(zeroLength.diagnostics, 6, "attribute 'length' must not be 0"));
  const ReadResult cone = readText(deck(graphic("type=\"Frustum\" center_marker_id=\"20\" top_radius=\"0\" "
                                                "bottom_radius=\"0\" length=\"1\"")));
  EXPECT_TRUE(hasError(cone.diagnostics, 6, "a Frustum needs top_radius or bottom_radius > 0"));
}

TEST(PostGraphic, AttributesOfAnotherTypeAreUnknown) {
  const ReadResult result = readText(deck(graphic("type=\"Sphere\" center_marker_id=\"20\" radius=\"1\" length_x=\"2\"")));
  ASSERT_TRUE(result.spec);
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "unknown attribute 'length_x' ignored"));
}

TEST(PostGraphic, UnknownTypeIsAnErrorViewerOnlyTypeAWarning) {
  const ReadResult typo = readText(deck(graphic("type=\"Spere\" center_marker_id=\"20\" radius=\"1\"")));
  EXPECT_TRUE(hasError(typo.diagnostics, 6, "attribute 'type' must be one of Sphere, BoxDefinedFromCenter"));
  const ReadResult spring = readText(deck(graphic("type=\"SPDP\" i_marker_id=\"20\" j_marker_id=\"20\" Da=\"1\"")));
  ASSERT_TRUE(spring.spec) << spring.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(spring.diagnostics, 6, "Post_Graphic id=7: type SPDP is drawn only by viewers"));
  EXPECT_EQ(spring.diagnostics.warningCount(), 1);
}

TEST(PostGraphic, TriaMeshNodesAndZeroBasedTriangles) {
  const std::string text =
      "\n<!-- Node Position -->\n0 0 0  1 0 0  0 1 0  0 0 1\n<!-- Tria Connectivity -->\n0 2 1  0 1 3  0 3 2  1 2 3\n";
  const ReadResult result =
      readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"4\" num_triangle=\"4\"", text)));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  const PostGraphicSpec& mesh = result.spec->graphics[0];
  EXPECT_EQ(mesh.nodes.size(), 12u);
  EXPECT_EQ(mesh.nodes[3], 1.0);
  EXPECT_EQ(mesh.triangles, (std::vector<int>{0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3}));
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
}

TEST(PostGraphic, TriaMeshCountsMustMatchTheText) {
  const ReadResult result = readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"4\" "
                                                  "num_triangle=\"2\"",
                                                  "0 0 0 1 0 0 0 1 0 0 0 1 0 1 2")));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "TriaMesh text holds 15 numbers, but num_point=4 and num_triangle=2 "
                                              "need 3·4 node coordinates + 3·2 triangle corners = 18"));
}

TEST(PostGraphic, TriaMeshIndicesMustBeNodes) {
  const ReadResult oneBased = readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"3\" "
                                                    "num_triangle=\"1\"",
                                                    "0 0 0 1 0 0 0 1 0  1 2 3")));
  EXPECT_TRUE(hasError(oneBased.diagnostics, 6, "triangle 0 uses node 3, but nodes are numbered 0 to 2"));
  EXPECT_TRUE(hasError(oneBased.diagnostics, 6, "these look 1-based"));
  const ReadResult garbage = readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"3\" "
                                                   "num_triangle=\"1\"",
                                                   "0 0 0 1 0 0 0 one 0  0 1 2")));
  EXPECT_TRUE(hasError(garbage.diagnostics, 6, "TriaMesh node 2 has coordinate 'one'"));
}

TEST(PostGraphic, DegenerateTrianglesAreAWarning) {
  const ReadResult result = readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"4\" "
                                                  "num_triangle=\"2\"",
                                                  "0 0 0 1 0 0 0 1 0 2 0 0  0 1 2  0 1 3")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "1 triangle(s) have zero area (the first is triangle 1)"));
}

TEST(PostGraphic, MarkerMustExist) {
  const ReadResult result = readText(deck(graphic("type=\"Sphere\" center_marker_id=\"77\" radius=\"1\"")));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'center_marker_id' refers to Reference_Marker id=77"));
}

}  // namespace
}  // namespace lodestone::testing

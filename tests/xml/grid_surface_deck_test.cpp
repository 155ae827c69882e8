// Post_Graphic type GridSurface in decks: its text read into the grid, and each mistake an error on its line; a
// grid surface meets spheres, points and point clouds only.
#include <string>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Line 3–5: ground and body 2 (marker 20); 6: ground marker 11; 7: the grid (its text on the same line); 8: a sphere
// and 9: a box on body 2; 10: the contact.
std::string gridDeck(const std::string& gridAttributes, const std::string& text, const std::string& jGraphics = "200") {
  return deck(groundAndBody() +
              "\n<Reference_Marker id=\"11\" body_id=\"1\"/>"
              "\n<Post_Graphic id=\"100\" type=\"GridSurface\" ref_marker_id=\"11\" " + gridAttributes + ">" + text +
              "</Post_Graphic>"
              "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"/>"
              "\n<Post_Graphic id=\"201\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"1\" "
              "length_y=\"1\" length_z=\"1\"/>"
              "\n<Force_Contact id=\"300\" i_graphics_id=\"" + jGraphics + "\" j_graphics_id=\"100\" "
              "cnf_type=\"IMPACT\" stiffness=\"1e5\" exponent=\"1\" damping=\"0\" dmax=\"1e-4\"/>");
}

const std::string kGrid4x4 = "0 1 2 3  0 1 2 3  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";

TEST(GridSurfaceDeck, TheTextIsReadIntoTheGrid) {
  ReadResult result = readText(gridDeck("num_x=\"4\" num_y=\"4\"", kGrid4x4));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  const PostGraphicSpec& grid = result.spec->graphics[0];
  EXPECT_EQ(grid.grid_x.size(), 4u);
  EXPECT_EQ(grid.grid_y.back(), 3);
  EXPECT_EQ(grid.grid_heights.size(), 16u);
  const std::optional<Model> model = buildModel(*result.spec, result.diagnostics);
  EXPECT_TRUE(model) << result.diagnostics.formatAll();
}

TEST(GridSurfaceDeck, MistakesAreErrorsOnTheirLines) {
  EXPECT_TRUE(hasError(readText(gridDeck("num_x=\"4\" num_y=\"4\"", "0 1 2 3 0 1 2 3 0")).diagnostics, 7,
                       "GridSurface text holds 9 numbers, but num_x=4 and num_y=4 need 4 x values + 4 y values + 16 "
                       "heights = 24"));
  const std::string unordered = "0 1 1 3  0 1 2 3  0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0";
  EXPECT_TRUE(hasError(readText(gridDeck("num_x=\"4\" num_y=\"4\"", unordered)).diagnostics,
                       7, "GridSurface x values must increase strictly; value 3 (1) does not"));
  EXPECT_TRUE(hasError(readText(gridDeck("num_x=\"3\" num_y=\"4\"", kGrid4x4)).diagnostics, 7, "num_x"));
  EXPECT_TRUE(hasError(readText(gridDeck("num_x=\"4\" num_y=\"4\" is_material_inside=\"FALSE\"", kGrid4x4)).diagnostics,
                       7, "a GridSurface's material is below it, always"));
  EXPECT_TRUE(hasError(readText(gridDeck("num_x=\"4\" num_y=\"4\"", kGrid4x4.substr(0, kGrid4x4.size() - 1) + "x"))
                           .diagnostics,
                       7, "GridSurface number 24 is 'x'"));
  EXPECT_TRUE(hasError(readAndBuildDeck(gridDeck("num_x=\"4\" num_y=\"4\"", kGrid4x4, "200 201")), 10,
                       "Post_Graphic id=201 (box, deck.xml:9:1) and id=100 (grid surface, deck.xml:7:1) cannot touch: "
                       "a grid surface meets spheres, points and point clouds"));
}

}  // namespace
}  // namespace lodestone::testing

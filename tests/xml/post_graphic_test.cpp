// Post_Graphic: every supported type reads, each type's own attributes are checked, TriaMesh text is parsed and
// TriaMesh mesh files are read beside the deck.
#include <fstream>

#include "elements/model_builder.h"
#include "support/deck_testing.h"
#include "support/text_files.h"

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

// crease_angle (degrees, 0 to 180) is read for every type; without it a contact mesh is smooth across edges under 35°.
TEST(PostGraphic, CreaseAngleIsReadInDegreesWithinAHalfTurn) {
  const ReadResult given =
      readText(deck(graphic("type=\"Sphere\" center_marker_id=\"20\" radius=\"1\" crease_angle=\"20\"")));
  ASSERT_TRUE(given.spec) << given.diagnostics.formatAll();
  EXPECT_EQ(given.spec->graphics[0].crease_angle, 20);
  const ReadResult absent = readText(deck(graphic("type=\"Sphere\" center_marker_id=\"20\" radius=\"1\"")));
  ASSERT_TRUE(absent.spec);
  EXPECT_EQ(absent.spec->graphics[0].crease_angle, 35);
  const ReadResult tooWide =
      readText(deck(graphic("type=\"Sphere\" center_marker_id=\"20\" radius=\"1\" crease_angle=\"200\"")));
  EXPECT_TRUE(hasError(tooWide.diagnostics, 6, "attribute 'crease_angle' must be >= 0 and <= 180 (got 200)"));
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
  EXPECT_EQ(mesh.mesh.vertices.size(), 4u);
  EXPECT_EQ(mesh.mesh.vertices[1], Vector3(1, 0, 0));
  EXPECT_EQ(mesh.mesh.triangles, (std::vector<std::array<int, 3>>{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}));
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

// A unit tetrahedron, closed and wound outwards, as an OBJ file.
const std::string kTetrahedronObj = "# tetrahedron\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nf 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n";

std::string writeScratch(const std::string& name, const std::string& content) {
  const std::filesystem::path path = scratchFile(name);
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
  return path.string();
}

std::string meshFileGraphic(const std::string& file, const std::string& more = "", const std::string& text = "") {
  return graphic("type=\"TriaMesh\" ref_marker_id=\"20\" mesh_file=\"" + file + "\"" + more, text);
}

// The deck read as if it were the file `deckPath`, so that mesh files resolve against its folder.
ReadResult readTextAt(const std::string& text, const std::string& deckPath) {
  ReadResult result;
  result.spec = readDeckText(text, deckPath, result.diagnostics);
  return result;
}

TEST(PostGraphic, TriaMeshFromAFileBesideTheDeck) {
  writeScratch("decks/meshes/tetrahedron.obj", kTetrahedronObj);
  const std::string deckPath = writeScratch("decks/deck.xml", deck(meshFileGraphic("meshes/tetrahedron.obj")));
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeck(deckPath, diagnostics);
  ASSERT_TRUE(spec) << diagnostics.formatAll();
  EXPECT_TRUE(diagnostics.entries().empty()) << diagnostics.formatAll();
  // Stored as inline lists are, so that later stages need not know where the mesh came from.
  const PostGraphicSpec& mesh = spec->graphics[0];
  EXPECT_EQ(mesh.mesh.vertices, (std::vector<Vector3>{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}}));
  EXPECT_EQ(mesh.mesh.triangles, (std::vector<std::array<int, 3>>{{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}}));
  EXPECT_EQ(mesh.num_point, 4);
  EXPECT_EQ(mesh.num_triangle, 4);
  EXPECT_EQ(mesh.mesh_file, "meshes/tetrahedron.obj");

  // An absolute path is taken as it is, wherever the deck is.
  const std::string absolute = writeScratch("elsewhere/tetrahedron.obj", kTetrahedronObj);
  const ReadResult fromAbsolute = readText(deck(meshFileGraphic(absolute)));
  ASSERT_TRUE(fromAbsolute.spec) << fromAbsolute.diagnostics.formatAll();
  EXPECT_EQ(fromAbsolute.spec->graphics[0].mesh.triangles, mesh.mesh.triangles);
}

// MotionSolve decks carry open road surfaces; drawn meshes from files are as lenient as inline ones.
TEST(PostGraphic, TriaMeshFileMayBeOpenAndWarnsOfZeroArea) {
  writeScratch("open/road.obj", "v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nv 2 0 0\nf 1 2 3 4\nf 1 2 5\n");
  const ReadResult result = readTextAt(deck(meshFileGraphic("road.obj")), scratchFile("open/deck.xml").string());
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_EQ(result.diagnostics.errorCount(), 0);
  EXPECT_TRUE(hasWarning(result.diagnostics, 6, "Post_Graphic id=7: mesh_file=\"road.obj\": 1 triangle(s) have zero "
                                                "area (the first is triangle 2)"));
  EXPECT_EQ(result.spec->graphics[0].mesh.triangles.size(), 3u);
}

TEST(PostGraphic, TriaMeshFileErrorsNameTheAttributeAndTheFile) {
  const std::string folder = scratchFile("errors").string();
  const std::string deckPath = folder + "/deck.xml";
  const ReadResult missing = readTextAt(deck(meshFileGraphic("nowhere.stl")), deckPath);
  EXPECT_FALSE(missing.spec);
  ASSERT_EQ(missing.diagnostics.entries().size(), 1u) << missing.diagnostics.formatAll();
  EXPECT_EQ(missing.diagnostics.entries()[0].format(),
            deckPath + ":6:1: Post_Graphic id=7: mesh_file=\"nowhere.stl\": " + folder + "/nowhere.stl: no such file");

  writeScratch("errors/bad.obj", "v 0 0 0\nv 1 0 zero\nv 0 1 0\nf 1 2 3\n");
  const ReadResult bad = readTextAt(deck(meshFileGraphic("bad.obj")), deckPath);
  EXPECT_TRUE(hasError(bad.diagnostics, 6, "Post_Graphic id=7: mesh_file=\"bad.obj\": " + folder +
                                               "/bad.obj:2: coordinate 'zero' is not a number"));
}

// One mesh, from one place: lists or counts beside mesh_file would be a second, possibly different, mesh.
TEST(PostGraphic, TriaMeshFileOrListsNotBoth) {
  writeScratch("both/tetrahedron.obj", kTetrahedronObj);
  const std::string deckPath = scratchFile("both/deck.xml").string();
  const ReadResult withText =
      readTextAt(deck(meshFileGraphic("tetrahedron.obj", "", "0 0 0 1 0 0 0 1 0  0 1 2")), deckPath);
  EXPECT_TRUE(hasError(withText.diagnostics, 6, "mesh_file=\"tetrahedron.obj\" gives the nodes and triangles, so the "
                                                "element's text must be empty; remove the lists from the text, or "
                                                "remove mesh_file"));
  const ReadResult withCounts =
      readTextAt(deck(meshFileGraphic("tetrahedron.obj", " num_point=\"4\" num_triangle=\"4\"")), deckPath);
  EXPECT_TRUE(hasError(withCounts.diagnostics, 6, "num_point counts a list in the element's text; with "
                                                  "mesh_file=\"tetrahedron.obj\" the file gives the mesh, so remove "
                                                  "num_point"));
  EXPECT_TRUE(hasError(withCounts.diagnostics, 6, "so remove num_triangle"));
  const ReadResult empty = readTextAt(deck(meshFileGraphic("")), deckPath);
  EXPECT_TRUE(hasError(empty.diagnostics, 6, "mesh_file is empty; name an .stl or .obj file"));
  const ReadResult neither = readText(deck(graphic("type=\"TriaMesh\" ref_marker_id=\"20\"", "0 0 0")));
  EXPECT_TRUE(hasError(neither.diagnostics, 6, "missing required attribute 'num_point' (or give the mesh in a file "
                                               "with mesh_file)"));
  EXPECT_TRUE(hasError(neither.diagnostics, 6, "missing required attribute 'num_triangle'"));
}

TEST(PostGraphic, MarkerMustExist) {
  const ReadResult result = readText(deck(graphic("type=\"Sphere\" center_marker_id=\"77\" radius=\"1\"")));
  EXPECT_TRUE(hasError(result.diagnostics, 6, "attribute 'center_marker_id' refers to Reference_Marker id=77"));
}

// The animation draws graphics in their body's frame: a 1 x 2 x 3 corner box on a marker 1 m along the body's x,
// turned a quarter turn about z, spans x in [-1, 1], y in [0, 1], z in [0, 3]; a ground graphic stays in ground with
// the ground body's id; a viewer-only type is left out.
TEST(PostGraphic, DrawnGraphicsAreInTheirBodysFrame) {
  const std::string text =
      groundAndBody() +
      "\n<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"1\" a00=\"0\" a10=\"1\" a20=\"0\" a01=\"-1\" a11=\"0\" "
      "a21=\"0\"/>\n<Post_Graphic id=\"7\" type=\"BoxDefinedFromCorner\" corner_marker_id=\"21\" length_x=\"1\" "
      "length_y=\"2\" length_z=\"3\"/>\n<Reference_Marker id=\"10\" body_id=\"1\" pos_z=\"-5\"/>\n"
      "<Post_Graphic id=\"8\" type=\"Sphere\" center_marker_id=\"10\" radius=\"0.5\"/>\n"
      "<Post_Graphic id=\"9\" type=\"Outline\" ref_marker_id=\"10\"/>";
  ReadResult result = readText(deck(text));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  const std::optional<Model> model = buildModel(*result.spec, result.diagnostics);
  ASSERT_TRUE(model) << result.diagnostics.formatAll();
  const std::vector<DrawnGraphic> drawn = drawnGraphics(result.spec->graphics, result.spec->markers, *model);
  ASSERT_EQ(drawn.size(), 2u);

  EXPECT_EQ(drawn[0].id, 7);
  EXPECT_EQ(drawn[0].bodyId, 2);
  EXPECT_EQ(drawn[0].body, 0);
  Vector3 low = Vector3::Constant(1e9), high = Vector3::Constant(-1e9);
  for (const Vector3& vertex : drawn[0].surface.vertices) {
    low = low.cwiseMin(vertex);
    high = high.cwiseMax(vertex);
  }
  // The marker's x (length 1) runs along the body's y, its y (length 2) along the body's -x, its z (3) along z.
  EXPECT_LT((low - Vector3(-1, 0, 0)).norm(), 1e-12) << low.transpose();
  EXPECT_LT((high - Vector3(1, 1, 3)).norm(), 1e-12) << high.transpose();
  EXPECT_EQ(drawn[0].surface.triangles.size(), 48u);  // refinement_level 0

  EXPECT_EQ(drawn[1].id, 8);
  EXPECT_EQ(drawn[1].bodyId, 1);
  EXPECT_EQ(drawn[1].body, -1);
  for (const Vector3& vertex : drawn[1].surface.vertices) EXPECT_NEAR((vertex - Vector3(0, 0, -5)).norm(), 0.5, 1e-12);
}

}  // namespace
}  // namespace lodestone::testing

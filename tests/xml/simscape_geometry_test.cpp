// Post_Graphic's Simscape geometries — Point, PointCloud, Plane, Disk — read, build as contact geometry, and every
// pair or use they cannot serve is refused on its element's line.
#include "elements/model_builder.h"
#include "elements/post_graphic.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); 6: ground marker 11; 7: a ground plane; 8: a point, 9: a cloud of three
// points, 10: a disk and 11: a sphere, all on body 2; 12: ground marker 12; 13: a point on ground; 14: a plane on
// body 2; 15: a TriaMesh tetrahedron on ground; 16: the element under test.
constexpr int kPlaneLine = 7, kCloudLine = 9, kElementLine = 16;

std::string geometries(const std::string& element, const std::string& planeExtra = "") {
  return groundAndBody() +
         "\n<Reference_Marker id=\"11\" body_id=\"1\"/>"
         "\n<Post_Graphic id=\"100\" type=\"Plane\" ref_marker_id=\"11\"" + planeExtra + "/>"
         "\n<Post_Graphic id=\"101\" type=\"Point\" ref_marker_id=\"20\"/>"
         "\n<Post_Graphic id=\"102\" type=\"PointCloud\" ref_marker_id=\"20\" num_point=\"3\">0 0 -0.1  0.1 0 -0.1  "
         "0 0.1 -0.1</Post_Graphic>"
         "\n<Post_Graphic id=\"103\" type=\"Disk\" center_marker_id=\"20\" radius=\"0.1\"/>"
         "\n<Post_Graphic id=\"104\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"/>"
         "\n<Reference_Marker id=\"12\" body_id=\"1\" pos_z=\"-1\"/>"
         "\n<Post_Graphic id=\"105\" type=\"Point\" ref_marker_id=\"12\"/>"
         "\n<Post_Graphic id=\"106\" type=\"Plane\" ref_marker_id=\"20\"/>"
         "\n<Post_Graphic id=\"107\" type=\"TriaMesh\" ref_marker_id=\"12\" num_point=\"4\" num_triangle=\"4\">"
         "0 0 0  1 0 0  0 1 0  0 0 1  0 2 1  0 1 3  0 3 2  1 2 3</Post_Graphic>"
         "\n" + element;
}

std::string contact(const std::string& i, const std::string& j) {
  return "<Force_Contact id=\"300\" i_graphics_id=\"" + i + "\" j_graphics_id=\"" + j +
         "\" cnf_type=\"LINEAR\" stiffness=\"1e5\" damping=\"10\"/>";
}

Diagnostics readAndBuild(const std::string& text, std::optional<Model>* built = nullptr) {
  ReadResult result = readText(text);
  if (result.spec) {
    std::optional<Model> model = buildModel(*result.spec, result.diagnostics);
    if (built) *built = std::move(model);
  }
  return result.diagnostics;
}

TEST(SimscapeGeometry, EveryTypeReadsWithItsOwnAttributes) {
  const ReadResult result = readText(deck(geometries("")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_EQ(result.diagnostics.errorCount(), 0) << result.diagnostics.formatAll();
  EXPECT_EQ(result.diagnostics.warningCount(), 0) << result.diagnostics.formatAll();
  const std::vector<PostGraphicSpec>& graphics = result.spec->graphics;
  EXPECT_EQ(graphics[0].type, "Plane");
  EXPECT_EQ(graphics[0].markerId(), 11);
  EXPECT_EQ(graphics[1].type, "Point");
  ASSERT_EQ(graphics[2].cloud_points.size(), 3u);
  EXPECT_EQ(graphics[2].cloud_points[1], Vector3(0.1, 0, -0.1));
  EXPECT_EQ(graphics[3].type, "Disk");
  EXPECT_EQ(*graphics[3].radius, 0.1);
  EXPECT_TRUE(graphics[0].supported) << "a Plane is contact geometry now, no longer only a viewer's";
}

TEST(SimscapeGeometry, EachTypesAttributesAreRequiredAndChecked) {
  const auto errorsOf = [](const std::string& graphic) { return readText(deck(groundAndBody() + "\n" + graphic)); };
  EXPECT_TRUE(hasError(errorsOf("<Post_Graphic id=\"7\" type=\"Plane\"/>").diagnostics, 6,
                       "missing required attribute 'ref_marker_id'"));
  EXPECT_TRUE(hasError(errorsOf("<Post_Graphic id=\"7\" type=\"Disk\" center_marker_id=\"20\"/>").diagnostics, 6,
                       "missing required attribute 'radius'"));
  EXPECT_TRUE(hasError(
      errorsOf("<Post_Graphic id=\"7\" type=\"Disk\" center_marker_id=\"20\" radius=\"-1\"/>").diagnostics, 6,
      "attribute 'radius' must be > 0 (got -1)"));
  EXPECT_TRUE(hasError(
      errorsOf("<Post_Graphic id=\"7\" type=\"PointCloud\" ref_marker_id=\"20\">0 0 0</Post_Graphic>").diagnostics, 6,
      "missing required attribute 'num_point'"));
  EXPECT_TRUE(hasError(errorsOf("<Post_Graphic id=\"7\" type=\"PointCloud\" ref_marker_id=\"20\" num_point=\"2\">"
                                "0 0 0  1 1</Post_Graphic>")
                           .diagnostics,
                       6, "PointCloud text holds 5 numbers, but num_point=2 needs 3·2 = 6 coordinates"));
  EXPECT_TRUE(hasError(errorsOf("<Post_Graphic id=\"7\" type=\"PointCloud\" ref_marker_id=\"20\" num_point=\"2\">"
                                "0 0 0  1 x 1</Post_Graphic>")
                           .diagnostics,
                       6, "PointCloud point 1 has coordinate 'x', which is not a finite number"));
  EXPECT_TRUE(hasWarning(errorsOf("<Post_Graphic id=\"7\" type=\"Point\" ref_marker_id=\"20\">1 2 3</Post_Graphic>")
                             .diagnostics,
                         6, "text inside a Point graphic is ignored"));
}

TEST(SimscapeGeometry, SupportedPairsBuildAsContactGeometry) {
  const std::vector<std::pair<std::string, std::string>> pairs = {
      {"101", "100"}, {"102", "100"}, {"103", "100"}, {"104", "100"}, {"101", "107"},
      {"102", "107"}, {"106", "107"}, {"105", "104"}, {"100", "102"}, {"103", "107 100"}};
  for (const auto& [i, j] : pairs) {
    // A disk against a mesh is refused; listed beside the plane it is only the refused pair.
    if (i == "103") continue;
    std::optional<Model> model;
    const Diagnostics diagnostics = readAndBuild(deck(geometries(contact(i, j))), &model);
    ASSERT_TRUE(model) << i << " on " << j << "\n" << diagnostics.formatAll();
    EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
    ASSERT_TRUE(model->contacts);
    EXPECT_EQ(model->contacts->elements.size(), 1u);
  }
  std::optional<Model> model;
  readAndBuild(deck(geometries(contact("102 103", "100"))), &model);
  ASSERT_TRUE(model && model->contacts);
  EXPECT_EQ(model->contacts->graphics[0].shape.type, ShapeType::PointCloud);
  EXPECT_EQ(model->contacts->graphics[0].shape.cloud->points.size(), 3u);
  EXPECT_EQ(model->contacts->graphics[1].shape.type, ShapeType::Disk);
  EXPECT_EQ(model->contacts->graphics[2].shape.type, ShapeType::Plane);
  // Viewers draw none of them (and drawing does not fail on them).
  const ReadResult read = readText(deck(geometries(contact("102 103", "100"))));
  ASSERT_TRUE(read.spec);
  for (const DrawnGraphic& drawn : drawnGraphics(read.spec->graphics, read.spec->markers, *model)) {
    EXPECT_TRUE(drawn.id == 104 || drawn.id == 107) << drawn.id;
  }
}

TEST(SimscapeGeometry, PairsSimscapeDoesNotSupportAreRefusedOnTheElementsLine) {
  struct Refusal {
    std::string i, j, says;
  };
  const std::vector<Refusal> refusals = {
      {"101", "105", "Post_Graphic id=101 (point, deck.xml:8:1) and id=105 (point, deck.xml:13:1) cannot touch: "
                     "points have no extent"},
      {"102", "105", "cannot touch: points have no extent"},
      {"106", "100", "Post_Graphic id=106 (infinite plane, deck.xml:14:1) and id=100 (infinite plane, deck.xml:7:1) "
                     "cannot touch: two infinite planes are not a contact pair"},
      {"103", "105", "cannot touch: a disk has no inside for a point to enter"},
      {"103", "107", "cannot touch: a disk meets the solids and the Plane, not a TriaMesh"},
  };
  for (const Refusal& refusal : refusals) {
    const Diagnostics diagnostics = readAndBuild(deck(geometries(contact(refusal.i, refusal.j))));
    EXPECT_TRUE(hasError(diagnostics, kElementLine, "Force_Contact id=300: "));
    EXPECT_TRUE(hasError(diagnostics, kElementLine, refusal.says)) << refusal.i << " on " << refusal.j;
  }
}

TEST(SimscapeGeometry, HollowPlanesAndPointMagnetsAreRefusedOnTheGraphicsLine) {
  const Diagnostics hollow = readAndBuild(deck(geometries(contact("104", "100"), " is_material_inside=\"FALSE\"")));
  EXPECT_TRUE(hasError(hollow, kPlaneLine, "Post_Graphic id=100: is_material_inside=\"FALSE\""));
  EXPECT_TRUE(hasError(hollow, kPlaneLine, "a Plane has no inside to turn out"));
  for (const char* id : {"100", "101", "102", "103"}) {
    const std::string magnetElement = std::string("<Force_Magnet id=\"1\" graphic_id=\"") + id + "\" moment_z=\"1\"/>";
    const Diagnostics magnet = readAndBuild(deck(geometries(magnetElement)));
    EXPECT_TRUE(hasError(magnet, kElementLine, std::string("Post_Graphic id=") + id + " (deck.xml:"));
    EXPECT_TRUE(hasError(magnet, kElementLine, "; a magnet is a Sphere, a Box, a Cylinder, a Frustum, an Ellipsoid"));
  }
  // A cloud whose text is wrong is said once, on its own line, and the element does not build.
  std::string broken = geometries(contact("102", "100"));
  broken.replace(broken.find("num_point=\"3\""), 13, "num_point=\"4\"");
  const Diagnostics text = readAndBuild(deck(broken));
  EXPECT_TRUE(hasError(text, kCloudLine, "PointCloud text holds 9 numbers, but num_point=4"));
}

}  // namespace
}  // namespace lodestone::testing

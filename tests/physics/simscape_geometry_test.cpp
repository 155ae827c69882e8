// Simscape's contact geometries in motion: a point cloud carries a box's weight as statics says point by point
// (cloud_points.csv), an infinite plane is a floor as a large box is, and the example decks in models/ show the
// figures their comments promise.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/model_runs.h"
#include "support/results_csv.h"
#include "support/text_files.h"

namespace lodestone::testing {
namespace {

// The rows of `table` at the output time closest to `time` (its rows are written output by output).
std::vector<size_t> rowsAt(const ResultsTable& table, double time) {
  std::vector<size_t> rows;
  for (size_t row = 0; row < table.rowCount(); ++row) {
    if (std::abs(table.at(row, "time") - time) < 1e-9) rows.push_back(row);
  }
  return rows;
}

// models/point_cloud_box_on_plane.xml: nine points under a 2 kg box whose CG is 30 mm off the middle along x. Equal
// linear springs under a rigid box carry forces linear in position, so the lever rule over the rows x = −0.1, 0, 0.1
// (⟨x²⟩ = 0.02/3) gives F = W/9·(1 + x·x_G/⟨x²⟩): 1.199, 2.18 and 3.161 N.
TEST(ExampleDecks, PointCloudBoxRestsOnItsNinePointsByTheLeverRule) {
  const std::string output = runModel("point_cloud_box_on_plane");
  const ResultsTable points(output + "/cloud_points.csv");
  const ResultsTable contacts(output + "/contacts.csv");
  ASSERT_EQ(points.rowCount(), 101u * 9) << "every point at every output, in contact or not";
  // At the start all nine hang 1 mm above the plane, in the cloud's order.
  for (size_t k = 0; k < 9; ++k) {
    EXPECT_EQ(points.at(k, "point"), static_cast<double>(k));
    EXPECT_EQ(points.at(k, "in_contact"), 0.0);
    EXPECT_NEAR(points.at(k, "separation"), 0.001, 1e-12);
    EXPECT_EQ(points.at(k, "fn"), 0.0);
  }
  const double weight = 2 * 9.81, meanSquare = 0.02 / 3, offset = 0.03;
  const std::vector<size_t> settled = rowsAt(points, 1.0);
  ASSERT_EQ(settled.size(), 9u);
  double total = 0, worst = 0;
  for (size_t k = 0; k < 9; ++k) {
    const size_t row = settled[k];
    const double x = -0.1 + 0.1 * static_cast<double>(k / 3);
    const double expected = weight / 9 * (1 + x * offset / meanSquare);
    EXPECT_EQ(points.at(row, "in_contact"), 1.0);
    // The box's 1e-4 rad tilt moves its CG 5 µm along x over its feet: 1.6e-4 N on the outer rows.
    EXPECT_NEAR(points.at(row, "fn"), expected, 5e-4) << "point " << k;
    EXPECT_NEAR(points.at(row, "penetration"), points.at(row, "fn") / 1e5, 1e-12) << "LINEAR: F = k·δ at rest";
    EXPECT_EQ(points.at(row, "separation"), -points.at(row, "penetration"));
    worst = std::max(worst, std::abs(points.at(row, "fn") - expected));
    total += points.at(row, "fn");
  }
  RecordProperty("worst_point_force_error_N", sci(worst));
  EXPECT_NEAR(total, weight, 1e-9);
  const std::vector<size_t> pair = rowsAt(contacts, 1.0);
  ASSERT_EQ(pair.size(), 1u);
  EXPECT_NEAR(contacts.at(pair[0], "fn"), weight, 1e-9) << "contacts.csv: the points' sum";
  EXPECT_EQ(contacts.at(pair[0], "points"), 9.0);
}

// The same box with its CG in the middle: a symmetric layout, nine equal shares of the weight.
TEST(PointCloud, SymmetricBoxSharesItsWeightEquallyOverItsPoints) {
  std::string text = fileText(std::filesystem::path(LODESTONE_SOURCE_DIR) / "models" / "point_cloud_box_on_plane.xml");
  const std::string offsetCg = "pos_x=\"0.03\" pos_z=\"0.051\"";
  ASSERT_NE(text.find(offsetCg), std::string::npos);
  text.replace(text.find(offsetCg), offsetCg.size(), "pos_z=\"0.051\"");
  const DeckRun run = runDeckText("centred_cloud_box", text);
  ASSERT_TRUE(run.completed);
  const ResultsTable points((run.output / "cloud_points.csv").string());
  const std::vector<size_t> settled = rowsAt(points, 1.0);
  ASSERT_EQ(settled.size(), 9u);
  for (size_t row : settled) {
    EXPECT_NEAR(points.at(row, "fn"), 2 * 9.81 / 9, 1e-9) << "point " << points.at(row, "point");
  }
}

// models/infinite_plane_drops.xml: a ball rebounding without damping, a coin and a point mass at rest.
TEST(ExampleDecks, InfinitePlaneCarriesABallACoinAndAPoint) {
  const std::string output = runModel("infinite_plane_drops");
  const ResultsTable bodies(output + "/bodies.csv");
  const ResultsTable contacts(output + "/contacts.csv");
  double apex = 0;
  for (size_t row : bodies.rowsOfBody(2)) {
    const double t = bodies.at(row, "time");
    if (t > 0.3 && t < 0.7) apex = std::max(apex, bodies.at(row, "z"));
  }
  // Output every 5 ms: the sampled apex is within ½·g·(2.5 ms)² = 31 µm of the true one.
  EXPECT_NEAR(apex, 0.3, 1e-4) << "the undamped ball rebounds to its height";
  const std::vector<size_t> last = rowsAt(contacts, 1.0);
  bool coin = false, point = false;
  for (size_t row : last) {
    if (contacts.at(row, "i_graphic") == 300) {
      coin = true;
      EXPECT_NEAR(contacts.at(row, "fn"), 0.01 * 9.81, 1e-6) << "the coin at rest on its face";
    }
    if (contacts.at(row, "i_graphic") == 400) {
      point = true;
      EXPECT_NEAR(contacts.at(row, "penetration"), 0.5 * 9.81 / 1e4, 1e-9) << "mg/k";
    }
  }
  EXPECT_TRUE(coin && point);
  // The coin lies flat: its axis (z of its frame) vertical, its centre at the plane less the rest depth.
  const std::vector<size_t> coinRows = bodies.rowsOfBody(3);
  EXPECT_NEAR(bodies.at(coinRows.back(), "z"), -0.01 * 9.81 / 1e4, 1e-7);
}

// A floor as an infinite plane and as a 20 m box whose top face is the plane: a ball and a tilted box dropped with
// friction, sliding and spinning, follow the same trajectories. The pairs share their patches (a box face on a face,
// a ball on a face), so what differs is only how far the broad phase reaches (the large box's tenth of its size).
std::string floorDeck(bool plane) {
  const std::string floor =
      plane ? "<Post_Graphic id=\"100\" type=\"Plane\" ref_marker_id=\"11\"/>\n"
            : "<Reference_Marker id=\"12\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
              "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"12\" length_x=\"20\" "
              "length_y=\"20\" length_z=\"1\"/>\n";
  const std::string law = "cnf_type=\"LINEAR\" stiffness=\"1e5\" damping=\"100\" cff_type=\"SMOOTH_STICK_SLIP\" "
                          "mu_static=\"0.4\" mu_dynamic=\"0.3\" critical_velocity=\"0.01\"";
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"-9.81\"/>\n"
         "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\"/>\n" +
         floor +
         "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.2\"/>\n"
         "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"0.001\" inertia_yy=\"0.001\" inertia_zz=\"0.001\" "
         "v_ic_x=\"0.5\" w_ic_y=\"-3\"/>\n"
         "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.05\"/>\n"
         "<Reference_Marker id=\"30\" body_id=\"3\" pos_x=\"2\" pos_z=\"0.3\" "
         "a00=\"0.9553\" a10=\"0.2955\" a20=\"0\" a02=\"-0.0876\" a12=\"0.2832\" a22=\"0.9551\"/>\n"
         "<Body_Rigid id=\"3\" cg_id=\"30\" mass=\"2\" inertia_xx=\"0.0083\" inertia_yy=\"0.0083\" "
         "inertia_zz=\"0.0133\" v_ic_x=\"-0.4\" v_ic_y=\"0.2\" w_ic_z=\"2\"/>\n"
         "<Post_Graphic id=\"300\" type=\"BoxDefinedFromCenter\" center_marker_id=\"30\" length_x=\"0.2\" "
         "length_y=\"0.2\" length_z=\"0.1\"/>\n"
         "<Force_Contact id=\"400\" i_graphics_id=\"200 300\" j_graphics_id=\"100\" " + law + "/>\n"
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.01\"/>"
         "</Command></MultiBodySystem>\n";
}

TEST(InfinitePlane, IsAFloorAsALargeBoxIs) {
  const ContactRun onPlane = runContactDeck("floor_plane", floorDeck(true));
  const ContactRun onBox = runContactDeck("floor_box", floorDeck(false));
  ASSERT_TRUE(onPlane.completed && onBox.completed);
  ASSERT_EQ(onPlane.bodies.rowCount(), onBox.bodies.rowCount());
  double worstPosition = 0, worstVelocity = 0, lowest = 1;
  for (size_t row = 0; row < onPlane.bodies.rowCount(); ++row) {
    worstPosition = std::max(worstPosition, (onPlane.bodies.vector3(row, "x", "y", "z") -
                                             onBox.bodies.vector3(row, "x", "y", "z")).norm());
    worstVelocity = std::max(worstVelocity, (onPlane.bodies.vector3(row, "vx", "vy", "vz") -
                                             onBox.bodies.vector3(row, "vx", "vy", "vz")).norm());
    lowest = std::min(lowest, onPlane.bodies.at(row, "z"));
  }
  RecordProperty("worst_position_difference_m", sci(worstPosition));
  RecordProperty("worst_velocity_difference_m_per_s", sci(worstVelocity));
  EXPECT_LT(lowest, 0.06) << "both bodies come down onto the floor";
  // And move on it: the ball rolls off along x, the box lands tilted, slides and comes to rest flat.
  const size_t ballEnd = onPlane.bodies.rowsOfBody(2).back(), boxEnd = onPlane.bodies.rowsOfBody(3).back();
  RecordProperty("ball_travel_m", sci(onPlane.bodies.at(ballEnd, "x")));
  const Eigen::Vector3d boxStart(2, 0, 0.3);
  RecordProperty("box_travel_m", sci((onPlane.bodies.vector3(boxEnd, "x", "y", "z") - boxStart).norm()));
  EXPECT_GT(onPlane.bodies.at(ballEnd, "x"), 0.2);
  EXPECT_GT(std::hypot(onPlane.bodies.at(boxEnd, "x") - 2, onPlane.bodies.at(boxEnd, "y")), 0.02);
  EXPECT_NEAR(onPlane.bodies.at(boxEnd, "z"), 0.05, 1e-3) << "resting on a face";
  // The integration tolerance (1e-8) bounds both runs' error; they agree far better than their motion (metres).
  EXPECT_LT(worstPosition, 1e-5) << "metres";
  EXPECT_LT(worstVelocity, 1e-4) << "metres per second";
}

// A TriaMesh cube (1 kg, 100 mm) let go 1 mm above a Plane: its bottom face's samples below the plane, the plane
// the exact master, carry its weight at the law's rest depth mg/k.
TEST(InfinitePlane, CarriesAMeshCubeAtTheRestDepth) {
  const std::string deckText =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Force_Gravity grav_z=\"-9.81\"/>\n<Param_Transient integr_tol=\"1e-7\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n<Reference_Marker id=\"11\" body_id=\"1\"/>\n"
      "<Post_Graphic id=\"100\" type=\"Plane\" ref_marker_id=\"11\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.051\"/>\n"
      "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"1\" inertia_xx=\"0.00167\" inertia_yy=\"0.00167\" "
      "inertia_zz=\"0.00167\"/>\n"
      "<Post_Graphic id=\"200\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"8\" num_triangle=\"12\">"
      "-0.05 -0.05 -0.05  0.05 -0.05 -0.05  -0.05 0.05 -0.05  0.05 0.05 -0.05  -0.05 -0.05 0.05  0.05 -0.05 0.05  "
      "-0.05 0.05 0.05  0.05 0.05 0.05 "
      "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5</Post_Graphic>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"LINEAR\" "
      "stiffness=\"1e5\" damping=\"300\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.5\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("mesh_cube_on_plane", deckText);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> settled = rowsAt(run.contacts, 0.5);
  ASSERT_EQ(settled.size(), 1u);
  EXPECT_NEAR(run.contacts.at(settled[0], "fn"), 9.81, 1e-6);
  EXPECT_NEAR(run.contacts.at(settled[0], "penetration"), 9.81e-5, 1e-10);
  EXPECT_NEAR(run.bodies.at(run.bodies.rowsOfBody(2).back(), "z"), 0.05 - 9.81e-5, 1e-10);
}

}  // namespace
}  // namespace lodestone::testing

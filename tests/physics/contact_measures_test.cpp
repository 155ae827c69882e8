// Simscape's contact sensing through contacts.csv and CONTACT(id, index, rm), against values worked out by hand: a
// ball sliding and spinning on a tilted box (the relative velocity in the contact frame, the frame's place and
// rotation on both graphics), a ball on the box's side, where the marker's x axis is the normal and the frame's x
// falls back to its y axis, and a ball dropped on a plate, which meets it at the free-fall speed.
#include <cmath>
#include <string>
#include <vector>

#include <Eigen/Geometry>
#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kStiffness = 1e5, kExponent = 1.5;
constexpr double kRadius = 0.03;

// Post_Requests 7 to 10 reading every index of CONTACT(300, index, 0) but the penetration (f1..f7 or f1..f6 each).
const std::vector<std::vector<int>> kRequestedIndices{
    {2, 3, 4, 5, 6, 7, 8}, {9, 10, 11, 12, 13, 14, 15}, {16, 17, 18, 19, 20, 21, 22}, {23, 24, 25, 26, 27, 28}};

std::string requests() {
  std::string text;
  for (size_t r = 0; r < kRequestedIndices.size(); ++r) {
    text += "<Post_Request id=\"" + std::to_string(7 + r) + "\" type=\"EXPRESSION\"";
    for (size_t k = 0; k < kRequestedIndices[r].size(); ++k) {
      text += " expr" + std::to_string(k + 1) + "=\"CONTACT(300," + std::to_string(kRequestedIndices[r][k]) + ",0)\"";
    }
    text += "/>\n";
  }
  return text;
}

// CONTACT(300, index, 0) at request row `k` (the k-th output).
double contactIndex(const ResultsTable& table, size_t k, int index) {
  for (size_t r = 0; r < kRequestedIndices.size(); ++r) {
    for (size_t c = 0; c < kRequestedIndices[r].size(); ++c) {
      if (kRequestedIndices[r][c] != index) continue;
      return table.at(table.rowsOfBody(static_cast<long>(7 + r))[k], "f" + std::to_string(c + 1));
    }
  }
  return NAN;
}

std::string vectorAttributes(const std::string& prefix, const Vector3& v) {
  return " " + prefix + "x=\"" + formatReal(v.x()) + "\" " + prefix + "y=\"" + formatReal(v.y()) + "\" " + prefix +
         "z=\"" + formatReal(v.z()) + "\"";
}

// A ground box (2 × 2 × 1 m, centre marker 11 at the origin with axes `axes`) and a ball (body 2, radius 30 mm, its
// CG marker 20 with ground's axes at `centre`, moving with `velocity` and `spin`), no gravity, IMPACT without damping
// and no friction: at t = 0 the measures are those of the state given.
std::string slidingBallDeck(const Matrix3& axes, const Vector3& centre, const Vector3& velocity, const Vector3& spin) {
  std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-4\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"11\" body_id=\"1\" a00=\"" + formatReal(axes(0, 0)) + "\" a10=\"" +
      formatReal(axes(1, 0)) + "\" a20=\"" + formatReal(axes(2, 0)) + "\" a02=\"" + formatReal(axes(0, 2)) +
      "\" a12=\"" + formatReal(axes(1, 2)) + "\" a22=\"" + formatReal(axes(2, 2)) + "\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" length_y=\"2\" "
      "length_z=\"1\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.11\" cg_id=\"20\" inertia_xx=\"4e-5\" inertia_yy=\"4e-5\" inertia_zz=\"4e-5\"" +
      vectorAttributes("v_ic_", velocity) + vectorAttributes("w_ic_", spin) + "/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\"" + vectorAttributes("pos_", centre) + "/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(kRadius) + "\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"" +
      formatReal(kStiffness) + "\" exponent=\"" + formatReal(kExponent) + "\" damping=\"0\" dmax=\"1e-4\" "
      "cff_type=\"COULOMB_OFF\"/>\n" + requests() +
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"1e-4\" print_interval=\"1e-4\"/></Command>"
      "</MultiBodySystem>\n";
  return deck;
}

// What the measures should be at t = 0, worked out from the state: the ball `depth` into the face of the box whose
// outward normal is `normal`, the contact frame `frame` (columns x, y, z in ground), the box's marker axes `axes`.
struct Expected {
  double depth;
  Vector3 point, normal, velocity;  // in ground; the velocity of the ball's material point at the contact point
  Matrix3 frame, axes;
  Vector3 centre;
};

void expectMeasures(const ContactRun& run, const ResultsTable& requestsTable, const Expected& e) {
  const std::vector<size_t> pairs = run.contacts.rowsOfBody(300);
  ASSERT_FALSE(pairs.empty());
  const size_t row = pairs[0];
  ASSERT_EQ(run.contacts.at(row, "time"), 0.0);
  const Vector4 frameInJ = eulerParametersFromRotation(e.axes.transpose() * e.frame);
  const Vector4 frameInI = eulerParametersFromRotation(e.frame);  // the ball's marker has ground's axes
  const Vector3 pointInJ = e.axes.transpose() * e.point, pointInI = e.point - e.centre;
  const std::vector<std::pair<std::string, double>> columns{
      {"in_contact", 1},
      {"penetration", e.depth},
      {"fn", kStiffness * std::pow(e.depth, kExponent)},
      {"ft", 0},
      {"vn", e.frame.col(2).dot(e.velocity)},
      {"vtx", e.frame.col(0).dot(e.velocity)},
      {"vty", e.frame.col(1).dot(e.velocity)},
      {"j_px", pointInJ.x()}, {"j_py", pointInJ.y()}, {"j_pz", pointInJ.z()},
      {"j_e0", frameInJ[0]}, {"j_e1", frameInJ[1]}, {"j_e2", frameInJ[2]}, {"j_e3", frameInJ[3]},
      {"i_px", pointInI.x()}, {"i_py", pointInI.y()}, {"i_pz", pointInI.z()},
      {"i_e0", frameInI[0]}, {"i_e1", frameInI[1]}, {"i_e2", frameInI[2]}, {"i_e3", frameInI[3]},
      {"px", e.point.x()}, {"py", e.point.y()}, {"pz", e.point.z()},
      {"nx", e.normal.x()}, {"ny", e.normal.y()}, {"nz", e.normal.z()},
  };
  for (const auto& [column, value] : columns) {
    const double tolerance = column == "fn" ? 1e-9 * value : 1e-12;
    EXPECT_NEAR(run.contacts.at(row, column), value, tolerance) << column;
  }
  // CONTACT's indices give the same numbers (both written with the same digits) at the same output.
  const std::vector<std::pair<int, std::string>> indices{
      {4, "fn"},    {5, "ft"},    {6, "vn"},    {7, "vtx"},   {8, "vty"},   {9, "j_px"},  {10, "j_py"},
      {11, "j_pz"}, {12, "j_e0"}, {13, "j_e1"}, {14, "j_e2"}, {15, "j_e3"}, {16, "i_px"}, {17, "i_py"},
      {18, "i_pz"}, {19, "i_e0"}, {20, "i_e1"}, {21, "i_e2"}, {22, "i_e3"}, {23, "px"},   {24, "py"},
      {25, "pz"},   {26, "nx"},   {27, "ny"},   {28, "nz"}};
  for (const auto& [index, column] : indices) {
    EXPECT_EQ(contactIndex(requestsTable, 0, index), run.contacts.at(row, column)) << "index " << index;
  }
  EXPECT_EQ(contactIndex(requestsTable, 0, 2), 1.0);
  EXPECT_NEAR(contactIndex(requestsTable, 0, 3), -e.depth, 1e-12);  // the signed distance
}

// The box turned 0.3 rad about y (its top face tilted), the ball 0.1 mm into the top face at (0.1, −0.2) on it,
// moving at (0.3, −0.4, 0.1) m/s and spinning at (2, −1, 3) rad/s. The contact frame is the box's marker's axes (its x
// is in the face's plane): its rotation relative to J is the identity, relative to the ball's marker 0.3 rad about
// y, Euler parameters (cos 0.15, 0, sin 0.15, 0). The contact point is midway between the ball's deepest point and
// the face: (0.1, −0.2, 0.5 − δ/2) on the box, −(r − δ/2)·n from the ball's centre; the relative velocity there is
// v + ω × (p − c), its components those along the marker's x, y and z.
TEST(ContactMeasures, ASlidingSpinningBallOnATiltedBoxHasItsVelocityAndFrameInTheContactFrame) {
  const double tilt = 0.3, depth = 1e-4;
  const Matrix3 axes = Eigen::AngleAxisd(tilt, Vector3::UnitY()).toRotationMatrix();
  const Vector3 centre = axes * Vector3(0.1, -0.2, 0.5 + kRadius - depth);
  const Vector3 velocity(0.3, -0.4, 0.1), spin(2, -1, 3);
  const ContactRun run = runContactDeck("contact_measures_tilted", slidingBallDeck(axes, centre, velocity, spin));
  ASSERT_TRUE(run.completed);
  const ResultsTable requestsTable((resultsFolderOf("contact_measures_tilted") / "requests.csv").string());
  Expected e;
  e.depth = depth;
  e.normal = axes.col(2);
  e.point = axes * Vector3(0.1, -0.2, 0.5 - depth / 2);
  e.velocity = velocity + spin.cross(e.point - centre);
  e.frame = axes;
  e.axes = axes;
  e.centre = centre;
  EXPECT_NEAR((e.point - centre - (-(kRadius - depth / 2) * e.normal)).norm(), 0, 1e-15);
  expectMeasures(run, requestsTable, e);
  // By hand: the frame relative to the ball is the tilt itself.
  const size_t row = run.contacts.rowsOfBody(300)[0];
  EXPECT_NEAR(run.contacts.at(row, "i_e0"), std::cos(tilt / 2), 1e-12);
  EXPECT_NEAR(run.contacts.at(row, "i_e2"), std::sin(tilt / 2), 1e-12);
  EXPECT_NEAR(run.contacts.at(row, "j_e0"), 1, 1e-12);
  // The tangential components are those of the relative velocity along the marker's x and y (its y is ground y).
  EXPECT_NEAR(run.contacts.at(row, "vty"), e.velocity.y(), 1e-12);
  RecordProperty("vn", sci(run.contacts.at(row, "vn")));
  RecordProperty("vtx", sci(run.contacts.at(row, "vtx")));
}

// The ball on the box's +x face (the box unturned): the normal is the marker's x axis, whose projection on the
// contact plane vanishes, so the frame's x is the marker's y axis and its y = z × x the marker's z. Relative to the box
// the frame's axes (y, z, x) are a turn of 120° about (1, 1, 1): Euler parameters (½, ½, ½, ½).
TEST(ContactMeasures, OnAFaceAlongTheMarkersXAxisTheFramesXIsTheMarkersY) {
  const double depth = 2e-4;
  const Matrix3 axes = Matrix3::Identity();
  const Vector3 centre(1 + kRadius - depth, 0.3, 0.1);
  const Vector3 velocity(-0.05, 0.2, -0.7), spin(0, 0, 0);
  const ContactRun run = runContactDeck("contact_measures_side", slidingBallDeck(axes, centre, velocity, spin));
  ASSERT_TRUE(run.completed);
  const ResultsTable requestsTable((resultsFolderOf("contact_measures_side") / "requests.csv").string());
  Expected e;
  e.depth = depth;
  e.normal = Vector3::UnitX();
  e.point = Vector3(1 - depth / 2, 0.3, 0.1);
  e.velocity = velocity;
  e.frame << Vector3::UnitY(), Vector3::UnitZ(), Vector3::UnitX();
  e.axes = axes;
  e.centre = centre;
  expectMeasures(run, requestsTable, e);
  const size_t row = run.contacts.rowsOfBody(300)[0];
  for (const char* column : {"j_e0", "j_e1", "j_e2", "j_e3"}) EXPECT_NEAR(run.contacts.at(row, column), 0.5, 1e-12);
  EXPECT_NEAR(run.contacts.at(row, "vn"), -0.05, 1e-12);
  EXPECT_NEAR(run.contacts.at(row, "vtx"), 0.2, 1e-12);
  EXPECT_NEAR(run.contacts.at(row, "vty"), -0.7, 1e-12);
}

// The ball dropped from 20 mm and from 300 mm above the plate (IMPACT, no damping) and halted by a sensor once
// CONTACT's penetration reaches 1 µm: there CONTACT's relative normal velocity is −√(2g(h + δ)), the free-fall speed
// at that depth (the law's work over 1 µm, k·δ^2.5/2.5, changes it by 6e-10 m/s). Before the touch the ball is apart:
// contact signal 0, velocities 0, and the separation is the gap z − r that bodies.csv gives — from 300 mm also while
// the pair is beyond reach (the box grown by 0.15 m), where no pair is a candidate and the pair is measured anew.
class ContactMeasuresDrop : public ::testing::TestWithParam<double> {};

TEST_P(ContactMeasuresDrop, ADroppedBallMeetsThePlateAtTheFreeFallSpeed) {
  BallDrop drop;
  const double gap = GetParam(), threshold = 1e-6;
  drop.law = "cnf_type=\"IMPACT\" stiffness=\"" + formatReal(kStiffness) + "\" exponent=\"" + formatReal(kExponent) +
             "\" damping=\"0\" dmax=\"1e-4\" cff_type=\"COULOMB_OFF\"";
  drop.height = drop.radius + gap;
  drop.endTime = 0.5;
  drop.printInterval = 0.02;
  std::string deck = ballDropDeck(drop);
  deck.insert(deck.find("</Model>"),
              "<Sensor_Event id=\"41\" type=\"EXPRESSION\" expr=\"CONTACT(300,1,0)\" compare=\"GE\" value=\"" +
                  formatReal(threshold) + "\" error_tol=\"1e-9\" halt=\"TRUE\"/>\n"
                  "<Post_Request id=\"7\" type=\"EXPRESSION\" expr1=\"CONTACT(300,6,0)\" expr2=\"CONTACT(300,1,0)\" "
                  "expr3=\"CONTACT(300,2,0)\" expr4=\"CONTACT(300,3,0)\" expr5=\"CONTACT(300,7,0)\" "
                  "expr6=\"CONTACT(300,8,0)\"/>\n");
  const std::string name = "contact_measures_drop_" + std::to_string(static_cast<int>(gap * 1000));
  const ContactRun run = runContactDeck(name, deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable requestsTable((resultsFolderOf(name) / "requests.csv").string());
  const std::vector<size_t> rows = requestsTable.rowsOfBody(7), balls = run.bodies.rowsOfBody(2);
  ASSERT_GE(rows.size(), 3u);
  ASSERT_EQ(rows.size(), balls.size());
  const size_t halt = rows.back();
  const double depth = requestsTable.at(halt, "f2");
  EXPECT_NEAR(depth, threshold, 1e-9);
  const double speed = std::sqrt(2 * drop.gravity * (gap + depth));
  const double normalVelocity = requestsTable.at(halt, "f1");
  EXPECT_NEAR(normalVelocity, -speed, 1e-6 * speed);
  EXPECT_EQ(requestsTable.at(halt, "f3"), 1.0);
  EXPECT_NEAR(requestsTable.at(halt, "f4"), -depth, 1e-12);
  EXPECT_NEAR(requestsTable.at(halt, "f5"), 0.0, 1e-12);
  EXPECT_NEAR(requestsTable.at(halt, "f6"), 0.0, 1e-12);
  // contacts.csv's vn at the halt is the same number, and the ball's own velocity.
  const std::vector<size_t> pairs = run.contacts.rowsOfBody(300);
  ASSERT_FALSE(pairs.empty());
  EXPECT_EQ(run.contacts.at(pairs.back(), "vn"), normalVelocity);
  EXPECT_NEAR(normalVelocity, run.bodies.at(balls.back(), "vz"), 1e-12);
  for (size_t k = 0; k + 1 < rows.size(); ++k) {
    SCOPED_TRACE(::testing::Message() << "t=" << requestsTable.at(rows[k], "time"));
    EXPECT_EQ(requestsTable.at(rows[k], "f3"), 0.0);
    EXPECT_EQ(requestsTable.at(rows[k], "f1"), 0.0);
    EXPECT_NEAR(requestsTable.at(rows[k], "f4"), run.bodies.at(balls[k], "z") - drop.radius, 1e-12);
  }
  RecordProperty("normal_velocity_at_touch", sci(normalVelocity));
  RecordProperty("free_fall_speed", sci(speed));
  RecordProperty("relative_error", sci(std::fabs(normalVelocity + speed) / speed));
  if (gap > 0.2) {
    EXPECT_GT(requestsTable.at(rows[0], "f4"), 0.2) << "the run began beyond reach";
  }
}

INSTANTIATE_TEST_SUITE_P(Gaps, ContactMeasuresDrop, ::testing::Values(0.02, 0.3));

}  // namespace
}  // namespace lodestone::testing

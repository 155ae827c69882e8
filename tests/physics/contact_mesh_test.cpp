// Mesh contact against the analytical contact of the same shapes, end to end:
// - a sphere dropped on a plate, both tessellated (enable_analytical="FALSE"), rebounds as high as the exact sphere
//   within 1e-6 (its nodes lie on the sphere, so the smooth surface its mesh stands for is the sphere: measured
//   4e-13);
// - a cylinder spinning about its own axis while it rests on a box: the analytical normal force is the weight at
//   every output; with sharp edges the mesh's mean is the weight within 2 %, and its ripple (the facets passing
//   under the axis) shrinks with refinement_level; as the smooth surface it stands for, the level-0 mesh's force
//   ripples by at most 10 % of the weight over a revolution, its mean within 0.5 %;
// - a TriaMesh cube dropped on a plate comes to rest on it, carrying its weight, without chatter.
#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"

namespace lodestone {
namespace {

using testing::ContactRun;
using testing::kG;
using testing::runContactDeck;
using testing::sci;


// A ground plate (top face z = 0) and one body whose graphic and contact attributes the caller gives. With
// `meshAttributes` (refinement_level="…"), given to the plate here and to its graphic by the caller, the contact
// is between tessellated surfaces (enable_analytical="FALSE").
std::string plateDeck(const std::string& bodyAndGraphic, const std::string& meshAttributes,
                      const std::string& contactAttributes, double endTime, double printInterval) {
  const std::string meshContact = meshAttributes.empty() ? "" : " enable_analytical=\"FALSE\"";
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"" + formatReal(-kG) + "\"/>\n"
         "<Param_Transient integr_tol=\"1e-7\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.05\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"1\" length_y=\"1\" "
         "length_z=\"0.1\" " + meshAttributes + "/>\n" + bodyAndGraphic +
         "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + contactAttributes + meshContact +
         "/>\n"
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
         "\" print_interval=\"" + formatReal(printInterval) + "\"/></Command></MultiBodySystem>\n";
}

// ---- a sphere bouncing ------------------------------------------------------------------------------------

constexpr double kBallSize = 0.03;

std::string ballDeck(const std::string& meshAttributes) {
  const std::string ball =
      "<Body_Rigid id=\"2\" mass=\"0.11\" cg_id=\"20\" inertia_xx=\"3.96e-5\" inertia_yy=\"3.96e-5\" "
      "inertia_zz=\"3.96e-5\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.1\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" + formatReal(kBallSize) + "\" " +
      meshAttributes + "/>\n";
  return plateDeck(ball, meshAttributes,
                   "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"20\" dmax=\"1e-4\"", 0.4, 5e-4);
}

// The highest the ball's lowest point gets after its first bounce.
double reboundHeight(const ContactRun& run) {
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  size_t bottom = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    if (run.bodies.at(rows[k], "time") < 0.2 && run.bodies.at(rows[k], "z") < run.bodies.at(rows[bottom], "z")) bottom = k;
  }
  double top = -INFINITY;
  for (size_t k = bottom; k < rows.size(); ++k) top = std::max(top, run.bodies.at(rows[k], "z"));
  return top - kBallSize;
}

TEST(ContactMesh, TessellatedSphereReboundsAsHighAsTheExactSphere) {
  const ContactRun exact = runContactDeck("mesh_ball_exact", ballDeck(""));
  ASSERT_TRUE(exact.completed);
  const double exactHeight = reboundHeight(exact);
  EXPECT_GT(exactHeight, 0.03) << "the ball must bounce";
  for (int level : {0, 1}) {
    const ContactRun meshed = runContactDeck("mesh_ball_" + std::to_string(level),
                                             ballDeck("refinement_level=\"" + std::to_string(level) + "\""));
    ASSERT_TRUE(meshed.completed);
    const double error = reboundHeight(meshed) / exactHeight - 1;
    RecordProperty("rebound_height_error_level_" + std::to_string(level), sci(error));
    EXPECT_LT(std::fabs(error), 1e-6) << "level " << level;
  }
}

// ---- a cylinder spinning on a box ---------------------------------------------------------------------------

constexpr double kCylinderMass = 1.0;

// A cylinder (R = 50 mm, 100 mm long, axis y) spinning at 2.5 rev/s on a soft contact (linear, 1e4 N/m), for
// `endTime`. With its edges sharp (crease_angle="0") the facets pass at 40 Hz (level 0) and faster, well above the
// contact's own 16 Hz, so the cylinder cannot follow them and the force ripples by the stiffness times the facets'
// sag, which quarters with each level.
std::string spinningCylinderDeck(const std::string& meshAttributes, double endTime = 0.7) {
  const std::string cylinder =
      "<Body_Rigid id=\"2\" mass=\"" + formatReal(kCylinderMass) + "\" cg_id=\"20\" inertia_xx=\"0.00145833\" "
      "inertia_yy=\"0.00125\" inertia_zz=\"0.00145833\" w_ic_y=\"15.707963267948966\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.049019\"/>\n"
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_y=\"-0.05\" pos_z=\"0.049019\" a00=\"1.\" a10=\"0.\" a20=\"0.\" "
      "a02=\"0.\" a12=\"1.\" a22=\"0.\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Cylinder\" center_marker_id=\"21\" radius=\"0.05\" length=\"0.1\" " +
      meshAttributes + "/>\n";
  return plateDeck(cylinder, meshAttributes,
                   "cnf_type=\"IMPACT\" stiffness=\"1e4\" exponent=\"1\" damping=\"40\" dmax=\"1e-4\"", endTime, 4e-4);
}

struct ForceFigures {
  double mean = 0, smallest = INFINITY, largest = -INFINITY;
};

// The normal force summed over the element's pairs at each output from 0.4 s (the start's transient, damped at 0.2
// of critical, has decayed to e^−8 of its size).
ForceFigures normalForce(const ContactRun& run) {
  std::map<double, double> byTime;
  for (size_t row = 0; row < run.contacts.rowCount(); ++row) {
    const double time = run.contacts.at(row, "time");
    if (time >= 0.4) byTime[time] += run.contacts.at(row, "fn");
  }
  ForceFigures figures;
  for (const auto& [time, force] : byTime) {
    figures.mean += force / static_cast<double>(byTime.size());
    figures.smallest = std::min(figures.smallest, force);
    figures.largest = std::max(figures.largest, force);
  }
  return figures;
}

TEST(ContactMesh, SpinningCylinderCarriesItsWeightWithARippleThatShrinksWithRefinement) {
  const double weight = kCylinderMass * kG;
  const ContactRun exact = runContactDeck("mesh_cylinder_exact", spinningCylinderDeck(""));
  ASSERT_TRUE(exact.completed);
  const ForceFigures analytical = normalForce(exact);
  EXPECT_NEAR(analytical.smallest / weight, 1, 1e-6);
  EXPECT_NEAR(analytical.largest / weight, 1, 1e-6);
  double previousRipple = INFINITY;
  for (int level : {0, 1}) {
    const ContactRun meshed =
        runContactDeck("mesh_cylinder_" + std::to_string(level),
                       spinningCylinderDeck("refinement_level=\"" + std::to_string(level) + "\" crease_angle=\"0\""));
    ASSERT_TRUE(meshed.completed);
    const ForceFigures figures = normalForce(meshed);
    const double ripple = (figures.largest - figures.smallest) / weight;
    RecordProperty("mean_force_error_level_" + std::to_string(level), sci(figures.mean / weight - 1));
    RecordProperty("ripple_peak_to_peak_level_" + std::to_string(level), sci(ripple));
    EXPECT_NEAR(figures.mean / weight, 1, 0.02) << "level " << level;
    EXPECT_LT(ripple, previousRipple / 2) << "level " << level;
    previousRipple = ripple;
  }
}

// The same cylinder at level 0 as the smooth surface its 16 sides stand for (the default crease angle), over one
// revolution (0.4 s to 0.8 s): its force is the weight at every output as the exact cylinder's is, its ripple at most
// 10 % of the weight and its mean within 0.5 % (measured: both at round-off, below 1e-12).
TEST(ContactMesh, SpinningSmoothCylinderCarriesItsWeightWithoutRipple) {
  const double weight = kCylinderMass * kG;
  const ContactRun meshed =
      runContactDeck("mesh_cylinder_smooth", spinningCylinderDeck("refinement_level=\"0\"", 0.8));
  ASSERT_TRUE(meshed.completed);
  const ForceFigures figures = normalForce(meshed);
  const double ripple = (figures.largest - figures.smallest) / weight;
  RecordProperty("mean_force_error", sci(figures.mean / weight - 1));
  RecordProperty("ripple_peak_to_peak", sci(ripple));
  EXPECT_NEAR(figures.mean / weight, 1, 0.005);
  EXPECT_LT(ripple, 0.10);
}

// ---- a TriaMesh cube at rest ----------------------------------------------------------------------------------

// A 0.1 m cube as inline TriaMesh text, its CG at the centre, dropped 5 mm onto the plate.
std::string cubeDeck(const std::string& contactAttributes) {
  const std::string cube =
      "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"0.0016667\" inertia_yy=\"0.0016667\" "
      "inertia_zz=\"0.0016667\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.055\"/>\n"
      "<Post_Graphic id=\"200\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"8\" num_triangle=\"12\">\n"
      "<!-- Node Position -->\n"
      "-0.05 -0.05 -0.05  0.05 -0.05 -0.05  -0.05 0.05 -0.05  0.05 0.05 -0.05\n"
      "-0.05 -0.05 0.05  0.05 -0.05 0.05  -0.05 0.05 0.05  0.05 0.05 0.05\n"
      "<!-- Tria Connectivity -->\n"
      "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5\n"
      "</Post_Graphic>\n";
  return plateDeck(cube, "",
                   "cnf_type=\"IMPACT\" stiffness=\"1e6\" exponent=\"1\" damping=\"200\" dmax=\"1e-6\" " +
                       contactAttributes,
                   0.5, 1e-3);
}

// Triangle centres: the cube bounces a few times (the law's damping gives a restitution of about 0.7), then rests
// with its bottom face at the law's depth mg/k, carrying its weight, and stays there.
TEST(ContactMesh, TriaMeshCubeComesToRestCarryingItsWeight) {
  const ContactRun run = runContactDeck("mesh_cube", cubeDeck(""));
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  const size_t last = rows.back();
  const double depth = 1.0 * kG / 1e6;
  EXPECT_NEAR(run.bodies.at(last, "z"), 0.05 - depth, 1e-9);
  EXPECT_NEAR(run.bodies.at(last, "vz"), 0, 1e-9);
  EXPECT_NEAR(run.contacts.at(run.contacts.rowCount() - 1, "fn"), kG, 1e-9);
  double lastSeparation = 0;
  for (const auto& event : run.events) lastSeparation = event.onset ? lastSeparation : event.time;
  RecordProperty("last_separation", sci(lastSeparation));
  EXPECT_LT(lastSeparation, 0.3) << "the bounces die out";
}

// Nodes: the four corners of the bottom face. The patch's law acts once at their weighted centre, so the cube rocks
// from edge to edge longer than with triangle centres (a corner coming down carries a share of the force that
// grows with its depth, and with it its damping); it still carries its weight on average.
TEST(ContactMesh, TriaMeshCubeOnItsNodesCarriesItsWeight) {
  const ContactRun run = runContactDeck("mesh_cube_nodes", cubeDeck("enable_node_mode=\"TRUE\""));
  ASSERT_TRUE(run.completed);
  double impulse = 0;
  for (size_t row = 1; row < run.contacts.rowCount(); ++row) {
    const double time = run.contacts.at(row, "time");
    if (time > 0.3) impulse += run.contacts.at(row, "fn") * (time - run.contacts.at(row - 1, "time"));
  }
  const double meanForce = impulse / 0.2;
  RecordProperty("mean_force_0.3_to_0.5", sci(meanForce));
  EXPECT_NEAR(meanForce / kG, 1, 0.05);
}

}  // namespace
}  // namespace lodestone

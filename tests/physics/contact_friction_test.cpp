// Friction and resting contact through the whole pipeline: a block sliding and a block held on inclines, a
// sphere rolling down one, and a cylinder lying on a box, against the textbook answers (REFERENCE §5).
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/incline_decks.h"

namespace lodestone::testing {
namespace {


// 30°, μs = 0.4 < tan 30° = 0.577, μd = 0.3: slides with a = g(sinθ − μd·cosθ) = 2.357 m/s². The slope of the
// downhill velocity between 0.2 s and 0.5 s (after the landing transient; slip ≫ friction_trans_vel) within 1 %.
TEST(ContactFriction, BlockSlidesDownAThirtyDegreeInclineAtTheDynamicFrictionAcceleration) {
  const ContactRun run = runContactDeck(
      "slide30", inclineDeck(30, inclineBlock(),
                             kInclineImpact + "cff_type=\"COULOMB_ON\" mu_static=\"0.4\" mu_dynamic=\"0.3\" "
                                       "stiction_trans_vel=\"1e-3\" friction_trans_vel=\"2e-3\"",
                             0.5));
  ASSERT_TRUE(run.completed);
  const double theta = M_PI / 6;
  const double expected = kG * (std::sin(theta) - 0.3 * std::cos(theta));
  const double measured = accelerationAlongSlope(run.bodies, 30, 0.2, 0.5);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  RecordProperty("acceleration_relative_error", sci(measured / expected - 1));
}

// 20°, μs = 0.5 > tan 20° = 0.364: held by stiction. Regularized friction creeps, but slower than the stiction
// transition speed vs (REFERENCE §4): the distance moved along the slope in 0.5 s stays below vs·0.5 s.
// The block starts at rest already pressed in by its static penetration (95 µm): dropped through a gap instead,
// it would reach a slip speed above friction_trans_vel in free fall and then, with μd = 0.3 < tan 20°, rightly
// keep sliding.
TEST(ContactFriction, BlockHeldOnATwentyDegreeInclineCreepsSlowerThanTheStictionSpeed) {
  const double vs = 1e-3, endTime = 0.5;
  const ContactRun run = runContactDeck(
      "hold20", inclineDeck(20, inclineBlock(0.05 - inclineRestDepth(20)),
                            kInclineImpact + "cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" "
                                      "stiction_trans_vel=\"" + formatReal(vs) + "\" friction_trans_vel=\"2e-3\"",
                            endTime));
  ASSERT_TRUE(run.completed);
  const double moved = alongSlope(run.bodies, endTime, 20, "x", "z") - alongSlope(run.bodies, 0, 20, "x", "z");
  EXPECT_GT(moved, 0) << "regularized friction lets it creep downhill";
  EXPECT_LT(moved, vs * endTime);
  RecordProperty("creep_m", sci(moved));
}

// A 1 kg solid sphere, R = 50 mm, on a 30° incline with μs = 0.5, μd = 0.4 (rolling needs only (2/7)·tanθ =
// 0.165): rolls with a = (5/7)·g·sinθ = 3.504 m/s², measured as for the block; within 1 %.
TEST(ContactFriction, SphereRollsDownAnInclineAtFiveSeventhsGSinTheta) {
  const std::string sphere =
      "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1e-3\" inertia_yy=\"1e-3\" inertia_zz=\"1e-3\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" rm_id=\"11\" pos_z=\"0.05001\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.05\"/>";
  const ContactRun run = runContactDeck(
      "roll30", inclineDeck(30, sphere,
                            kInclineImpact + "cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.4\" "
                                      "stiction_trans_vel=\"1e-3\" friction_trans_vel=\"2e-3\"",
                            0.5));
  ASSERT_TRUE(run.completed);
  const double expected = 5.0 / 7.0 * kG * 0.5;
  const double measured = accelerationAlongSlope(run.bodies, 30, 0.2, 0.5);
  EXPECT_NEAR(measured, expected, 0.01 * expected);
  RecordProperty("acceleration_relative_error", sci(measured / expected - 1));
}

// A 1 kg cylinder (R = 50 mm, L = 0.2 m, axis along ground x) laid 10 µm above a ground box: once settled (damped,
// 0.3 s) it rests on a line, one patch of 8 points along it, with total normal force = weight within 0.1 %.
TEST(ContactFriction, CylinderLyingOnABoxCarriesItsWeightOnALine) {
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Force_Gravity grav_z=\"-9.81\"/>\n"
      "<Param_Transient integr_tol=\"1e-7\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
      "length_y=\"2\" length_z=\"1\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"1.25e-3\" inertia_yy=\"3.9583e-3\" "
      "inertia_zz=\"3.9583e-3\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.05001\"/>\n"
      // Axis (marker z) along ground x, starting at the left end; marker x along −z.
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"-0.1\" pos_z=\"0.05001\" a00=\"0\" a10=\"0\" a20=\"-1\" "
      "a02=\"1\" a12=\"0\" a22=\"0\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Cylinder\" center_marker_id=\"21\" radius=\"0.05\" length=\"0.2\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"1e8\" "
      "exponent=\"1.5\" damping=\"2e3\" dmax=\"1e-5\" cff_type=\"COULOMB_OFF\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.3\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("cylinder", deck);
  ASSERT_TRUE(run.completed);
  ASSERT_GT(run.contacts.rowCount(), 0u);
  const size_t last = run.contacts.rowCount() - 1;
  EXPECT_EQ(run.contacts.at(last, "points"), 8);
  EXPECT_NEAR(run.contacts.at(last, "fn"), kG, 1e-3 * kG);
  EXPECT_NEAR(run.contacts.at(last, "fz"), kG, 1e-3 * kG);
  RecordProperty("normal_force_relative_error", sci(run.contacts.at(last, "fn") / kG - 1));
}

}  // namespace
}  // namespace lodestone::testing

// Contact from inside a spherical cavity through a deck (a Sphere graphic with is_material_inside="FALSE"): a
// frictionless ball let go on the wall of a bowl swings as a pendulum of length R − r, against an RK4 integration
// of that pendulum; a mesh box resting at the bottom carries its weight; the deck's rules with their lines.
#include <cmath>
#include <string>

#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "support/contact_runs.h"
#include "support/rk4.h"

namespace lodestone::testing {
namespace {

constexpr double kCavityRadius = 0.5;

// Ground holds the cavity (graphic 100, centred at the origin); body 2 carries `contentGraphic` (id 200, on marker
// 20 at the body's CG, placed at `position`), in contact by `law`.
std::string cavityDeck(const std::string& contentGraphic, const Vector3& position, double mass, double inertia,
                       const std::string& law, double endTime, const std::string& cavityExtra = "") {
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"" + formatReal(-kG) + "\"/>\n"
         "<Param_Transient integr_tol=\"1e-7\" h_max=\"2e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\"/>\n"
         "<Post_Graphic id=\"100\" type=\"Sphere\" center_marker_id=\"11\" radius=\"" + formatReal(kCavityRadius) +
         "\" is_material_inside=\"FALSE\"" + cavityExtra + "/>\n"
         "<Body_Rigid id=\"2\" mass=\"" + formatReal(mass) + "\" cg_id=\"20\" inertia_xx=\"" + formatReal(inertia) +
         "\" inertia_yy=\"" + formatReal(inertia) + "\" inertia_zz=\"" + formatReal(inertia) + "\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"" + formatReal(position.x()) + "\" pos_y=\"" +
         formatReal(position.y()) + "\" pos_z=\"" + formatReal(position.z()) + "\"/>\n" + contentGraphic +
         "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + law + "/>\n"
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(endTime) +
         "\" print_interval=\"0.01\"/></Command></MultiBodySystem>\n";
}

// A 50 mm ball (0.1 kg) let go from rest 0.3 rad up the wall of a 0.5 m bowl, without friction, its contact a stiff
// IMPACT law: the ball's centre stays on the sphere of radius L = R − r less the law's compression δ (at most
// (m·g·(1 + θ0²)/k)^(1/e) = 4.9e-6 m here, asserted within 1e-5), and its angle follows θ'' = −(g/L)·sin θ, here
// integrated by RK4 at L = R − r: within 2e-4 rad over 2 s (one and a half swings; δ/L = 1e-5 shifts the phase by
// ≈ 1e-5·θ0·ωt = 3e-5 rad, the rest is the integrator's 1e-7 tolerance).
TEST(ContactCavity, ABallInABowlSwingsAsAPendulumOfLengthRMinusr) {
  const double radius = 0.05, mass = 0.1, start = 0.3;
  const double length = kCavityRadius - radius;
  const std::string ball = "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"" +
                           formatReal(radius) + "\"/>\n";
  const ContactRun run = runContactDeck(
      "cavity_pendulum",
      cavityDeck(ball, Vector3(length * std::sin(start), 0, -length * std::cos(start)), mass,
                 0.4 * mass * radius * radius,
                 "cnf_type=\"IMPACT\" stiffness=\"1e8\" exponent=\"1.5\" damping=\"100\" dmax=\"1e-6\"", 2.0));
  ASSERT_TRUE(run.completed);
  const auto pendulum = [&](double theta) { return -kG / length * std::sin(theta); };
  double worstAngle = 0, worstRadius = 0;
  int rows = 0;
  for (size_t row : run.bodies.rowsOfBody(2)) {
    const double t = run.bodies.at(row, "time");
    const double x = run.bodies.at(row, "x"), y = run.bodies.at(row, "y"), z = run.bodies.at(row, "z");
    const double expected = t > 0 ? rk4PositionAt(pendulum, start, t, 20000) : start;
    worstAngle = std::max(worstAngle, std::fabs(std::atan2(x, -z) - expected));
    worstRadius = std::max(worstRadius, std::fabs(std::sqrt(x * x + y * y + z * z) - length));
    ++rows;
  }
  EXPECT_EQ(rows, 201);
  RecordProperty("worst_angle_error_rad", sci(worstAngle));
  RecordProperty("worst_radius_error_m", sci(worstRadius));
  EXPECT_LT(worstAngle, 2e-4);
  EXPECT_LT(worstRadius, 1e-5) << "the ball stays on the wall, never through it";
}

// A 40 × 40 × 40 mm box, as a TriaMesh of 8 nodes sampled at its nodes (1 kg), let go 0.1 mm above its place at the
// bottom of the bowl, settles on its four lower corners. They share edges, so they are one patch: the law acts once
// with the whole weight, at δ = (m·g/k)^(1/e) = 4.58e-6 m along the wall's normal, which at the corners leans
// α = asin(√2·0.02/R) from the vertical; so the centre rests at z = −(√(R² − 2·0.02²) − 0.02) − δ/cos α. The box
// stays at the bottom (the node areas differ between the corners on the face's diagonal and those off it, so the
// centre of pressure is not quite central at the first touch: the box drifts by 1e-5 m and settles back).
TEST(ContactCavity, AMeshBoxRestsOnItsCornersAtTheBottomOfTheBowl) {
  const double half = 0.02, mass = 1.0;
  std::string nodes;
  for (int k = 0; k < 8; ++k) {  // the corners numbered by bits: x = 1, y = 2, z = 4
    nodes += formatReal(k & 1 ? half : -half) + " " + formatReal(k & 2 ? half : -half) + " " +
             formatReal(k & 4 ? half : -half) + "  ";
  }
  const std::string box = "<Post_Graphic id=\"200\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"8\" "
                          "num_triangle=\"12\">\n<!-- Node Position -->\n" + nodes +
                          "\n<!-- Tria Connectivity -->\n"
                          "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5\n"
                          "</Post_Graphic>\n";
  const double rest = -(std::sqrt(kCavityRadius * kCavityRadius - 2 * half * half) - half);
  const ContactRun run = runContactDeck(
      "cavity_box", cavityDeck(box, Vector3(0, 0, rest + 1e-4), mass, mass * 8 * half * half / 12,
                               "cnf_type=\"IMPACT\" stiffness=\"1e9\" exponent=\"1.5\" damping=\"2e4\" dmax=\"1e-5\" "
                               "enable_node_mode=\"TRUE\"",
                               2.0));
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_FALSE(rows.empty());
  const double depth = std::pow(mass * kG / 1e9, 1 / 1.5);
  const double lean = std::asin(std::sqrt(2.0) * half / kCavityRadius);
  const double z = run.bodies.at(rows.back(), "z");
  RecordProperty("rest_height_error_m", sci(z - (rest - depth / std::cos(lean))));
  EXPECT_NEAR(z, rest - depth / std::cos(lean), 1e-8);
  EXPECT_LT(std::hypot(run.bodies.at(rows.back(), "x"), run.bodies.at(rows.back(), "y")), 5e-6);
  const std::vector<size_t> contactRows = run.contacts.rowsOfBody(300);
  ASSERT_FALSE(contactRows.empty());
  EXPECT_EQ(run.contacts.at(contactRows.back(), "points"), 4);
  EXPECT_NEAR(run.contacts.at(contactRows.back(), "fn"), mass * kG, 1e-6);
  EXPECT_NEAR(run.contacts.at(contactRows.back(), "penetration"), depth, 1e-10);
}

// The rules, each refused on its element's line: a hollow shape other than a sphere; a cavity that is not the master
// surface of its pairs; a cavity met as a mesh; a magnet on a hollow graphic.
TEST(ContactCavity, TheRulesOfACavityAreSaidWithTheirLines) {
  const std::string ball = "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.05\"/>\n";
  const std::string law = "cnf_type=\"IMPACT\" stiffness=\"1e8\" exponent=\"1.5\" damping=\"100\" dmax=\"1e-6\"";
  const auto refusal = [&](const std::string& name, const std::string& deck) {
    const RunOutcome outcome = runDeckTextOutcome(name, deck);
    EXPECT_NE(outcome.status, RunStatus::Completed);
    return outcome.diagnostics.formatAll();
  };
  std::string deck = cavityDeck(ball, Vector3(0, 0, -0.4), 0.1, 1e-4, law, 0.1);
  const std::string box = "type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"1\" length_y=\"1\" "
                          "length_z=\"1\"";
  std::string boxed = deck;
  const std::string sphere = "type=\"Sphere\" center_marker_id=\"11\" radius=\"0.5\"";
  boxed.replace(boxed.find(sphere), sphere.size(), box);
  const std::string boxMessage = refusal("cavity_box", boxed);
  EXPECT_NE(boxMessage.find(":7:1: Post_Graphic id=100: is_material_inside=\"FALSE\" (contact from "
                                              "inside a hollow shape) is available for a Sphere only"),
            std::string::npos)
      << boxMessage;
  EXPECT_NE(refusal("cavity_master", cavityDeck(ball, Vector3(0, 0, -0.4), 0.1, 1e-4, law + " master_surface=\"I\"",
                                                0.1))
                .find(":11:1: Force_Contact id=300: master_surface=\"I\" makes the side without the hollow sphere"),
            std::string::npos);
  EXPECT_NE(refusal("cavity_meshed", cavityDeck(ball, Vector3(0, 0, -0.4), 0.1, 1e-4,
                                                law + " enable_analytical=\"FALSE\"", 0.1))
                .find(":11:1: Force_Contact id=300: enable_analytical=\"FALSE\" would make the hollow sphere"),
            std::string::npos);
  std::string magnet = deck;
  magnet.insert(magnet.find("</Model>"), "<Force_Magnet id=\"400\" graphic_id=\"100\" magnetization_x=\"1e5\"/>\n");
  EXPECT_NE(refusal("cavity_magnet", magnet).find(": Force_Magnet id=400: Post_Graphic id=100 (" ),
            std::string::npos);
  EXPECT_NE(refusal("cavity_magnet", magnet).find(") is hollow (is_material_inside=\"FALSE\"); a magnet is a solid"),
            std::string::npos);
}

}  // namespace
}  // namespace lodestone::testing

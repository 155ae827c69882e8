// Force_Magnet through the whole system (deck, graphics, force elements, Jacobian, IDAS): magnets attracting from rest
// against an independent 1-D integration, the cube pair against Akoun & Yonnet's closed form at t = 0, momentum
// balance between free magnets, units, an electromagnet switched off by its strength expression, magnets resting on
// each other through a contact, an exact ellipsoid magnet and an exact obliquely magnetised cylinder.
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "collision/shape.h"
#include "elements/force_magnet.h"
#include "magnetics/cuboid_force.h"
#include "support/contact_runs.h"
#include "support/magnet_decks.h"
#include "support/magnet_testing.h"
#include "support/rk4.h"

namespace lodestone::testing {
namespace {

using magnet_testing::akounYonnetForce;

constexpr double kMagnetMu0Over4Pi = 1e-7;  // N/A²

// A free body `id` with its CG marker id·10 at x along ground x, and a sphere graphic id·100 of radius r there, made a
// magnet id·1000 of moment (m, 0, 0). The mass and inertia are those of `mass`.
std::string sphereMagnet(int id, double x, double radius, double moment, double mass, bool onGround = false,
                         const std::string& extra = "") {
  const std::string marker = std::to_string(id * 10), graphic = std::to_string(id * 100);
  std::string text;
  if (!onGround) {
    text += "<Body_Rigid id=\"" + std::to_string(id) + "\" mass=\"" + formatReal(mass) + "\" cg_id=\"" + marker +
            "\" inertia_xx=\"1e-5\" inertia_yy=\"1e-5\" inertia_zz=\"1e-5\"/>\n";
  }
  text += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + (onGround ? "1" : std::to_string(id)) +
          "\" pos_x=\"" + formatReal(x) + "\"/>\n"
          "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"" +
          formatReal(radius) + "\"/>\n"
          "<Force_Magnet id=\"" + std::to_string(id * 1000) + "\" graphic_id=\"" + graphic + "\" moment_x=\"" +
          formatReal(moment) + "\"" + extra + "/>\n";
  return text;
}

// The gap x(t) between two coaxial dipoles m1 (fixed) and m2 (on mass M), aligned: M·x'' = −6μ0/(4π)·m1·m2/x⁴, from
// rest at x0; classical RK4 with 10⁵ steps (its error, ∝ h⁴, is below 1e-12 m here).
double dipoleGapAt(double time, double x0, double m1, double m2, double mass) {
  const auto acceleration = [&](double x) { return -6 * kMagnetMu0Over4Pi * m1 * m2 / (mass * std::pow(x, 4)); };
  return rk4PositionAt(acceleration, x0, time);
}

// A 10 mm sphere magnet of 1 A·m² on ground, another on a free 0.1 kg body 50 mm away: they close to 27 mm in 0.19 s.
// The body's position follows the 1-D integration within 2e-8 m (integr_tol 1e-9; measured 3.9e-9 m, at the end).
TEST(ForceMagnet, TwoSpheresCloseAsTheOneDimensionalIntegrationSays) {
  const std::string deck = magnetDeckHeader() + sphereMagnet(1, 0, 0.01, 1, 0, true) +
                           sphereMagnet(2, 0.05, 0.01, 1, 0.1) + magnetDeckFooter(0.19, 0.038);
  const ContactRun run = runContactDeck("magnet_spheres", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 6u);
  double worst = 0;
  for (const size_t row : rows) {
    const double time = run.bodies.at(row, "time");
    const double reference = dipoleGapAt(time, 0.05, 1, 1, 0.1);
    worst = std::max(worst, std::abs(run.bodies.at(row, "x") - reference));
    EXPECT_NEAR(run.bodies.at(row, "x"), reference, 2e-8) << "t=" << time;
  }
  EXPECT_LT(run.bodies.at(rows.back(), "x"), 0.03);
  ::testing::Test::RecordProperty("worst_gap_error_m", sci(worst));
}

// Far pairs enter the residual only, while their stiffness is small beside the bodies' inertia at the step IDAS takes
// (farMagnetPairCoupling): the same spheres let go 100 mm apart (five times their reach) with 4 A·m² each, closing to
// 33 mm by 0.28 s, are left out of the early Jacobians, whose steps are short, and differenced from when the pair's
// pull matters to Newton; the motion still follows the 1-D integration within 2e-8 m (integr_tol 1e-9).
TEST(ForceMagnet, AFarPairLeftToTheResidualStillMovesAsTheIntegrationSays) {
  const std::string deck = magnetDeckHeader() + sphereMagnet(1, 0, 0.01, 4, 0, true) +
                           sphereMagnet(2, 0.1, 0.01, 4, 0.1) + magnetDeckFooter(0.28, 0.04);
  const DeckRun run = runDeckText("magnet_spheres_far", deck);
  ASSERT_TRUE(run.completed);
  const ResultsTable bodies((run.output / "bodies.csv").string());
  const std::vector<size_t> rows = bodies.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 8u);
  for (const size_t row : rows) {
    const double time = bodies.at(row, "time");
    EXPECT_NEAR(bodies.at(row, "x"), dipoleGapAt(time, 0.1, 4, 4, 0.1), 2e-8) << "t=" << time;
  }
  EXPECT_LT(bodies.at(rows.back(), "x"), 0.04);  // they have closed in to 2 radii apart
  const long leftOut = logCount(run.output / "run.log", "Far magnet pairs left to the residual");
  const long differenced = logCount(run.output / "run.log", "Magnet pairs differenced in Jacobians");
  EXPECT_GT(leftOut, 0);
  EXPECT_GT(differenced, 0);
  ::testing::Test::RecordProperty("jacobians_without_the_pair", leftOut);
  ::testing::Test::RecordProperty("jacobians_with_the_pair", differenced);
}

// The same in millimetres (moments in A·mm², so 10⁶ times the numbers): the same motion, in millimetres.
TEST(ForceMagnet, AMillimetreDeckMovesTheSame) {
  const std::string deck = magnetDeckHeader(1e-9, "MILLIMETER") + sphereMagnet(1, 0, 10, 1e6, 0, true) +
                           sphereMagnet(2, 50, 10, 1e6, 0.1) + magnetDeckFooter(0.16, 0.04);
  const ContactRun run = runContactDeck("magnet_spheres_mm", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_NEAR(run.bodies.at(rows.back(), "x"), 1000 * dipoleGapAt(0.16, 0.05, 1, 1, 0.1), 1e-4);
}

// Two free magnets of 0.1 and 0.3 kg: the pair's forces are equal and opposite, so the momentum stays zero.
TEST(ForceMagnet, FreeMagnetsKeepTheirTotalMomentum) {
  const std::string deck = magnetDeckHeader() + sphereMagnet(2, 0, 0.01, 1, 0.1) + sphereMagnet(3, 0.05, 0.01, 1, 0.3) +
                           magnetDeckFooter(0.1, 0.025);
  const ContactRun run = runContactDeck("magnet_momentum", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> light = run.bodies.rowsOfBody(2), heavy = run.bodies.rowsOfBody(3);
  ASSERT_EQ(light.size(), heavy.size());
  for (size_t k = 0; k < light.size(); ++k) {
    const double momentum = 0.1 * run.bodies.at(light[k], "vx") + 0.3 * run.bodies.at(heavy[k], "vx");
    EXPECT_LT(std::abs(momentum), 1e-12) << "t=" << run.bodies.at(light[k], "time");
  }
  EXPECT_GT(run.bodies.at(light.back(), "vx"), 0.01);  // they did move
}

// An electromagnet switched off at 0.05 s by its strength expression (STEP over 1 ms): before, the free magnet
// accelerates; after, it coasts at constant speed.
TEST(ForceMagnet, AStrengthExpressionSwitchesTheMagnetOff) {
  const std::string deck =
      magnetDeckHeader() +
      sphereMagnet(1, 0, 0.01, 1, 0, true, " strength_expression=\"STEP(TIME, 0.05, 1, 0.051, 0)\"") +
      sphereMagnet(2, 0.05, 0.01, 1, 0.1) + magnetDeckFooter(0.1, 0.01);
  const ContactRun run = runContactDeck("magnet_switched", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_EQ(rows.size(), 11u);
  EXPECT_LT(run.bodies.at(rows[5], "vx"), 2 * run.bodies.at(rows[2], "vx"));  // accelerating towards the other
  EXPECT_LT(run.bodies.at(rows[2], "vx"), 0);
  for (size_t k = 7; k < rows.size(); ++k) {
    EXPECT_EQ(run.bodies.at(rows[k], "ax"), 0) << "t=" << run.bodies.at(rows[k], "time");
    EXPECT_NEAR(run.bodies.at(rows[k], "vx"), run.bodies.at(rows[6], "vx"), 1e-12);
  }
}

// Two 0.1 m cubes magnetised along z (1e6 A/m), the free one above the ground one, coaxial or offset sideways, gaps
// 0.1 mm to 150 mm: the free cube's acceleration at t = 0 is Akoun & Yonnet's force over its mass, within 1e-5, asking
// 1e-7 (the
// issue asks 0.5 %; clumps of point dipoles are off by +21 % to +32 % at 1 mm). The CG is 30 mm off the cube's centre,
// so the torque about it is the force's moment plus the couple about the centre that an offset pair feels (from the
// library, tests/unit/magnetics_cuboid_force_test.cpp: what is checked here is that the element places it).
TEST(ForceMagnet, CubesPullAsAkounAndYonnetSay) {
  const Vector3 half = Vector3::Constant(0.05);
  for (const double sideways : {0.0, 0.03}) {
    for (const double gap : {1e-4, 1e-3, 1e-2, 0.15}) {
      const double height = 0.1 + gap;
      const std::string deck =
          magnetDeckHeader(1e-6) +
          groundBoxMagnet(1e-7) +
          "<Body_Rigid id=\"2\" mass=\"7.5\" cg_id=\"20\" inertia_xx=\"0.0125\" inertia_yy=\"0.0125\" "
          "inertia_zz=\"0.0125\"/>\n"
          "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"" + formatReal(sideways + 0.03) + "\" pos_z=\"" +
          formatReal(height) + "\"/>\n"
          "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"" + formatReal(sideways) + "\" pos_z=\"" +
          formatReal(height) + "\"/>\n"
          "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"21\" length_x=\"0.1\" "
          "length_y=\"0.1\" length_z=\"0.1\"/>\n"
          "<Force_Magnet id=\"2000\" graphic_id=\"200\" magnetization_z=\"1e6\" accuracy=\"1e-7\"/>\n" +
          magnetDeckFooter(1e-8, 1e-8);
      SCOPED_TRACE(::testing::Message() << "gap " << gap << " m, " << sideways << " m sideways");
      const std::string name = "magnet_cubes_" + std::to_string(static_cast<int>(gap * 1e4)) + "_" +
                               std::to_string(static_cast<int>(sideways * 1e3));
      const ContactRun run = runContactDeck(name, deck);
      ASSERT_TRUE(run.completed);
      const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
      ASSERT_FALSE(rows.empty());
      const Vector3 force = akounYonnetForce(half, 1e6, half, 1e6, Vector3(sideways, 0, height));
      const Vector3 acceleration = run.bodies.vector3(rows[0], "ax", "ay", "az");
      EXPECT_LT((7.5 * acceleration - force).norm(), 1e-5 * force.norm()) << acceleration.transpose();
      const Cuboid cube{half, Vector3(0, 0, 1e6)};
      const Vector3 couple =
          cuboidInteraction(cube, cube, MagnetPose{Matrix3::Identity(), Vector3(sideways, 0, height)}, 1e-10).torque;
      const Vector3 torque = Vector3(-0.03, 0, 0).cross(force) + couple;  // the cube's centre is 30 mm behind its CG
      const Vector3 angular = run.bodies.vector3(rows[0], "wdx", "wdy", "wdz");
      EXPECT_LT((0.0125 * angular - torque).norm(), 1e-5 * force.norm() * 0.03 + 1e-12) << angular.transpose();
    }
  }
}

// A 20 mm cube magnet (9e5 A/m, 60 g) let go 5 mm above another on ground snaps onto it and rests: the contact then
// carries its weight and the magnets' pull at touching, 165.662 N (Akoun & Yonnet's force as the gap goes to 0:
// 165.6603 at 10 nm, 165.6621 at 0.1 nm), although the IMPACT law lets the cubes overlap by 0.14 mm. Within 1e-3,
// asking the default accuracy 1e-4 (the force the magnets would give if the overlap counted: a push of 241 N).
TEST(ForceMagnet, ASnappedMagnetRestsWithTheContactCarryingThePullAtTouching) {
  const std::string deck =
      magnetDeckHeader(1e-4) +
      "<Force_Gravity grav_z=\"-9.81\"/>\n"
      "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"10\" length_x=\"0.02\" "
      "length_y=\"0.02\" length_z=\"0.02\"/>\n"
      "<Force_Magnet id=\"1000\" graphic_id=\"100\" magnetization_z=\"9e5\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.06\" cg_id=\"20\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"0.025\"/>\n"
      "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.02\" "
      "length_y=\"0.02\" length_z=\"0.02\"/>\n"
      "<Force_Magnet id=\"2000\" graphic_id=\"200\" magnetization_z=\"9e5\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"1e8\" "
      "exponent=\"1.5\" damping=\"1e3\" dmax=\"1e-5\" cff_type=\"COULOMB_OFF\"/>\n" +
      magnetDeckFooter(0.05, 0.05);
  const ContactRun run = runContactDeck("magnet_snap", deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> bodyRows = run.bodies.rowsOfBody(2);
  ASSERT_FALSE(bodyRows.empty());
  EXPECT_LT(run.bodies.vector3(bodyRows.back(), "vx", "vy", "vz").norm(), 1e-4) << "at rest";
  ASSERT_GT(run.contacts.rowCount(), 0u);
  const size_t last = run.contacts.rowCount() - 1;
  EXPECT_EQ(run.contacts.at(last, "time"), 0.05);
  const double expected = 165.6621 + 0.06 * 9.81;
  EXPECT_NEAR(run.contacts.at(last, "fn"), expected, 1e-3 * expected);
  EXPECT_GT(run.contacts.at(last, "penetration"), 1e-4);  // the overlap the law needs for that force
}

// A free magnet over an exact Box magnet, magnetised obliquely (M = (3, 0, 8)·1e5 A/m in its marker's axes) and turned
// 30° about z, 2 mm above and 10 mm aside, once as a Box and once as a TriaMesh cube (12 triangles), both with the
// Force_Magnet attributes `extra`: the two runs' accelerations and angular accelerations at t = 0.
struct BoxAndMeshAccelerations {
  Vector3 boxLinear, boxAngular, meshLinear, meshAngular;
};
BoxAndMeshAccelerations boxAndMeshCubeMagnets(const std::string& name, const std::string& extra) {
  const auto run = [&extra](const std::string& runName, const std::string& graphic) {
    const std::string deck =
        magnetDeckHeader(1e-6) +
        groundBoxMagnet(1e-8) +
        "<Body_Rigid id=\"2\" mass=\"7.5\" cg_id=\"20\" inertia_xx=\"0.0125\" inertia_yy=\"0.0125\" "
        "inertia_zz=\"0.0125\"/>\n"
        "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"0.01\" pos_z=\"0.102\" a00=\"0.8660254037844387\" "
        "a10=\"0.5\" a20=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"/>\n" + graphic +
        "<Force_Magnet id=\"2000\" graphic_id=\"200\" magnetization_x=\"3e5\" magnetization_z=\"8e5\" "
        "accuracy=\"1e-8\"" + extra + "/>\n" +
        magnetDeckFooter(1e-8, 1e-8);
    const ContactRun result = runContactDeck(runName, deck);
    EXPECT_TRUE(result.completed);
    return result.bodies;
  };
  const ResultsTable box = run(name + "_box", "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" "
                                              "center_marker_id=\"20\" length_x=\"0.1\" length_y=\"0.1\" "
                                              "length_z=\"0.1\"/>\n");
  const ResultsTable mesh = run(
      name + "_mesh",
      "<Post_Graphic id=\"200\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"8\" num_triangle=\"12\">\n"
      "-0.05 -0.05 -0.05  0.05 -0.05 -0.05  -0.05 0.05 -0.05  0.05 0.05 -0.05\n"
      "-0.05 -0.05 0.05  0.05 -0.05 0.05  -0.05 0.05 0.05  0.05 0.05 0.05\n"
      "0 2 3  0 3 1  4 5 7  4 7 6  0 1 5  0 5 4  2 6 7  2 7 3  0 4 6  0 6 2  1 3 7  1 7 5\n"
      "</Post_Graphic>\n");
  EXPECT_GT(box.rowCount(), 0u);
  EXPECT_GT(mesh.rowCount(), 0u);
  if (box.rowCount() == 0 || mesh.rowCount() == 0) return {};
  return {box.vector3(0, "ax", "ay", "az"), box.vector3(0, "wdx", "wdy", "wdz"), mesh.vector3(0, "ax", "ay", "az"),
          mesh.vector3(0, "wdx", "wdy", "wdz")};
}

// Exact (dipoles_per_axis 0): the mesh cube acts as the Box within 1e-6 (asking 1e-8; the library's mesh force is
// within 5e-10 of the cube's, tests/unit/magnetics_polyhedron_force_test.cpp).
TEST(ForceMagnet, AMeshCubeMagnetActsAsTheBoxItTessellates) {
  const BoxAndMeshAccelerations a = boxAndMeshCubeMagnets("magnet", "");
  EXPECT_GT(a.boxAngular.norm(), 1.0);  // the oblique magnet turns
  EXPECT_LT((a.meshLinear - a.boxLinear).norm(), 1e-6 * a.boxLinear.norm());
  EXPECT_LT((a.meshAngular - a.boxAngular).norm(), 1e-6 * a.boxAngular.norm());
}

// Sampled by 3 × 3 × 3 dipoles, as Westhofen et al. sample a magnet: the mesh cube's cells are the Box's (the grid over
// the box that holds its vertices, every cell centre inside), so the two act alike to round-off; and the samples are
// not the exact magnet (measured 0.62 % apart in acceleration, the Box below 2 mm from the samples' cells).
TEST(ForceMagnet, ASampledMeshCubeMagnetActsAsTheSampledBox) {
  const BoxAndMeshAccelerations sampled = boxAndMeshCubeMagnets("magnet_sampled", " dipoles_per_axis=\"3\"");
  const BoxAndMeshAccelerations exact = boxAndMeshCubeMagnets("magnet_exact", "");
  EXPECT_LT((sampled.meshLinear - sampled.boxLinear).norm(), 1e-9 * sampled.boxLinear.norm());
  EXPECT_LT((sampled.meshAngular - sampled.boxAngular).norm(), 1e-9 * sampled.boxAngular.norm());
  EXPECT_GT((sampled.boxLinear - exact.boxLinear).norm(), 1e-3 * exact.boxLinear.norm());
}

// A magnet on a free body whose CG is its centre, 2 mm above a fixed 0.1 m Box magnet (M_z = 1e6 A/m) and 10 mm aside,
// turned 30° about z by its graphic's marker 21 (`graphic` names it; the marker `markerBelow` its centre, as a
// Cylinder's is at its base), `depth` from its centre down to its lowest point, magnetised obliquely in its own axes:
// its acceleration and angular acceleration at t = 0 are the library's pair loads (magnetics/magnet_pair.h, asked
// 1e-10) over its mass and inertia, within 1e-6 (the deck asks 1e-8), and the deck runs on for a millisecond.
void expectTheDeckMovesAsThePairSays(const std::string& name, const std::string& graphic, const Magnet& magnet,
                                     double depth, double markerBelow) {
  const double cosine = std::sqrt(3.0) / 2, sine = 0.5;
  const Vector3 centre(0.01, 0, 0.05 + 0.002 + depth);
  const std::string at = "pos_x=\"0.01\" pos_z=\"" + formatReal(centre.z()) + "\"";
  const std::string deck =
      magnetDeckHeader(1e-6) +
      groundBoxMagnet(1e-8) +
      "<Body_Rigid id=\"2\" mass=\"0.1\" cg_id=\"20\" inertia_xx=\"2e-5\" inertia_yy=\"2e-5\" "
      "inertia_zz=\"2e-5\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" " + at + "/>\n"
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"0.01\" pos_z=\"" + formatReal(centre.z() - markerBelow) +
      "\" a00=\"" + formatReal(cosine) + "\" a10=\"" +
      formatReal(sine) + "\" a20=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"/>\n" + graphic +
      "<Force_Magnet id=\"2000\" graphic_id=\"200\" magnetization_x=\"" + formatReal(magnet.magnetisation.x()) +
      "\" magnetization_y=\"" + formatReal(magnet.magnetisation.y()) + "\" magnetization_z=\"" +
      formatReal(magnet.magnetisation.z()) + "\" accuracy=\"1e-8\"/>\n" +
      magnetDeckFooter(1e-3, 1e-3);
  const ContactRun run = runContactDeck(name, deck);
  ASSERT_TRUE(run.completed);
  const std::vector<size_t> rows = run.bodies.rowsOfBody(2);
  ASSERT_GE(rows.size(), 2u);  // t = 0 and the end
  const Magnet box{{MagnetShape::Kind::kCuboid, 0, 0, Vector3::Constant(0.05)}, Vector3(0, 0, 1e6)};
  Matrix3 turn;
  turn << cosine, -sine, 0, sine, cosine, 0, 0, 0, 1;
  const MagnetPairLoads loads = magnetPairInteraction(box, MagnetPose{}, magnet, MagnetPose{turn, centre}, 1e-10);
  const Vector3 acceleration = run.bodies.vector3(rows[0], "ax", "ay", "az");
  const Vector3 angular = run.bodies.vector3(rows[0], "wdx", "wdy", "wdz");
  EXPECT_LT((0.1 * acceleration - loads.forceOnSecond).norm(), 1e-6 * loads.forceOnSecond.norm())
      << acceleration.transpose();
  EXPECT_LT((2e-5 * angular - loads.torqueOnSecond).norm(), 1e-6 * loads.torqueOnSecond.norm()) << angular.transpose();
  EXPECT_GT(loads.torqueOnSecond.norm(), 1e-3);  // the oblique magnet turns
}

// A permanent Ellipsoid magnet, exact (dipoles_per_axis 0: its closed-form field and its varying surface charge), semi-
// axes 20, 15 and 10 mm: measured 1.8e-10 in force (104 N) and 7.9e-10 in torque.
TEST(ForceMagnet, AnExactEllipsoidMagnetMovesAsThePairSays) {
  expectTheDeckMovesAsThePairSays(
      "magnet_ellipsoid",
      "<Post_Graphic id=\"200\" type=\"Ellipsoid\" center_marker_id=\"21\" x_scale=\"0.02\" y_scale=\"0.015\" "
      "z_scale=\"0.01\"/>\n",
      Magnet{{MagnetShape::Kind::kEllipsoid, 0, 0, Vector3(0.02, 0.015, 0.01)}, Vector3(3e5, -2e5, 8e5)}, 0.01, 0);
}

// A Cylinder magnet 30 mm across and 20 mm long magnetised across its axis and along it, exact (dipoles_per_axis 0: the
// diametral closed form, the mantle's varying charge): measured 1.6e-12 in force (76 N) and 1.1e-12 in torque.
TEST(ForceMagnet, AnExactObliquelyMagnetisedCylinderMovesAsThePairSays) {
  expectTheDeckMovesAsThePairSays(
      "magnet_diametral_cylinder",
      "<Post_Graphic id=\"200\" type=\"Cylinder\" center_marker_id=\"21\" radius=\"0.015\" length=\"0.02\"/>\n",
      Magnet{{MagnetShape::Kind::kCylinder, 0.015, 0.01, Vector3::Zero()}, Vector3(6e5, -3e5, 4e5)}, 0.01, 0.01);
}

// A Frustum magnet 20 mm high narrowing from 15 to 5 mm in radius, magnetised obliquely, exact (its closed-form field,
// its mantle's charge, leaning, carrying the axial part of M too), its centre the centroid 6.92 mm above its base
// (frustumMagnetShape): upright, and upside down by a negative length, the same solid as an upright frustum narrowing
// the other way, its base's marker 6.92 mm above the centroid. Measured: 2.6e-12 and 5.6e-14 in force (50.5 N and
// 47.1 N), 6.3e-12 and 1.3e-13 in torque; the shape's origin left at the centroid (the overlap test's frustum out of
// place) fails both.
TEST(ForceMagnet, AnExactFrustumMagnetMovesAsThePairSays) {
  const Vector3 magnetisation(3e5, -2e5, 7e5);
  const MagnetShape upright = frustumMagnetShape(0.015, 0.005, 0.02);
  expectTheDeckMovesAsThePairSays("magnet_frustum",
                                  "<Post_Graphic id=\"200\" type=\"Frustum\" center_marker_id=\"21\" "
                                  "bottom_radius=\"0.015\" top_radius=\"0.005\" length=\"0.02\"/>\n",
                                  Magnet{upright, magnetisation}, -upright.bottomZ, -upright.bottomZ);
  const MagnetShape narrowingDown = frustumMagnetShape(0.005, 0.015, 0.02);
  expectTheDeckMovesAsThePairSays("magnet_frustum_upside_down",
                                  "<Post_Graphic id=\"200\" type=\"Frustum\" center_marker_id=\"21\" "
                                  "bottom_radius=\"0.015\" top_radius=\"0.005\" length=\"-0.02\"/>\n",
                                  Magnet{narrowingDown, magnetisation}, -narrowingDown.bottomZ, -narrowingDown.topZ);
}

// A pair whose surface-charge integration runs out of panels says so, naming both magnets with their deck lines and
// the error estimate: a 1 mm cube 1.5 mm above a 5 m plate, asked for 1e-10 (far from a source its field keeps too few
// digits for that: magnetics/cuboid_force.h; measured, the 20 000 panels run out in 1.9 s). Asked for the default
// 1e-4 it converges, silent, to the same force within 1e-4.
TEST(ForceMagnet, APairShortOfItsAccuracyIsReportedNamingBothMagnets) {
  const auto side = [](long id, int line, const Vector3& half, long marker) {
    MagnetPair::Side side;
    side.loc = SourceLoc{"magnets.xml", line, 5, "Force_Magnet", id};
    side.magnet = Magnet{{MagnetShape::Kind::kCuboid, 0, 0, half}, Vector3(0, 0, 1e6)};
    side.shape = Shape::box(half);
    side.markerId = marker;
    side.boundingRadius = half.norm();
    side.volume = 8 * half.prod();
    return side;
  };
  MagnetPair pair;
  pair.first = side(1, 10, Vector3::Constant(0.0005), 11);
  pair.second = side(2, 12, Vector3(2.5, 2.5, 0.005), 12);
  class Markers final : public ExpressionContext {
   public:
    double time() const override { return 0; }
    MarkerMotion marker(int id) const override {
      MarkerMotion motion;
      if (id == 11) motion.position = Vector3(0.3, 0.2, 0.0065);
      return motion;
    }
  } markers;
  pair.accuracy = 1e-10;
  MagnetPairPlan plan;
  const ElementAction strict = magnetPairAction(pair, markers, plan);
  EXPECT_NE(strict.trouble.find("Force_Magnet id=1 (magnets.xml:10:5)"), std::string::npos) << strict.trouble;
  EXPECT_NE(strict.trouble.find("Force_Magnet id=2 (magnets.xml:12:5)"), std::string::npos) << strict.trouble;
  EXPECT_NE(strict.trouble.find("ran out of panels"), std::string::npos) << strict.trouble;
  EXPECT_NE(strict.trouble.find("estimated error"), std::string::npos) << strict.trouble;
  ::testing::Test::RecordProperty("message", strict.trouble);

  pair.accuracy = 1e-4;
  MagnetPairPlan defaultPlan;
  const ElementAction usual = magnetPairAction(pair, markers, defaultPlan);
  EXPECT_EQ(usual.trouble, "");
  EXPECT_GT(usual.force.norm(), 0);
  EXPECT_LT((usual.force - strict.force).norm(), 1e-4 * usual.force.norm());
}

}  // namespace
}  // namespace lodestone::testing

// One law per contact patch, whatever the representation: a cube or a cylinder resting on a box sinks to the law's
// own rest depth (weight = law force, once) as an exact primitive, as a tessellation and as a TriaMesh; DIPOLE cube
// magnets bounce and settle as a 1-D integration of their law applied once; and a disk or a cube face spinning on a
// box brakes with the friction torque of the uniform pressure under it.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include <gtest/gtest.h>

#include "support/contact_runs.h"
#include "support/math_constants.h"

namespace lodestone::testing {
namespace {


// A 1 kg body (graphics and inertia given) over a ground box 1 × 1 × 0.1 m whose top face is z = 0, one contact of
// the given law between them.
struct RestingBody {
  std::string bodyGraphic;  // Post_Graphic id 200 (and its markers, ids 21…) on body 2, CG marker 20
  double height = 0;        // of the CG at t = 0
  double inertia = 1e-3;    // about each axis
  double spin = 0;          // w_ic_z, rad/s
  std::string law;
  std::string contactOptions;  // more Force_Contact attributes (enable_analytical…)
  double endTime = 0.5, printInterval = 0.05;
};

std::string restingDeck(const RestingBody& body) {
  const std::string inertia = formatReal(body.inertia);
  return "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
         "<Force_Gravity grav_z=\"" + formatReal(-kG) + "\"/>\n"
         "<Param_Transient integr_tol=\"1e-7\" h_max=\"1e-3\"/>\n"
         "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.05\"/>\n"
         "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"1\" length_y=\"1\" "
         "length_z=\"0.1\"/>\n"
         "<Body_Rigid id=\"2\" mass=\"1\" cg_id=\"20\" inertia_xx=\"" + inertia + "\" inertia_yy=\"" + inertia +
         "\" inertia_zz=\"" + inertia + "\" w_ic_z=\"" + formatReal(body.spin) + "\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + formatReal(body.height) + "\"/>\n" +
         body.bodyGraphic + "\n"
         "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + body.law + " " +
         body.contactOptions + "/>\n"
         "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"" + formatReal(body.endTime) +
         "\" print_interval=\"" + formatReal(body.printInterval) + "\"/></Command></MultiBodySystem>\n";
}

// IMPACT of stiffness k and exponent e, damped to settle within 0.5 s; its rest depth under 1 kg is (W/k)^(1/e).
struct Impact {
  double stiffness, exponent;
  double restDepth() const { return std::pow(kG / stiffness, 1 / exponent); }
  std::string attributes() const {
    return "cnf_type=\"IMPACT\" stiffness=\"" + formatReal(stiffness) + "\" exponent=\"" + formatReal(exponent) +
           "\" damping=\"400\" dmax=\"1e-6\"";
  }
};
const Impact kLinear{1e6, 1.0};   // rests 9.81 µm deep
const Impact kHertz{1e8, 1.5};    // rests 21.3 µm deep

// The pair's penetration in contacts.csv at the last output.
double finalPenetration(const ContactRun& run) {
  EXPECT_GT(run.contacts.rowCount(), 0u);
  return run.contacts.rowCount() ? run.contacts.at(run.contacts.rowCount() - 1, "penetration") : 0.0;
}

// A 0.1 m cube as a box, as its tessellation and as a TriaMesh of 12 triangles.
const std::string kCubeBox =
    "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.1\" "
    "length_y=\"0.1\" length_z=\"0.1\"/>";
const std::string kCubeMesh =
    "<Post_Graphic id=\"200\" type=\"TriaMesh\" ref_marker_id=\"20\" num_point=\"8\" num_triangle=\"12\">\n"
    "-0.05 -0.05 -0.05  0.05 -0.05 -0.05  0.05 0.05 -0.05  -0.05 0.05 -0.05\n"
    "-0.05 -0.05 0.05  0.05 -0.05 0.05  0.05 0.05 0.05  -0.05 0.05 0.05\n"
    "0 2 1  0 3 2  4 5 6  4 6 7  0 1 5  0 5 4  1 2 6  1 6 5  2 3 7  2 7 6  3 0 4  3 4 7\n"
    "</Post_Graphic>";

TEST(ContactPatch, CubeOnABoxRestsAtTheLawsDepthInEveryForm) {
  struct Form {
    const char* name;
    const std::string& graphic;
    const char* options;
  };
  const Form forms[] = {{"box", kCubeBox, ""},
                        {"tessellated", kCubeBox, "enable_analytical=\"FALSE\""},
                        {"mesh", kCubeMesh, ""}};
  for (const Impact& law : {kLinear, kHertz}) {
    for (const Form& form : forms) {
      const std::string name = std::string("cube_") + form.name + (law.exponent == 1 ? "_linear" : "_hertz");
      const ContactRun run = runContactDeck(
          name, restingDeck({.bodyGraphic = form.graphic, .height = 0.05 - law.restDepth() + 1e-6,
                             .inertia = 1.0 / 600, .law = law.attributes(), .contactOptions = form.options}));
      ASSERT_TRUE(run.completed) << name;
      const double depth = finalPenetration(run);
      EXPECT_NEAR(depth, law.restDepth(), 0.005 * law.restDepth()) << name;
      // The body's own height agrees: the bottom face that deep below the floor's top.
      const double z = run.bodies.at(run.bodies.rowCount() - 1, "z");
      EXPECT_NEAR(0.05 - z, law.restDepth(), 0.005 * law.restDepth()) << name;
      RecordProperty(name + "_depth_relative_error", sci(depth / law.restDepth() - 1));
    }
  }
}

// A cylinder R = 0.05 m, 0.1 m long, lying with its axis along y. Exactly; as its tessellation (16 sides at level
// 0), which stands for the smooth cylinder and so rests as the exact one does; and as the same tessellation with
// every edge sharp (crease_angle="0"), turned so that a side lies flat: the line contact, the smooth surface's line
// and the flat side each carry the law once.
TEST(ContactPatch, CylinderLyingOnABoxRestsAtTheLawsDepth) {
  // The marker's x axis points half a side (π/16) away from straight down, so the side between the tessellation's
  // first two ring vertices lies flat at R·cos(π/16) below the axis.
  const double half = kPi / 16;
  const std::string cylinder =
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_y=\"-0.05\" pos_z=\"HEIGHT\" a00=\"" + formatReal(std::sin(half)) +
      "\" a10=\"0\" a20=\"" + formatReal(-std::cos(half)) +
      "\" a02=\"0\" a12=\"1\" a22=\"0\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Cylinder\" center_marker_id=\"21\" radius=\"0.05\" length=\"0.1\" GRAPHIC/>";
  struct Form {
    const char* name;
    double bottom;  // below the axis
    const char* graphicOptions;
    const char* options;
  };
  const Form forms[] = {{"exact", 0.05, "", ""},
                        {"tessellated", 0.05, "", "enable_analytical=\"FALSE\""},
                        {"faceted", 0.05 * std::cos(half), "crease_angle=\"0\"", "enable_analytical=\"FALSE\""}};
  for (const Impact& law : {kLinear, kHertz}) {
    for (const Form& form : forms) {
      const std::string name = std::string("lying_") + form.name + (law.exponent == 1 ? "_linear" : "_hertz");
      const double height = form.bottom - law.restDepth() + 1e-6;
      std::string graphic = cylinder;
      graphic.replace(graphic.find("HEIGHT"), 6, formatReal(height));
      graphic.replace(graphic.find("GRAPHIC"), 7, form.graphicOptions);
      const ContactRun run = runContactDeck(
          name, restingDeck({.bodyGraphic = graphic, .height = height, .inertia = 1e-3,
                             .law = law.attributes(), .contactOptions = form.options}));
      ASSERT_TRUE(run.completed) << name;
      const double depth = finalPenetration(run);
      EXPECT_NEAR(depth, law.restDepth(), 0.005 * law.restDepth()) << name;
      const double z = run.bodies.at(run.bodies.rowCount() - 1, "z");
      EXPECT_NEAR(form.bottom - z, law.restDepth(), 0.005 * law.restDepth()) << name;
      RecordProperty(name + "_depth_relative_error", sci(depth / law.restDepth() - 1));
    }
  }
}

// Spinning on the box with Coulomb friction μ (slip far above the transition speeds), a face under uniform pressure
// brakes with torque μ·W·r, r its mean distance from the spin axis: α = μ·W·r / I. The deceleration measured between
// two outputs while it still spins gives r.
double measuredFrictionRadius(const ContactRun& run, double inertia, double mu, double from, double to) {
  double spinFrom = 0, spinTo = 0;
  for (size_t row = 0; row < run.bodies.rowCount(); ++row) {
    const double t = run.bodies.at(row, "time");
    if (std::abs(t - from) < 1e-9) spinFrom = run.bodies.at(row, "wz");
    if (std::abs(t - to) < 1e-9) spinTo = run.bodies.at(row, "wz");
  }
  EXPECT_GT(spinTo, 1.0) << "still spinning at the end of the interval";
  return inertia * (spinFrom - spinTo) / (to - from) / (mu * kG);
}

const std::string kFriction =
    "cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.5\" stiction_trans_vel=\"1e-4\" "
    "friction_trans_vel=\"2e-4\"";

// A disk R = 0.1 m (a Cylinder graphic 20 mm thick, standing on its end) spinning at 20 rad/s: r = (2/3)R within 2 %.
TEST(ContactPatch, SpinningDiskBrakesWithTwoThirdsOfItsRadius) {
  const double radius = 0.1, inertia = 0.5 * radius * radius;
  const std::string disk =
      "<Reference_Marker id=\"21\" body_id=\"2\" pos_z=\"" + formatReal(-kLinear.restDepth()) + "\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Cylinder\" center_marker_id=\"21\" radius=\"0.1\" length=\"0.02\"/>";
  const ContactRun run = runContactDeck(
      "spinning_disk", restingDeck({.bodyGraphic = disk, .height = 0.01 - kLinear.restDepth(),
                                    .inertia = inertia, .spin = 20, .law = kLinear.attributes() + " " + kFriction,
                                    .endTime = 0.2, .printInterval = 0.01}));
  ASSERT_TRUE(run.completed);
  const double measured = measuredFrictionRadius(run, inertia, 0.5, 0.05, 0.2);
  EXPECT_NEAR(measured, 2.0 / 3 * radius, 0.02 * 2.0 / 3 * radius);
  RecordProperty("disk_friction_radius_relative_error", sci(measured / (2.0 / 3 * radius) - 1));
}

// The 0.1 m cube spinning on its face: r = (√2 + ln(1 + √2))/6 · a = 0.383·a within 2 %.
TEST(ContactPatch, SpinningCubeFaceBrakesWithTheSquaresMeanRadius) {
  const double side = 0.1, inertia = side * side / 6;
  const double expected = (std::sqrt(2.0) + std::log(1 + std::sqrt(2.0))) / 6 * side;
  const ContactRun run = runContactDeck(
      "spinning_cube", restingDeck({.bodyGraphic = kCubeBox,
                                    .height = 0.05 - kLinear.restDepth(), .inertia = inertia, .spin = 20,
                                    .law = kLinear.attributes() + " " + kFriction, .endTime = 0.12,
                                    .printInterval = 0.01}));
  ASSERT_TRUE(run.completed);
  const double measured = measuredFrictionRadius(run, inertia, 0.5, 0.02, 0.12);
  EXPECT_NEAR(measured, expected, 0.02 * expected);
  RecordProperty("face_friction_radius_relative_error", sci(measured / expected - 1));
}

// Two 20 mm cube magnets (8 A·m² each, moments along z: they attract) as box graphics, the lower one on ground, the
// upper one (60 g) released 2 mm above it. DIPOLE with kn = 1e7 N/m, dp_nratio 0.7 (c = 2·0.7·√(m·kn)) and the
// no-tension dashpot (dp_mode 1). The law
// acts once on the face patch, so the magnet's gap follows m·s̈ = −m·g − F(a + s) + max(0, kn·δ − c·ṡ), δ = −s,
// with F(r) = 3μ0·m²/(2π·r⁴) the coaxial dipoles' attraction: integrated here with RK4 at 10 ns steps.
TEST(ContactPatch, DipoleCubeMagnetsBounceAndSettleAsTheLawAppliedOnce) {
  const double side = 0.02, mass = 0.06, moment = 8, kn = 1e7, ratio = 0.7, start = 0.002;
  const double mu0 = 4e-7 * kPi;
  const double damping = 2 * ratio * std::sqrt(mass * kn);
  const auto acceleration = [&](double gap, double rate) {
    const double r = side + gap;
    const double magnetic = 3 * mu0 * moment * moment / (2 * kPi * std::pow(r, 4));
    const double contact = gap < 0 ? std::max(0.0, -kn * gap - damping * rate) : 0.0;
    return -kG + (contact - magnetic) / mass;
  };
  const double endTime = 0.02, step = 1e-8;
  double gap = start, rate = 0, deepest = 0;
  for (double t = 0; t < endTime - step / 2; t += step) {
    const double k1v = acceleration(gap, rate), k1x = rate;
    const double k2v = acceleration(gap + 0.5 * step * k1x, rate + 0.5 * step * k1v), k2x = rate + 0.5 * step * k1v;
    const double k3v = acceleration(gap + 0.5 * step * k2x, rate + 0.5 * step * k2v), k3x = rate + 0.5 * step * k2v;
    const double k4v = acceleration(gap + step * k3x, rate + step * k3v), k4x = rate + step * k3v;
    gap += step / 6 * (k1x + 2 * k2x + 2 * k3x + k4x);
    rate += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v);
    deepest = std::max(deepest, -gap);
  }
  // At rest the spring carries the weight and the attraction at the centres' distance a − δ.
  double restDepth = 0;
  for (int k = 0; k < 50; ++k) {
    restDepth = (mass * kG + 3 * mu0 * moment * moment / (2 * kPi * std::pow(side - restDepth, 4))) / kn;
  }
  ASSERT_NEAR(-gap, restDepth, 1e-3 * restDepth) << "the reference has settled";

  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Force_Gravity grav_z=\"" + formatReal(-kG) + "\"/>\n"
      "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-4\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.01\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"0.02\" "
      "length_y=\"0.02\" length_z=\"0.02\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.06\" cg_id=\"20\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_z=\"" + formatReal(0.01 + start) + "\"/>\n"
      "<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.02\" "
      "length_y=\"0.02\" length_z=\"0.02\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" kn=\"1e7\" "
      "dp_nratio=\"0.7\" dp_mode=\"1\" dipole_mo1=\"0 0 8\" dipole_mo2=\"0 0 8\" dipole_cap=\"1e-3\" "
      "dipole_d=\"0.01\" cff_type=\"COULOMB_OFF\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.02\" print_interval=\"1e-5\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("dipole_cubes", deck);
  ASSERT_TRUE(run.completed);
  double measuredDeepest = 0;
  for (size_t row = 0; row < run.contacts.rowCount(); ++row) {
    measuredDeepest = std::max(measuredDeepest, run.contacts.at(row, "penetration"));
  }
  const double measuredRest = finalPenetration(run);
  // The deepest point of the first impact, sampled every 10 µs of a contact period of 0.5 ms, and the rest.
  EXPECT_NEAR(measuredDeepest, deepest, 0.01 * deepest);
  EXPECT_NEAR(measuredRest, restDepth, 1e-3 * restDepth);
  RecordProperty("deepest_relative_error", sci(measuredDeepest / deepest - 1));
  RecordProperty("rest_relative_error", sci(measuredRest / restDepth - 1));
}

}  // namespace
}  // namespace lodestone::testing

// DIPOLE magnets through the whole system (deck, graphics, evaluator, contacts.csv), against the closed-form
// dipole-dipole force and moments of REFERENCE §3, at t = 0 where nothing has moved yet.
#include <cmath>
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "solver/core/rotation.h"
#include "support/contact_runs.h"

namespace lodestone::testing {
namespace {

constexpr double kMu0Over4Pi = 1e-7;  // N/A², NEWTON deck
constexpr double kDistance = 0.1;     // m between the dipoles, along ground x

struct MagnetPair {
  std::string name;
  std::string momentI, momentJ;  // "mx my mz", in each body's axes
  bool iAtOrigin = true;         // false: the I graphic is the one at r·x̂ (I and J swapped)
  bool turnedMarkers = false;    // the sphere centre markers turned 90° about z relative to their bodies
  double cgOffsetI = 0;          // the I body's CG at −offset·x̂ from its graphic (a lever arm)
};


// Two free 0.1 kg bodies, no gravity, a sphere of radius 10 mm on each (80 mm apart: no contact), one DIPOLE
// element. Body 2 sits at the origin, body 3 at r·x̂.
ResultsTable runMagnets(const MagnetPair& pair) {
  const std::string turn = pair.turnedMarkers ? " a00=\"0\" a10=\"1\" a20=\"0\" a02=\"0\" a12=\"0\" a22=\"1\"" : "";
  const double offset2 = pair.iAtOrigin ? pair.cgOffsetI : 0;
  const double offset3 = pair.iAtOrigin ? 0 : pair.cgOffsetI;
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Param_Unit force_unit=\"NEWTON\" mass_unit=\"KILOGRAM\" length_unit=\"METER\" time_unit=\"SECOND\"/>\n"
      "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.1\" cg_id=\"20\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\" pos_x=\"" + formatReal(-offset2) + "\"/>\n"
      "<Reference_Marker id=\"21\" body_id=\"2\"" + turn + "/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"21\" radius=\"0.01\"/>\n"
      "<Body_Rigid id=\"3\" mass=\"0.1\" cg_id=\"30\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"30\" body_id=\"3\" pos_x=\"" + formatReal(kDistance - offset3) + "\"/>\n"
      "<Reference_Marker id=\"31\" body_id=\"3\" pos_x=\"" + formatReal(kDistance) + "\"" + turn + "/>\n"
      "<Post_Graphic id=\"201\" type=\"Sphere\" center_marker_id=\"31\" radius=\"0.01\"/>\n"
      "<Force_Contact id=\"400\" i_graphics_id=\"" + std::string(pair.iAtOrigin ? "200" : "201") +
      "\" j_graphics_id=\"" + std::string(pair.iAtOrigin ? "201" : "200") +
      "\" cnf_type=\"DIPOLE\" kn=\"1e3\" dp_nratio=\"0\" dipole_mo1=\"" + pair.momentI + "\" dipole_mo2=\"" +
      pair.momentJ + "\" dipole_cap=\"1e-3\" dipole_d=\"1\" cff_type=\"COULOMB_OFF\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.01\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("dipole_" + pair.name, deck);
  EXPECT_TRUE(run.completed);
  return run.contacts;
}

// Each component within 1e-9 of the expected vector's magnitude (contacts.csv row 0 is t = 0).
void expectVector(const ResultsTable& contacts, const char* x, const char* y, const char* z, const Vector3& expected,
                  const char* what) {
  ASSERT_GT(contacts.rowCount(), 0u);
  ASSERT_EQ(contacts.at(0, "time"), 0.0);
  const Vector3 measured = contacts.vector3(0, x, y, z);
  EXPECT_LT((measured - expected).norm(), 1e-9 * expected.norm())
      << what << ": measured " << measured.transpose() << ", expected " << expected.transpose();
  ::testing::Test::RecordProperty(std::string(what) + "_relative_error",
                                  sci((measured - expected).norm() / expected.norm()));
}

// Coaxial, aligned (both x̂, 1 A·m²): attraction |F| = 3μ0·m1·m2/(2π r⁴) = 6e-3 N, on I towards J (+x). No
// moment (m × n = 0 for both).
TEST(ContactDipole, CoaxialAlignedDipolesAttract) {
  const ResultsTable contacts = runMagnets({"coaxial", "1 0 0", "1 0 0"});
  expectVector(contacts, "fx", "fy", "fz", Vector3(6 * kMu0Over4Pi / std::pow(kDistance, 4), 0, 0), "force");
  ASSERT_GT(contacts.rowCount(), 0u);
  EXPECT_LT(contacts.vector3(0, "tx", "ty", "tz").norm(), 1e-12);
}

// m1 = ẑ at the origin, m2 = x̂ at r·x̂: F2 = 3μ0/(4πr⁴)·ẑ (so F1 = −F2 on I), M1 = 2μ0/(4πr³)·ŷ on I.
TEST(ContactDipole, PerpendicularDipolesGiveTheClosedFormForceAndMomentOnI) {
  const ResultsTable contacts = runMagnets({"perpendicular", "0 0 1", "1 0 0"});
  expectVector(contacts, "fx", "fy", "fz", Vector3(0, 0, -3 * kMu0Over4Pi / std::pow(kDistance, 4)), "force");
  expectVector(contacts, "tx", "ty", "tz", Vector3(0, 2 * kMu0Over4Pi / std::pow(kDistance, 3), 0), "moment");
}

// The same magnets with I and J swapped, so contacts.csv reports the x̂ dipole's side: F2 = +3μ0/(4πr⁴)·ẑ and
// M2 = μ0/(4πr³)·ŷ.
TEST(ContactDipole, PerpendicularDipolesGiveTheClosedFormForceAndMomentOnJ) {
  const ResultsTable contacts = runMagnets({"perpendicular_swapped", "1 0 0", "0 0 1", false});
  expectVector(contacts, "fx", "fy", "fz", Vector3(0, 0, 3 * kMu0Over4Pi / std::pow(kDistance, 4)), "force");
  expectVector(contacts, "tx", "ty", "tz", Vector3(0, kMu0Over4Pi / std::pow(kDistance, 3), 0), "moment");
}

// Moments are in the body's axes (REFERENCE §3: "dipole_mo1 is in the I body's frame"): turning the sphere centre
// markers relative to their bodies changes nothing. With the I body's CG 50 mm behind its dipole, the torque
// about the CG adds the lever arm (0.05·x̂) × F1 = +1.5e-4·ŷ to M1.
TEST(ContactDipole, MomentsAreInBodyAxesAndTheTorqueIncludesTheLeverArm) {
  const double offset = 0.05;
  const ResultsTable contacts = runMagnets({"body_axes", "0 0 1", "1 0 0", true, true, offset});
  const Vector3 force(0, 0, -3 * kMu0Over4Pi / std::pow(kDistance, 4));
  expectVector(contacts, "fx", "fy", "fz", force, "force");
  expectVector(contacts, "tx", "ty", "tz",
               Vector3(0, 2 * kMu0Over4Pi / std::pow(kDistance, 3), 0) + Vector3(offset, 0, 0).cross(force),
               "moment");
}

// contacts.csv writes the pairs within reach only: a third magnet 2 m away, beyond dipole_d = 0.5 m, has no row,
// while the pair 0.1 m apart has one per output (two outputs).
TEST(ContactDipole, OnlyPairsWithinTheFieldRangeAreWritten) {
  const std::string deck =
      "<?xml version=\"1.0\"?>\n<MultiBodySystem><Model>\n"
      "<Param_Transient integr_tol=\"1e-8\" h_max=\"1e-3\"/>\n"
      "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
      "<Body_Rigid id=\"2\" mass=\"0.1\" cg_id=\"20\" inertia_xx=\"4e-6\" inertia_yy=\"4e-6\" inertia_zz=\"4e-6\"/>\n"
      "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.01\"/>\n"
      "<Reference_Marker id=\"30\" body_id=\"1\" pos_x=\"0.1\"/>\n"
      "<Post_Graphic id=\"201\" type=\"Sphere\" center_marker_id=\"30\" radius=\"0.01\"/>\n"
      "<Reference_Marker id=\"40\" body_id=\"1\" pos_x=\"2\"/>\n"
      "<Post_Graphic id=\"202\" type=\"Sphere\" center_marker_id=\"40\" radius=\"0.01\"/>\n"
      "<Force_Contact id=\"400\" i_graphics_id=\"200\" j_graphics_id=\"201 202\" cnf_type=\"DIPOLE\" kn=\"1e3\" "
      "dp_nratio=\"0\" dipole_mo1=\"1 0 0\" dipole_mo2=\"1 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.5\" "
      "cff_type=\"COULOMB_OFF\"/>\n"
      "</Model><Command><Simulate analysis_type=\"Transient\" end_time=\"0.01\" print_interval=\"0.01\"/>"
      "</Command></MultiBodySystem>\n";
  const ContactRun run = runContactDeck("dipole_within_reach", deck);
  ASSERT_TRUE(run.completed);
  ASSERT_EQ(run.contacts.rowCount(), 2u);
  for (size_t row = 0; row < run.contacts.rowCount(); ++row) {
    EXPECT_EQ(run.contacts.at(row, "j_graphic"), 201) << "t=" << run.contacts.at(row, "time");
    EXPECT_GT(run.contacts.at(row, "fx"), 0) << "the near magnet attracts";
  }
}

}  // namespace
}  // namespace lodestone::testing

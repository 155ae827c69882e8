// Body_Point in decks: what the model is built from it (a point body at its CG marker, ground's axes, its initial
// velocity), its markers' body_type, and the errors a deck gets on the element's line — a missing cg_id or mass,
// a marker naming a Body_Point that is not there, a Body_Rigid with the same id, and joints or motions that would
// hold or drive a point mass's rotation; a Contact_Surface naming it by body_id.
#include <gtest/gtest.h>

#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Line 3: ground; line 4: a ground marker; line 5: the point body's CG marker (turned: ψ = 0.3), line 6: another
// marker on it; line 7: the point body.
std::string groundAndPointBody(const std::string& pointBody = "<Body_Point id=\"2\" cg_id=\"20\" mass=\"2\" "
                                                              "v_ic_x=\"1\" v_ic_y=\"2\" v_ic_z=\"3\"/>") {
  return "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
         "<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
         "<Reference_Marker id=\"20\" body_id=\"2\" body_type=\"POINTBODY\" pos_x=\"1\" pos_y=\"2\" pos_z=\"3\" "
         "psi=\"0.3\"/>\n"
         "<Reference_Marker id=\"21\" body_id=\"2\" body_type=\"PointBody\" pos_x=\"1\" pos_y=\"2.5\" pos_z=\"3\"/>\n" +
         pointBody;
}

std::optional<Model> build(const std::string& model, Diagnostics& diagnostics) {
  ReadResult result = readText(deck(model));
  diagnostics = result.diagnostics;
  if (!result.spec) return std::nullopt;
  return buildModel(*result.spec, diagnostics);
}

TEST(BodyPointDeck, BuildsAPointBodyAtItsCgMarkerWithGroundAxes) {
  Diagnostics diagnostics;
  const std::optional<Model> model = build(groundAndPointBody(), diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  ASSERT_EQ(model->bodies.size(), 1u);
  const RigidBody& point = model->bodies.front();
  EXPECT_TRUE(point.point);
  EXPECT_EQ(point.id, 2);
  EXPECT_STREQ(point.element(), "Body_Point");
  EXPECT_EQ(point.mass, 2);
  EXPECT_TRUE(point.inertia.isZero());
  EXPECT_EQ(point.position, Vector3(1, 2, 3));
  EXPECT_EQ(point.eulerParameters, Vector4(1, 0, 0, 0)) << "the CG marker's ψ = 0.3 does not turn the point body";
  EXPECT_EQ(point.velocity, Vector3(1, 2, 3));
  EXPECT_TRUE(point.angularVelocity.isZero());
  // Its markers keep their own orientation, fixed in the (ground-aligned) point body's frame.
  const Marker* cg = model->marker(20);
  const Marker* other = model->marker(21);
  ASSERT_TRUE(cg && other);
  EXPECT_EQ(cg->body, 0);
  EXPECT_EQ(other->body, 0);
  EXPECT_TRUE(other->position.isApprox(Vector3(0, 0.5, 0)));
  EXPECT_NEAR(cg->orientation(0, 0), std::cos(0.3), 1e-15);
}

TEST(BodyPointDeck, MissingCgIdIsAnErrorOnItsLine) {
  const Diagnostics diagnostics = readAndBuildDeck(deck(groundAndPointBody("<Body_Point id=\"2\" mass=\"2\"/>")));
  EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 7, "Body_Point id=2: a point body needs cg_id"));
  // Said also beside an unreadable mass: the message names no other attribute.
  const Diagnostics both = readAndBuildDeck(deck(groundAndPointBody("<Body_Point id=\"2\" mass=\"-1\"/>")));
  EXPECT_TRUE(hasDiagnostic(both, Severity::Error, 7, "a point body needs cg_id"));
}

TEST(BodyPointDeck, MassMustBePositive) {
  for (const std::string mass : {"0", "-1"}) {
    const Diagnostics diagnostics =
        readAndBuildDeck(deck(groundAndPointBody("<Body_Point id=\"2\" cg_id=\"20\" mass=\"" + mass + "\"/>")));
    EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 7, "deck.xml:7:1: Body_Point id=2: attribute 'mass'"))
        << "mass=" << mass;
  }
  const Diagnostics missing = readAndBuildDeck(deck(groundAndPointBody("<Body_Point id=\"2\" cg_id=\"20\"/>")));
  EXPECT_TRUE(hasDiagnostic(missing, Severity::Error, 7, "a point body needs mass > 0"));
}

TEST(BodyPointDeck, MarkerOnAMissingPointBodyIsAnError) {
  const Diagnostics diagnostics = readAndBuildDeck(
      deck(groundAndPointBody() + "\n<Reference_Marker id=\"30\" body_id=\"9\" body_type=\"POINTBODY\"/>"));
  EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 8,
                            "Reference_Marker id=30: attribute 'body_id' refers to Body_Point id=9, which is not "
                            "defined"));
}

// body_type tells which element body_id names: a RigidBody marker naming a Body_Point's id names a Body_Rigid.
TEST(BodyPointDeck, BodyTypeChoosesWhichBodiesTheIdNames) {
  const Diagnostics diagnostics =
      readAndBuildDeck(deck(groundAndPointBody() + "\n<Reference_Marker id=\"30\" body_id=\"2\"/>"));
  EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 8, "refers to Body_Rigid id=2, which is not defined"));
}

TEST(BodyPointDeck, CgMarkerMustSayPointBody) {
  const std::string model = "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
                            "<Reference_Marker id=\"20\" body_id=\"1\"/>\n"
                            "<Body_Point id=\"1\" cg_id=\"20\" mass=\"2\"/>";
  const Diagnostics diagnostics = readAndBuildDeck(deck(model));
  EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 5, "Body_Point id=1"));
}

// Results, requests and messages name a body by its id: a Body_Rigid and a Body_Point may not share one.
TEST(BodyPointDeck, AnIdSharedWithABodyRigidIsRefused) {
  const std::string model = groundAndPointBody() +
                            "\n<Reference_Marker id=\"30\" body_id=\"2\"/>"
                            "\n<Body_Rigid id=\"2\" cg_id=\"30\" mass=\"1\" inertia_xx=\"1\" inertia_yy=\"1\" "
                            "inertia_zz=\"1\"/>";
  const Diagnostics diagnostics = readAndBuildDeck(deck(model));
  EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 7,
                            "Body_Point id=2: Body_Rigid id=2 (deck.xml:9:1) has the same id"));
}

TEST(BodyPointDeck, JointsThatHoldItsRotationAreRefusedAtTheirLine) {
  struct Case {
    std::string statement, expected;
  };
  const std::vector<Case> cases = {
      {"<Constraint_Joint id=\"7\" type=\"REVOLUTE\" i_marker_id=\"21\" j_marker_id=\"10\"/>",
       "deck.xml:8:1: Constraint_Joint id=7: type REVOLUTE constrains a rotation"},
      {"<Constraint_Joint id=\"7\" type=\"FIXED\" i_marker_id=\"10\" j_marker_id=\"21\"/>",
       "Constraint_Joint id=7: type FIXED constrains a rotation"},
      {"<Constraint_Jprim id=\"7\" type=\"PERPENDICULAR\" i_marker_id=\"21\" j_marker_id=\"10\"/>",
       "Constraint_Jprim id=7: type PERPENDICULAR constrains a rotation"},
      {"<Motion_Marker id=\"7\" i_marker_id=\"21\" j_marker_id=\"10\" direction=\"B1\" expr=\"0\"/>",
       "Motion_Marker id=7: prescribes a rotation"},
  };
  for (const Case& c : cases) {
    const Diagnostics diagnostics = readAndBuildDeck(deck(groundAndPointBody() + "\n" + c.statement));
    EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 8, c.expected)) << c.statement;
    EXPECT_TRUE(hasDiagnostic(diagnostics, Severity::Error, 8, "Body_Point id=2, whose orientation never changes"))
        << c.statement;
  }
}

TEST(BodyPointDeck, JointsOnWhereItIsAreAccepted) {
  for (const std::string statement :
       {"<Constraint_Joint id=\"7\" type=\"SPHERICAL\" i_marker_id=\"21\" j_marker_id=\"10\"/>",
        "<Constraint_Jprim id=\"7\" type=\"ATPOINT\" i_marker_id=\"21\" j_marker_id=\"10\"/>",
        "<Constraint_Jprim id=\"7\" type=\"INLINE\" i_marker_id=\"21\" j_marker_id=\"10\"/>",
        "<Constraint_Jprim id=\"7\" type=\"INPLANE\" i_marker_id=\"21\" j_marker_id=\"10\"/>"}) {
    const Diagnostics diagnostics = readAndBuildDeck(deck(groundAndPointBody() + "\n" + statement));
    EXPECT_EQ(diagnostics.errorCount(), 0) << statement << "\n" << diagnostics.formatAll();
  }
}

// A Contact_Surface's body_id names a body of either kind (the two share no id): line 8 a sphere on the point body,
// line 9 a box on ground, line 10 their contact, line 11 ground's surface, line 12 the point body's.
TEST(BodyPointDeck, AContactSurfaceNamesAPointBodyByItsId) {
  const std::string pieces =
      "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"/>\n"
      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"10\" length_x=\"1\" length_y=\"1\" "
      "length_z=\"1\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" dp_nratio=\"1\" "
      "dipole_mo1=\"0 0 0\" dipole_mo2=\"0 0 0\" dipole_cap=\"1e-3\" dipole_d=\"0.01\" cff_type=\"COULOMB_OFF\"/>\n"
      "<Contact_Surface id=\"3\" body_id=\"1\" kn=\"1e5\"/>\n";
  const Diagnostics named =
      readAndBuildDeck(deck(groundAndPointBody() + pieces + "<Contact_Surface id=\"1\" body_id=\"2\" kn=\"1e5\"/>"));
  EXPECT_EQ(named.errorCount(), 0) << named.formatAll();
  const Diagnostics missing =
      readAndBuildDeck(deck(groundAndPointBody() + pieces + "<Contact_Surface id=\"1\" body_id=\"9\" kn=\"1e5\"/>"));
  EXPECT_TRUE(hasDiagnostic(missing, Severity::Error, 12,
                            "attribute 'body_id' refers to Body_Rigid or Body_Point id=9, which is not defined"));
  const Diagnostics twice = readAndBuildDeck(deck(groundAndPointBody() + pieces +
                                                  "<Contact_Surface id=\"1\" body_id=\"2\" kn=\"1e5\"/>\n"
                                                  "<Contact_Surface id=\"2\" body_id=\"2\" fric=\"0.3\"/>"));
  EXPECT_TRUE(hasDiagnostic(twice, Severity::Error, 13, "Body_Point id=2 has a surface already (Contact_Surface id=1"));
}

}  // namespace
}  // namespace lodestone::testing

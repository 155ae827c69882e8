// Force_Contact: the reader's checks (law parameters from the law descriptors, lists, references, keywords), the
// model builder's checks (laws' rules between parameters, pairs that can never touch, graphics that cannot be
// contact geometry) and commands that change an element between simulations.
#include <filesystem>
#include <fstream>

#include <unistd.h>

#include "solver/driver/contact_interference.h"
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Line 3–5: ground and body 2 (marker 20); 6: ground marker 11; 7–8: two ground boxes; 9: a sphere on body 2;
// 10: the Force_Contact.
constexpr int kContactLine = 10;
constexpr int kFirstCommandLine = kContactLine + 3;  // "</Model>", "<Command>", then the commands

std::string contactModel(const std::string& contactAttributes) {
  return groundAndBody() +
         "\n<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>"
         "\n<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
         "length_y=\"2\" length_z=\"1\"/>"
         "\n<Post_Graphic id=\"101\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"4\" "
         "length_y=\"4\" length_z=\"0.5\"/>"
         "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>"
         "\n<Force_Contact id=\"300\" " +
         contactAttributes + "/>";
}

const std::string kImpact = "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"";
const std::string kBallOnBox = "i_graphics_id=\"200\" j_graphics_id=\"100\" ";

TEST(ForceContact, AWellFormedElementReadsAndBuildsCleanly) {
  const ReadResult result = readText(deck(contactModel(kBallOnBox + kImpact)));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*result.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  ASSERT_TRUE(model->contacts);
  ASSERT_EQ(model->contacts->elements.size(), 1u);
  EXPECT_EQ(model->contacts->elements[0].normalLaw->keyword, "IMPACT");
  EXPECT_EQ(model->contacts->elements[0].frictionLaw->keyword, "COULOMB_OFF") << "cff_type defaults to no friction";
}

TEST(ForceContact, ImpactNeedsItsStiffness) {
  const ReadResult result = readText(
      deck(contactModel(kBallOnBox + "cnf_type=\"IMPACT\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"")));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine, "missing required attribute 'stiffness'"));
}

TEST(ForceContact, NegativeExponentIsOutOfRange) {
  const ReadResult result = readText(
      deck(contactModel(kBallOnBox + "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"-1.5\" damping=\"10\" "
                                     "dmax=\"1e-4\"")));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine, "attribute 'exponent' must be >= 1 (got -1.5)"));
}

TEST(ForceContact, RestitutionCoefficientMustLieInZeroToOne) {
  for (const char* value : {"1.5", "-0.1"}) {
    const ReadResult result = readText(deck(contactModel(
        kBallOnBox + "cnf_type=\"POISSON\" penalty=\"1e7\" restitution_coef=\"" + value + "\"")));
    EXPECT_FALSE(result.spec) << value;
    EXPECT_TRUE(hasError(result.diagnostics, kContactLine,
                         std::string("attribute 'restitution_coef' must be >= 0 and <= 1 (got ") + value + ")"));
  }
}

// IPC's barrier needs a positive stiffness and thickness (a zero thickness would never act, a negative one would
// act only through overlap); each bad value is refused at the element's line, and a good element reaches out to d̂.
TEST(ForceContact, IpcRefusesNonPositiveParametersAndReachesToItsThickness) {
  for (const char* value : {"0", "-1"}) {
    const ReadResult stiffness = readText(
        deck(contactModel(kBallOnBox + "cnf_type=\"IPC\" ipc_stiffness=\"" + value + "\" ipc_thickness=\"1e-3\"")));
    EXPECT_FALSE(stiffness.spec) << value;
    EXPECT_TRUE(hasError(stiffness.diagnostics, kContactLine,
                         std::string("attribute 'ipc_stiffness' must be > 0 (got ") + value + ")"))
        << stiffness.diagnostics.formatAll();
    const ReadResult thickness = readText(
        deck(contactModel(kBallOnBox + "cnf_type=\"IPC\" ipc_stiffness=\"1e6\" ipc_thickness=\"" + value + "\"")));
    EXPECT_FALSE(thickness.spec) << value;
    EXPECT_TRUE(hasError(thickness.diagnostics, kContactLine,
                         std::string("attribute 'ipc_thickness' must be > 0 (got ") + value + ")"))
        << thickness.diagnostics.formatAll();
  }
  const ReadResult missing = readText(deck(contactModel(kBallOnBox + "cnf_type=\"IPC\" ipc_stiffness=\"1e6\"")));
  EXPECT_FALSE(missing.spec);
  EXPECT_TRUE(hasError(missing.diagnostics, kContactLine, "missing required attribute 'ipc_thickness'"));

  const ReadResult good =
      readText(deck(contactModel(kBallOnBox + "cnf_type=\"ipc\" ipc_stiffness=\"1e6\" ipc_thickness=\"2e-3\"")));
  ASSERT_TRUE(good.spec) << good.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*good.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_EQ(model->contacts->elements[0].normalLaw->keyword, "IPC");
  EXPECT_EQ(model->contacts->elements[0].options.fieldRange, 2e-3) << "the barrier acts out to ipc_thickness";
}

TEST(ForceContact, StictionTransitionMustBeBelowFrictionTransitionAtModelBuild) {
  // Each value is in range on its own: only the law's rule between the two, checked when the model is built,
  // can say what is wrong.
  const Diagnostics diagnostics = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact +
      " cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" stiction_trans_vel=\"0.2\" "
      "friction_trans_vel=\"0.1\"")));
  EXPECT_TRUE(hasError(diagnostics, kContactLine,
                       "stiction_trans_vel (0.2) must be smaller than friction_trans_vel (0.1)"));
  // Equal is no better: the STEP from μs to μd would have no width.
  const Diagnostics equal = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact +
      " cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" stiction_trans_vel=\"0.1\" "
      "friction_trans_vel=\"0.1\"")));
  EXPECT_TRUE(hasError(equal, kContactLine, "stiction_trans_vel (0.1) must be smaller than friction_trans_vel (0.1)"));
}

// LINEAR_SHEAR's attributes are read into its values in table order (dp_sratio and dp_mode default to 0); each bad
// value is refused at the element's line: ks must be positive, ks and fric left out must be inherited (below) or set by
// DIPOLE's emod and kratio (ks), fric is not negative, dp_sratio lies in
// [0, 1] (PFC's range), and dp_mode is one of PFC's modes 0 to 3 (a fraction only the law's check can refuse).
TEST(ForceContact, LinearShearReadsItsParametersAndRefusesBadOnes) {
  const ReadResult good = readText(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"LINEAR_SHEAR\" ks=\"1e5\" fric=\"0.5\" dp_sratio=\"0.2\" dp_mode=\"2\"")));
  ASSERT_TRUE(good.spec) << good.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*good.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_TRUE(diagnostics.entries().empty()) << diagnostics.formatAll();
  const ForceContact& element = model->contacts->elements[0];
  EXPECT_EQ(element.frictionLaw->keyword, "LINEAR_SHEAR");
  EXPECT_EQ(element.frictionValues, (std::vector<double>{1e5, 0.5, 0.2, 2}));
  const ReadResult defaults =
      readText(deck(contactModel(kBallOnBox + kImpact + " cff_type=\"linear_shear\" ks=\"1e5\" fric=\"0.5\"")));
  ASSERT_TRUE(defaults.spec) << defaults.diagnostics.formatAll();
  const std::optional<Model> byDefault = buildModel(*defaults.spec, diagnostics);
  ASSERT_TRUE(byDefault);
  EXPECT_EQ(byDefault->contacts->elements[0].frictionValues[2], 0) << "dp_sratio";
  EXPECT_EQ(byDefault->contacts->elements[0].frictionValues[3], 0) << "dp_mode";

  const auto refused = [](const std::string& attributes, const std::string& message) {
    const Diagnostics found = readAndBuildDeck(deck(contactModel(kBallOnBox + kImpact + " cff_type=\"LINEAR_SHEAR\" " +
                                                                 attributes)));
    EXPECT_TRUE(hasError(found, kContactLine, message)) << attributes << "\n" << found.formatAll();
  };
  refused("ks=\"0\" fric=\"0.5\"", "attribute 'ks' must be > 0 (got 0)");
  refused("ks=\"-1e5\" fric=\"0.5\"", "attribute 'ks' must be > 0 (got -1e+05)");
  // Left out, ks and fric are for the pieces to give (Contact_Surface): here they hold nothing.
  refused("fric=\"0.5\"", "ks is not given, and Post_Graphic id=200 and id=100 do not both hold it");
  refused("ks=\"1e5\"", "fric is not given, and Post_Graphic id=200 and id=100 do not both hold it");
  refused("ks=\"1e5\" fric=\"-0.1\"", "attribute 'fric' must be >= 0 (got -0.1)");
  refused("ks=\"1e5\" fric=\"0.5\" dp_sratio=\"1.5\"", "attribute 'dp_sratio' must be >= 0 and <= 1 (got 1.5)");
  refused("ks=\"1e5\" fric=\"0.5\" dp_mode=\"4\"", "attribute 'dp_mode' must be >= 0 and <= 3 (got 4)");
  refused("ks=\"1e5\" fric=\"0.5\" dp_mode=\"1.5\"", "dp_mode (1.5) must be one of 0, 1, 2, 3");
  const Diagnostics noFriction = readAndBuildDeck(
      deck(contactModel(kBallOnBox + kImpact + " cff_type=\"LINEAR_SHEAR\" ks=\"1e5\" fric=\"0\"")));
  EXPECT_TRUE(hasWarning(noFriction, kContactLine,
                         "cff_type=\"LINEAR_SHEAR\": fric is 0: the law gives no friction; "
                         "cff_type=\"COULOMB_OFF\" says so"))
      << noFriction.formatAll();
}

// DIPOLE's PFC attributes: rgap, dp_mode and lin_mode land in their slots (defaults 0). dp_mode is one attribute read
// by both halves of PFC's linear dipole model, DIPOLE's normal dashpot and LINEAR_SHEAR's shear one, so a deck cannot
// give the two contradictory modes: dp_mode="3" is 3 in both laws' values. Bad values are refused at the element's
// line.
TEST(ForceContact, DipoleReadsThePfcModesAndSharesDpModeWithLinearShear) {
  const std::string dipole = "cnf_type=\"DIPOLE\" kn=\"1e5\" dipole_mo1=\"0 0 1\" dipole_mo2=\"0 0 1\" "
                             "dipole_cap=\"0.01\" dipole_d=\"0.01\" ";
  const ReadResult good = readText(deck(contactModel(
      kBallOnBox + dipole + "rgap=\"-1e-4\" lin_mode=\"1\" dp_mode=\"3\" cff_type=\"LINEAR_SHEAR\" ks=\"1e5\" "
                            "fric=\"0.5\"")));
  ASSERT_TRUE(good.spec) << good.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*good.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_TRUE(diagnostics.entries().empty()) << diagnostics.formatAll();
  const ForceContact& element = model->contacts->elements[0];
  const std::vector<double> pfc(element.normalValues.begin() + 10, element.normalValues.end());
  EXPECT_EQ(pfc, (std::vector<double>{-1e-4, 3, 1, 0, 0})) << "rgap, dp_mode, lin_mode, emod, kratio";
  EXPECT_EQ(element.frictionValues[3], 3) << "LINEAR_SHEAR's dp_mode is the same attribute";
  const ReadResult defaults = readText(deck(contactModel(kBallOnBox + dipole)));
  ASSERT_TRUE(defaults.spec) << defaults.diagnostics.formatAll();
  const std::optional<Model> byDefault = buildModel(*defaults.spec, diagnostics);
  ASSERT_TRUE(byDefault);
  const std::vector<double>& values = byDefault->contacts->elements[0].normalValues;
  EXPECT_EQ(std::vector<double>(values.begin() + 10, values.end()), (std::vector<double>{0, 0, 0, 0, 0}));

  const auto refused = [&](const std::string& attributes, const std::string& message) {
    const Diagnostics found = readAndBuildDeck(deck(contactModel(kBallOnBox + dipole + attributes)));
    EXPECT_TRUE(hasError(found, kContactLine, message)) << attributes << "\n" << found.formatAll();
  };
  refused("dp_mode=\"4\"", "attribute 'dp_mode' must be >= 0 and <= 3 (got 4)");
  refused("dp_mode=\"0.5\"", "cnf_type=\"DIPOLE\": dp_mode (0.5) must be one of 0, 1, 2, 3");
  refused("lin_mode=\"2\"", "attribute 'lin_mode' must be >= 0 and <= 1 (got 2)");
  refused("lin_mode=\"0.5\"", "cnf_type=\"DIPOLE\": lin_mode (0.5) must be one of 0 (absolute) or 1 (incremental)");
  refused("rgap=\"1e-3\"",
          "cnf_type=\"DIPOLE\": rgap (0.001) > 0 would make the contact act before the surfaces touch");
}

// PFC's deformability method: DIPOLE's emod instead of kn (not both, not neither), kratio only with emod, and then
// LINEAR_SHEAR's ks comes from kratio (the deck must not give it too). emod's kn is defined for pairs with a ball: a
// sphere against the box is fine, a box against a box is refused naming the two graphics.
// Contact_Surface (ours): one of graphic_id and body_id, some property, three numbers for dipole_mo, one surface per
// graphic and per body; each refusal at the surface's own line (line 10 here, before the Force_Contact at 11).
TEST(ForceContact, ContactSurfaceRefusesBadSurfaces) {
  const auto surfaceDeck = [](const std::string& surfaces) {
    return deck(groundAndBody() +
                "\n<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>"
                "\n<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
                "length_y=\"2\" length_z=\"1\"/>"
                "\n<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.03\"/>" +
                surfaces +
                "\n<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"DIPOLE\" "
                "dipole_cap=\"0.01\" dipole_d=\"0.01\"/>");
  };
  constexpr int kSurfaceLine = 9;
  const Diagnostics good = readAndBuildDeck(surfaceDeck("\n<Contact_Surface id=\"1\" body_id=\"2\" kn=\"1e5\"/>"
                                                        "\n<Contact_Surface id=\"2\" graphic_id=\"100\" kn=\"1e5\"/>"));
  EXPECT_FALSE(good.hasErrors()) << good.formatAll();
  const auto refused = [&](const std::string& surface, int line, const std::string& message) {
    const Diagnostics found = readAndBuildDeck(surfaceDeck(surface));
    EXPECT_TRUE(hasError(found, line, message)) << surface << "\n" << found.formatAll();
  };
  refused("\n<Contact_Surface id=\"1\" graphic_id=\"200\" body_id=\"2\" kn=\"1e5\"/>", kSurfaceLine,
          "Contact_Surface id=1: give graphic_id (one graphic's surface) or body_id (all the graphics of a body), "
          "one of them");
  refused("\n<Contact_Surface id=\"1\" graphic_id=\"200\"/>", kSurfaceLine,
          "the surface holds no property: give kn, ks, fric or dipole_mo");
  refused("\n<Contact_Surface id=\"1\" graphic_id=\"200\" dipole_mo=\"1 0\"/>", kSurfaceLine,
          "attribute 'dipole_mo' needs 3 numbers (x y z), got 2");
  refused("\n<Contact_Surface id=\"1\" graphic_id=\"200\" kn=\"-1\"/>", kSurfaceLine,
          "attribute 'kn' must be > 0 (got -1)");
  refused("\n<Contact_Surface id=\"1\" body_id=\"2\" kn=\"1e5\"/>"
          "\n<Contact_Surface id=\"2\" body_id=\"2\" fric=\"1\"/>",
          kSurfaceLine + 1, "Body_Rigid id=2 has a surface already (Contact_Surface id=1");
  // The ball holds kn, the ground box does not: the pair cannot inherit it (the Force_Contact's line, 11).
  refused("\n<Contact_Surface id=\"1\" graphic_id=\"200\" kn=\"1e5\"/>", kSurfaceLine + 1,
          "kn is not given, and Post_Graphic id=200 and id=100 do not both hold it");
}

TEST(ForceContact, DipoleDeformabilityReplacesKnAndKsAndIsCheckedAgainstTheFrictionLaw) {
  const std::string magnets = "cnf_type=\"DIPOLE\" dipole_mo1=\"0 0 1\" dipole_mo2=\"0 0 1\" dipole_cap=\"0.01\" "
                              "dipole_d=\"0.01\" ";
  const std::string shear = " cff_type=\"LINEAR_SHEAR\" fric=\"0.5\"";
  const ReadResult good =
      readText(deck(contactModel(kBallOnBox + magnets + "emod=\"1e8\" kratio=\"2\"" + shear)));
  ASSERT_TRUE(good.spec) << good.diagnostics.formatAll();
  Diagnostics diagnostics;
  ASSERT_TRUE(buildModel(*good.spec, diagnostics)) << diagnostics.formatAll();
  EXPECT_TRUE(diagnostics.entries().empty()) << diagnostics.formatAll();

  const auto refused = [&](const std::string& attributes, const std::string& message) {
    const Diagnostics found = readAndBuildDeck(deck(contactModel(kBallOnBox + magnets + attributes)));
    EXPECT_TRUE(hasError(found, kContactLine, message)) << attributes << "\n" << found.formatAll();
  };
  refused("kn=\"1e5\" emod=\"1e8\"", "cnf_type=\"DIPOLE\": kn and emod are both given");
  refused("", "kn is not given, and Post_Graphic id=200 and id=100 do not both hold it (PFC's inheritance");
  refused("kn=\"1e5\" kratio=\"2\"", "cnf_type=\"DIPOLE\": kratio sets ks = kn/kratio only with emod");
  refused("emod=\"-1\"", "attribute 'emod' must be >= 0 (got -1)");
  refused("emod=\"1e8\" kratio=\"2\"" + shear + " ks=\"1e5\"",
          "cff_type=\"LINEAR_SHEAR\": ks (1e+05) is given, and cnf_type=\"DIPOLE\"'s emod and kratio set it too");
  refused("emod=\"1e8\"" + shear, "ks is not given, and Post_Graphic id=200 and id=100 do not both hold it");
  const Diagnostics boxes = readAndBuildDeck(deck(contactModel(
      "i_graphics_id=\"100\" j_graphics_id=\"101\" " + magnets + "emod=\"1e8\"")));
  EXPECT_FALSE(hasError(boxes, kContactLine, "are neither spheres")) << "both boxes are on ground: never a pair";
  const std::string boxOnBody =
      groundAndBody() +
      "\n<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.5\"/>"
      "\n<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"2\" "
      "length_y=\"2\" length_z=\"1\"/>"
      "\n<Post_Graphic id=\"101\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"4\" "
      "length_y=\"4\" length_z=\"0.5\"/>"
      "\n<Post_Graphic id=\"200\" type=\"BoxDefinedFromCenter\" center_marker_id=\"20\" length_x=\"0.1\" "
      "length_y=\"0.1\" length_z=\"0.1\"/>"
      "\n<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" " + magnets + "emod=\"1e8\"/>";
  EXPECT_TRUE(hasError(readAndBuildDeck(deck(boxOnBody)), kContactLine,
                       "emod gives kn for ball-ball and ball-facet contacts (PFC's deformability method), and "
                       "Post_Graphic id=200 and id=100 are neither spheres"));
}

TEST(ForceContact, GraphicCountMustAgreeWithTheList) {
  const ReadResult result =
      readText(deck(contactModel("num_i_graphics=\"2\" " + kBallOnBox + "num_j_graphics=\"1\" " + kImpact)));
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine,
                       "num_i_graphics=2 but i_graphics_id lists 1 graphics; make them agree"));
}

TEST(ForceContact, GraphicsMustExist) {
  const ReadResult result = readText(deck(contactModel("i_graphics_id=\"200 999\" j_graphics_id=\"100\" " + kImpact)));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine, "attribute 'i_graphics_id' refers to Post_Graphic id=999"));
}

TEST(ForceContact, GraphicsAllOnOneBodyCanNeverTouch) {
  // Both boxes are on ground.
  const Diagnostics diagnostics =
      readAndBuildDeck(deck(contactModel("i_graphics_id=\"100\" j_graphics_id=\"101\" " + kImpact)));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "every I graphic is on the same body as every J graphic (ground)"));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "nothing can touch"));
}

TEST(ForceContact, ClosedTriaMeshIsContactGeometry) {
  const std::string mesh =
      "\n<Post_Graphic id=\"400\" type=\"TriaMesh\" ref_marker_id=\"11\" num_point=\"4\" num_triangle=\"4\">"
      "0 0 0  1 0 0  0 1 0  0 0 1  0 2 1  0 1 3  0 3 2  1 2 3</Post_Graphic>";
  const Diagnostics diagnostics = readAndBuildDeck(deck(contactModel("i_graphics_id=\"200\" j_graphics_id=\"400\" " +
                                                                     kImpact) + mesh));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
}

// Every way a mesh can fail as contact geometry, each said on the graphic's line with the first offender.
TEST(ForceContact, EachContactMeshProblemIsNamedOnTheGraphicsLine) {
  struct Case {
    const char* what;
    int nodeCount;
    std::string nodes;
    int triangleCount;
    std::string triangles;
    std::string expected;
  };
  const std::string tetrahedron = "0 0 0  1 0 0  0 1 0  0 0 1";
  const std::vector<Case> cases = {
      {"free edges", 4, tetrahedron, 3, "0 2 1  0 1 3  0 3 2",
       "the surface is not closed: 3 edge(s) belong to one triangle only (the first is the edge between nodes 1 and 2 "
       "of triangle 0)"},
      {"T-connection", 6, tetrahedron + "  0 -1 0  0 0 -1", 8, "0 2 1  0 1 3  0 3 2  1 2 3  0 1 4  0 5 1  0 4 5  1 5 4",
       "T-connection(s), edges shared by more than two triangles (the first is the edge between nodes 0 and 1"},
      {"degenerate triangle", 4, tetrahedron, 5, "0 2 1  0 1 3  0 3 2  1 2 3  1 1 2",
       "triangle(s) have zero area (the first is triangle 4)"},
      {"inconsistent winding", 4, tetrahedron, 4, "0 2 1  0 1 3  0 3 2  1 3 2",
       "edge(s) are run in the same direction by both their triangles (the first: triangles"},
      {"inward normals", 4, tetrahedron, 4, "0 1 2  0 3 1  0 2 3  1 3 2", "the triangles face inwards"},
  };
  for (const Case& c : cases) {
    const std::string text = deck(contactModel("i_graphics_id=\"200\" j_graphics_id=\"400\" " + kImpact) +
                                  "\n<Post_Graphic id=\"400\" type=\"TriaMesh\" ref_marker_id=\"11\" num_point=\"" +
                                  std::to_string(c.nodeCount) + "\" num_triangle=\"" + std::to_string(c.triangleCount) +
                                  "\">" + c.nodes + "  " + c.triangles + "</Post_Graphic>");
    const Diagnostics diagnostics = readAndBuildDeck(text);
    EXPECT_TRUE(hasError(diagnostics, kContactLine + 1, "Post_Graphic id=400: TriaMesh as contact geometry: "))
        << c.what << "\n" << diagnostics.formatAll();
    EXPECT_TRUE(hasError(diagnostics, kContactLine + 1, c.expected)) << c.what << "\n" << diagnostics.formatAll();
  }
}

// A primitive met as a mesh must have a refinement level that can be tessellated; said on the graphic's line.
TEST(ForceContact, RefinementLevelBeyondTheFinestIsAnErrorWhereTheGraphicIsMeshed) {
  const std::string ball = "\n<Post_Graphic id=\"400\" type=\"Sphere\" center_marker_id=\"11\" radius=\"0.1\" "
                           "refinement_level=\"7\"/>";
  const std::string meshedContact =
      contactModel("i_graphics_id=\"200\" j_graphics_id=\"400\" " + kImpact + " enable_analytical=\"FALSE\"");
  const Diagnostics meshed = readAndBuildDeck(deck(meshedContact + ball));
  EXPECT_TRUE(hasError(meshed, kContactLine + 1,
                       "Post_Graphic id=400: refinement_level=7 is beyond the finest tessellation, 6 (Force_Contact "
                       "id=300"))
      << meshed.formatAll();
  EXPECT_TRUE(hasError(meshed, kContactLine + 1, "meets it as a mesh); use 0 to 6")) << meshed.formatAll();
  const Diagnostics exact =
      readAndBuildDeck(deck(contactModel("i_graphics_id=\"200\" j_graphics_id=\"400\" " + kImpact) + ball));
  EXPECT_EQ(exact.errorCount(), 0) << "not meshed, the level is only drawing advice\n" << exact.formatAll();
}

// The strict checks are for contact geometry only: an open mesh that no Force_Contact names is no error.
TEST(ForceContact, DrawnTriaMeshNeedNotBeClosed) {
  const std::string drawnOnly = deck(contactModel(kBallOnBox + kImpact) +
                                     "\n<Post_Graphic id=\"400\" type=\"TriaMesh\" ref_marker_id=\"11\" "
                                     "num_point=\"4\" num_triangle=\"3\">0 0 0  1 0 0  0 1 0  0 0 1  0 2 1  0 1 3  0 3 2"
                                     "</Post_Graphic>");
  EXPECT_EQ(readAndBuildDeck(drawnOnly).errorCount(), 0) << readAndBuildDeck(drawnOnly).formatAll();
}

// ---- user subroutines (the libraries are built into build/lib, where the lookup finds them by name) --------

const std::string kUserNormal = "cnf_type=\"USERCNF\" cnf_param_string=\"USER(1e7, 1.5, 10, 1e-4)\" "
                                "cnf_dll_name=\"usersub_examples\"";

TEST(ForceContact, UserSubroutinesLoadWithTheirParameters) {
  const ReadResult result = readText(deck(contactModel(
      kBallOnBox + kUserNormal + " cff_type=\"usercff\" cff_param_string=\"user( 0.3,0.2 , 1D-2,5e-2 )\" "
                                 "cff_dll_name=\"usersub_examples.so\" cpost_dll_name=\"usersub_examples\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*result.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  const ForceContact& contact = model->contacts->elements.at(0);
  EXPECT_FALSE(contact.normalLaw);
  ASSERT_TRUE(contact.userNormal && contact.userFriction && contact.contactPost);
  EXPECT_EQ(contact.userNormal->function, "CNFSUB");
  EXPECT_EQ(contact.userNormal->parameters, (std::vector<double>{1e7, 1.5, 10, 1e-4}));
  EXPECT_EQ(contact.userFriction->parameters, (std::vector<double>{0.3, 0.2, 1e-2, 5e-2}));
  EXPECT_EQ(contact.contactPost->function, "CONTACTPOST");
  EXPECT_TRUE(contact.userNormal->file.ends_with("/usersub_examples.so")) << contact.userNormal->file;
  // Both names found the same file, loaded once.
  EXPECT_EQ(contact.userNormal->keepLoaded, contact.userFriction->keepLoaded);
}

TEST(ForceContact, UserNormalForceNeedsALibrary) {
  const ReadResult result = readText(deck(contactModel(kBallOnBox + "cnf_type=\"USERCNF\"")));
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine, "cnf_dll_name is needed: the shared library that holds CNFSUB"));
}

TEST(ForceContact, BadParameterStringSaysWhereAndWhat) {
  const ReadResult result = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" cnf_dll_name=\"usersub_examples\" cnf_param_string=\"USER(1, x2)\"")));
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine,
                       "cnf_param_string=\"USER(1, x2)\", column 9: 'x2' is not a number"));
  const ReadResult unclosed = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" cnf_dll_name=\"usersub_examples\" cnf_param_string=\"USER(1, 2\"")));
  EXPECT_TRUE(hasError(unclosed.diagnostics, kContactLine, "column 10: expected ',' or ')' after a number, found the end"));
}

TEST(ForceContact, MissingLibraryIsAnErrorNamingWhereItLooked) {
  const Diagnostics diagnostics = readAndBuildDeck(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" cnf_dll_name=\"no_such_contact_library\"")));
  EXPECT_TRUE(hasError(diagnostics, kContactLine,
                       "cnf_dll_name=\"no_such_contact_library\": library \"no_such_contact_library\" not found (tried"));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "libno_such_contact_library.so"));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "LODESTONE_USERSUB_PATH"));
}

TEST(ForceContact, MissingFunctionIsAnErrorWithTheLoadersMessage) {
  const Diagnostics diagnostics = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kUserNormal + " cnf_fnc_name=\"NO_SUCH_CNFSUB\"")));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "cnf_fnc_name=\"NO_SUCH_CNFSUB\": no function NO_SUCH_CNFSUB in"));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "/usersub_examples.so"));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "undefined symbol: NO_SUCH_CNFSUB"));  // dlerror()'s words
}

TEST(ForceContact, AFileThatIsNotALibraryGivesTheLoadersMessage) {
  const std::filesystem::path fake =
      std::filesystem::temp_directory_path() / ("lodestone_not_a_library_" + std::to_string(getpid()) + ".so");
  std::ofstream(fake) << std::string(256, 'x');  // long enough for the loader to read a header and reject it
  const Diagnostics diagnostics = readAndBuildDeck(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" cnf_dll_name=\"" + fake.string() + "\"")));
  std::filesystem::remove(fake);
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "cnf_dll_name=\"" + fake.string() + "\": " + fake.string()));
  EXPECT_TRUE(hasError(diagnostics, kContactLine, "invalid ELF header")) << diagnostics.formatAll();
}

TEST(ForceContact, PythonIsTheOnlyInterpreter) {
  const ReadResult python = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" script_name=\"contact.py\" interpreter=\"Python\"")));
  EXPECT_FALSE(python.diagnostics.hasErrors()) << "any case: " << python.diagnostics.formatAll();
  const ReadResult matlab = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"USERCNF\" script_name=\"contact.m\" interpreter=\"MATLAB\"")));
  EXPECT_TRUE(hasError(matlab.diagnostics, kContactLine,
                       "interpreter=\"MATLAB\" is not available: the only interpreter is PYTHON (interpreter=\"PYTHON\")"));
}

TEST(ForceContact, ScriptAndInterpreterGoTogether) {
  const ReadResult noInterpreter =
      readText(deck(contactModel(kBallOnBox + "cnf_type=\"USERCNF\" script_name=\"contact.py\"")));
  EXPECT_TRUE(hasError(noInterpreter.diagnostics, kContactLine, "script_name=\"contact.py\" needs interpreter=\"PYTHON\""));
  const ReadResult noScript = readText(deck(contactModel(kBallOnBox + "cnf_type=\"USERCNF\" interpreter=\"PYTHON\"")));
  EXPECT_TRUE(hasError(noScript.diagnostics, kContactLine,
                       "interpreter=\"PYTHON\" needs script_name, the Python file that defines the subroutines"));
  EXPECT_TRUE(hasError(noScript.diagnostics, kContactLine, "cnf_dll_name is needed"));
}

TEST(ForceContact, ScriptWithoutSubroutinesOrBesideALibraryIsWarnedAbout) {
  const ReadResult unused = readText(deck(contactModel(
      kBallOnBox + kImpact + " script_name=\"contact.py\" interpreter=\"PYTHON\"")));
  EXPECT_TRUE(hasWarning(unused.diagnostics, kContactLine, "script_name is ignored: the element calls no user subroutine"));
  const ReadResult both = readText(deck(contactModel(
      kBallOnBox + kUserNormal + " script_name=\"contact.py\" interpreter=\"PYTHON\"")));
  EXPECT_TRUE(hasWarning(both.diagnostics, kContactLine,
                         "cnf_dll_name is ignored: script_name=\"contact.py\" gives CNFSUB"));
}

TEST(ForceContact, SubroutineAttributesOfABuiltInLawAreIgnoredWithAWarning) {
  const ReadResult result = readText(deck(contactModel(kBallOnBox + kImpact + " cnf_param_string=\"USER(1)\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, kContactLine, "cnf_param_string is ignored: cnf_type is not USERCNF"));
}

TEST(ForceContact, DipoleMomentNeedsThreeNumbers) {
  const ReadResult result = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"DIPOLE\" kn=\"1e5\" dipole_mo1=\"1 0\" dipole_mo2=\"1 0 0\" dipole_cap=\"0.01\" "
                   "dipole_d=\"0.01\"")));
  EXPECT_TRUE(hasError(result.diagnostics, kContactLine, "attribute 'dipole_mo1' needs 3 numbers (x y z), got 2"));
}

TEST(ForceContact, ParameterOfAnotherLawIsAnUnknownAttribute) {
  // `penalty` belongs to POISSON; with IMPACT it does nothing, and the user should hear so, and why.
  const ReadResult result = readText(deck(contactModel(kBallOnBox + kImpact + " penalty=\"1e7\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, kContactLine,
                         "unknown attribute 'penalty' ignored: it is an attribute of cnf_type=\"POISSON\", and this "
                         "element has cnf_type=\"IMPACT\""));
  const ReadResult several = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"LINEAR\" stiffness=\"1e7\" exponent=\"1.5\"")));
  EXPECT_TRUE(hasWarning(several.diagnostics, kContactLine,
                         "unknown attribute 'exponent' ignored: it is an attribute of cnf_type=\"IMPACT\", \"VOLUME\" "
                         "or \"HUNT_CROSSLEY\", and this element has cnf_type=\"LINEAR\""));
}

TEST(ForceContact, MisspeltParametersAreMatchedAgainstEveryLaw) {
  // The element's own law first; then the parameters of the others, saying which law has them.
  const ReadResult own = readText(deck(contactModel(kBallOnBox + kImpact + " dmx=\"1\"")));
  EXPECT_TRUE(hasWarning(own.diagnostics, kContactLine, "unknown attribute 'dmx' ignored; did you mean 'dmax'?"));
  const ReadResult other = readText(deck(contactModel(kBallOnBox + kImpact + " restitution_coeff=\"0.5\"")));
  EXPECT_TRUE(hasWarning(other.diagnostics, kContactLine,
                         "unknown attribute 'restitution_coeff' ignored; did you mean 'restitution_coef' (with "
                         "cnf_type=\"POISSON\")?"));
  // Adams' long names, too far for a guess.
  const ReadResult adams = readText(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" "
                             "stiction_trans_vel=\"0.1\" friction_trans_vel=\"0.2\" "
                             "stiction_transition_velocity=\"0.1\"")));
  EXPECT_TRUE(hasWarning(adams.diagnostics, kContactLine,
                         "unknown attribute 'stiction_transition_velocity' ignored; Adams' CONTACT "
                         "STICTION_TRANSITION_VELOCITY is 'stiction_trans_vel' (with cff_type=\"COULOMB_ON\") here"));
}

// Legal values that are almost surely a mistake: a warning on the element's line, said once (when the deck is
// read, not again when the model is built).
TEST(ForceContact, LawParametersThatAreSurelyAMistakeAreWarnings) {
  const std::string swapped =
      "cff_type=\"COULOMB_ON\": mu_dynamic (0.5) is above mu_static (0.3): friction would grow as the contact "
      "starts to slide instead of falling from its stiction peak; were the two swapped?";
  const Diagnostics coulomb = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"COULOMB_ON\" mu_static=\"0.3\" mu_dynamic=\"0.5\" "
                             "stiction_trans_vel=\"0.1\" friction_trans_vel=\"0.2\"")));
  EXPECT_EQ(coulomb.errorCount(), 0) << coulomb.formatAll();
  EXPECT_TRUE(hasWarning(coulomb, kContactLine, "Force_Contact id=300: " + swapped));
  EXPECT_EQ(coulomb.warningCount(), 1) << coulomb.formatAll();

  const Diagnostics stickSlip = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"SMOOTH_STICK_SLIP\" mu_static=\"0.3\" mu_dynamic=\"0.5\" "
                             "critical_velocity=\"0.01\"")));
  EXPECT_TRUE(hasWarning(stickSlip, kContactLine, "cff_type=\"SMOOTH_STICK_SLIP\": mu_dynamic (0.5) is above "
                                                  "mu_static (0.3)"));
  const Diagnostics noFriction = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"COULOMB_DYNAMICONLY\" mu_dynamic=\"0\" friction_trans_vel=\"0.1\"")));
  EXPECT_TRUE(hasWarning(noFriction, kContactLine,
                         "cff_type=\"COULOMB_DYNAMICONLY\": mu_dynamic is 0: the law gives no friction; "
                         "cff_type=\"COULOMB_OFF\" says so"));
  const Diagnostics noMagnets = readAndBuildDeck(deck(contactModel(
      kBallOnBox + "cnf_type=\"DIPOLE\" kn=\"1e5\" dipole_mo1=\"0 0 0\" dipole_mo2=\"0 0 0\" "
                   "dipole_cap=\"0.01\" dipole_d=\"0.01\"")));
  EXPECT_TRUE(hasWarning(noMagnets, kContactLine,
                         "cnf_type=\"DIPOLE\": dipole_mo1 and dipole_mo2 are both 0 0 0: the bodies carry no magnets"));
  // A sound element says nothing.
  const Diagnostics sound = readAndBuildDeck(deck(contactModel(
      kBallOnBox + kImpact + " cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" "
                                 "stiction_trans_vel=\"0.1\" friction_trans_vel=\"0.2\"")));
  EXPECT_TRUE(sound.entries().empty()) << sound.formatAll();
}

TEST(ForceContact, KeywordsAreCaseInsensitive) {
  const ReadResult result = readText(deck(contactModel(
      kBallOnBox + "cnf_type=\"Impact\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\" "
                   "cff_type=\"Coulomb_On\" mu_static=\"0.5\" mu_dynamic=\"0.3\" stiction_trans_vel=\"0.1\" "
                   "friction_trans_vel=\"0.2\" master_surface=\"auto\" enable_analytical=\"Auto\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(*result.spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_EQ(model->contacts->elements[0].normalLaw->keyword, "IMPACT");
  EXPECT_EQ(model->contacts->elements[0].frictionLaw->keyword, "COULOMB_ON");
}

TEST(ForceContact, CommandChangesStiffnessForTheNextSimulate) {
  const ReadResult result = readText(deck(contactModel(kBallOnBox + kImpact),
                                          "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                          "<Force_Contact id=\"300\" stiffness=\"2e5\"/>\n"
                                          "<Simulate end_time=\"2\" print_interval=\"0.1\"/>"));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(result.diagnostics.entries().empty()) << result.diagnostics.formatAll();
  ModelSpec spec = *result.spec;
  ASSERT_EQ(spec.commands.size(), 3u);
  const auto* modify = std::get_if<ModifyCommand>(&spec.commands[1]);
  ASSERT_TRUE(modify);
  EXPECT_EQ(modify->loc.line, kFirstCommandLine + 1);
  EXPECT_EQ(spec.contacts[0].lawValues.at("stiffness"), std::vector<double>{1e7});
  modify->apply(spec);
  EXPECT_EQ(spec.contacts[0].lawValues.at("stiffness"), std::vector<double>{2e5});
  EXPECT_EQ(spec.contacts[0].lawValues.at("exponent"), std::vector<double>{1.5}) << "the others stay";
  // The model the next Simulate runs is built from the changed spec.
  Diagnostics diagnostics;
  const std::optional<Model> model = buildModel(spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_EQ(model->contacts->elements[0].normalValues[0], 2e5);
}

TEST(ForceContact, CommandValueOutOfRangeIsReported) {
  const ReadResult result = readText(deck(contactModel(kBallOnBox + kImpact),
                                          "<Simulate end_time=\"1\" print_interval=\"0.1\"/>\n"
                                          "<Force_Contact id=\"300\" stiffness=\"-2e5\"/>\n"
                                          "<Simulate end_time=\"2\" print_interval=\"0.1\"/>"));
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kFirstCommandLine + 1, "attribute 'stiffness' must be > 0 (got -2e+05)"));
}

// ---- interference at the start (lodestone check) ----------------------------------------------------------------

// Eight spheres (R = 0.05 m, 100 mm across), the k-th pressed (k + 1)·0.1 mm into the ground box under z = 0, all in
// one Force_Contact on the last line: the five deepest are listed one by one, the other three summed up.
TEST(ForceContact, ManyPairsPressedInAtTheStartAreSummedUp) {
  std::string model = "<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
                      "<Reference_Marker id=\"11\" body_id=\"1\" pos_z=\"-0.05\"/>\n"
                      "<Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" center_marker_id=\"11\" length_x=\"4\" "
                      "length_y=\"4\" length_z=\"0.1\"/>\n";
  std::string spheres;
  for (int k = 0; k < 8; ++k) {
    const std::string id = std::to_string(2 + k), marker = std::to_string(20 + k), graphic = std::to_string(200 + k);
    model += "<Reference_Marker id=\"" + marker + "\" body_id=\"" + id + "\" pos_x=\"" + std::to_string(0.2 * k) +
             "\" pos_z=\"" + std::to_string(0.05 - 1e-4 * (k + 1)) + "\"/>\n"
             "<Body_Rigid id=\"" + id + "\" cg_id=\"" + marker + "\" mass=\"1\" inertia_xx=\"1e-3\" "
             "inertia_yy=\"1e-3\" inertia_zz=\"1e-3\"/>\n"
             "<Post_Graphic id=\"" + graphic + "\" type=\"Sphere\" center_marker_id=\"" + marker + "\" radius=\"0.05\"/>\n";
    spheres += (k ? " " : "") + graphic;
  }
  model += "<Force_Contact id=\"300\" i_graphics_id=\"" + spheres + "\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
           "stiffness=\"1e7\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\"/>";
  const ReadResult read = readText(deck(model));
  ASSERT_TRUE(read.spec) << read.diagnostics.formatAll();
  Diagnostics diagnostics;
  const std::optional<Model> built = buildModel(*read.spec, diagnostics);
  ASSERT_TRUE(built) << diagnostics.formatAll();
  checkInterference(*built, diagnostics);
  const int line = 3 + 3 + 3 * 8;  // the Force_Contact: after the ground's three lines and three per sphere
  EXPECT_EQ(diagnostics.errorCount(), 0);
  EXPECT_EQ(diagnostics.warningCount(), 6);
  // The deepest, 0.8 mm, first: graphic 207 on body 9.
  EXPECT_TRUE(hasWarning(diagnostics, line,
                                  "Post_Graphic id=207 (deck.xml:29:1) on Body_Rigid id=9 (deck.xml:28:1) and "
                                  "Post_Graphic id=100 (deck.xml:5:1) on ground overlap by 8.000E-04 at the start, "
                                  "0.8% of the thinner graphic (1.000E-01 across): the contact starts pressed in"));
  EXPECT_TRUE(hasWarning(diagnostics, line, "Post_Graphic id=203 (deck.xml:17:1)"));
  EXPECT_FALSE(hasWarning(diagnostics, line, "Post_Graphic id=202 (deck.xml:14:1)"));
  EXPECT_TRUE(hasWarning(diagnostics, line,
                                  "3 more pairs overlap at the start, each less than allowed, from 3.000E-04 down to "
                                  "1.000E-04 deep"));
}

}  // namespace
}  // namespace lodestone::testing

// Slips a new user makes, and what the reader says of them on the element's line: an unknown attribute or element
// with what was likely meant (the nearest names, the law it belongs to, our name for Adams'), an element left with
// nothing to do, and every problem of one element in one pass.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 10 on ground; line 7 on: `elements`.
constexpr int kFirstLine = 7;

std::string elementsDeck(const std::string& elements) {
  return deck(groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n" + elements);
}

std::string spring(const std::string& attributes) {
  return "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" length=\"1\" " +
         attributes + "/>";
}

TEST(DeckHygiene, AMisspeltAttributeNamesTheNearestOne) {
  const ReadResult result = readText(elementsDeck(spring("stifness=\"20\" dampnig=\"1\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "Force_SpringDamper id=5: unknown attribute 'stifness' ignored; did you mean 'stiffness'?"));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "unknown attribute 'dampnig' ignored; did you mean 'damping'?"))
      << "two neighbours swapped are one slip";
  // Nothing near: no guess.
  const ReadResult far = readText(elementsDeck(spring("stiffness=\"20\" colour=\"red\"")));
  EXPECT_TRUE(hasWarning(far.diagnostics, kFirstLine, "unknown attribute 'colour' ignored"));
  EXPECT_EQ(far.diagnostics.formatAll().find("did you mean"), std::string::npos) << far.diagnostics.formatAll();
  // Equally near names are all offered.
  const ReadResult bushing = readText(elementsDeck(
      "<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"10\" kx=\"1\" ky=\"1\" kq=\"1\"/>"));
  EXPECT_TRUE(hasWarning(bushing.diagnostics, kFirstLine,
                         "unknown attribute 'kq' ignored; did you mean 'kx', 'ky' or 'kz'?"));
}

TEST(DeckHygiene, AdamsNamesAreAnsweredWithOurs) {
  // The deck: k="20" left the spring with stiffness 0, and nothing else was said.
  const ReadResult result = readText(elementsDeck(spring("k=\"20\" c=\"0.5\"")));
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "unknown attribute 'k' ignored; Adams' SPRINGDAMPER K is 'stiffness' here"));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "unknown attribute 'c' ignored; Adams' SPRINGDAMPER C is 'damping' here"));
  const ReadResult bushing =
      readText(elementsDeck("<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"10\" k=\"1\" kx=\"1\"/>"));
  EXPECT_TRUE(hasWarning(bushing.diagnostics, kFirstLine,
                         "unknown attribute 'k' ignored; Adams' BUSHING K is 'kx', 'ky' and 'kz' here"))
      << "Adams' name wins over the nearest names when it is exactly one";
}

TEST(DeckHygiene, AnElementLeftWithNothingToDoIsSaid) {
  const ReadResult result = readText(elementsDeck(spring("k=\"20\"")));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "Force_SpringDamper id=5: stiffness, damping and preload are all 0: the element exerts no "
                         "force or torque"));
  const ReadResult bushing =
      readText(elementsDeck("<Force_Bushing id=\"8\" i_marker_id=\"20\" j_marker_id=\"10\" k=\"1\"/>"));
  EXPECT_TRUE(hasWarning(bushing.diagnostics, kFirstLine,
                         "Force_Bushing id=8: every stiffness, damping and preload is 0: the element exerts no force "
                         "or torque"));
  // A preload alone is a force: nothing to say.
  const ReadResult preloaded = readText(elementsDeck(spring("preload=\"3\"")));
  EXPECT_TRUE(preloaded.diagnostics.entries().empty()) << preloaded.diagnostics.formatAll();
}

TEST(DeckHygiene, AMisspeltElementNamesTheNearestOne) {
  const ReadResult result = readText(elementsDeck(
      "<Body_Rigd id=\"3\"/>\n<Force_SpringDampr id=\"4\"/>\n<Force_Frction id=\"5\"/>\n<Whatever id=\"6\"/>"));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine,
                         "unknown element <Body_Rigd> ignored; did you mean <Body_Rigid>?"));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine + 1,
                         "unknown element <Force_SpringDampr> ignored; did you mean <Force_SpringDamper>?"));
  // Refused elements are names the reader knows too.
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine + 2,
                         "unknown element <Force_Frction> ignored; did you mean <Force_Friction>?"));
  EXPECT_TRUE(hasWarning(result.diagnostics, kFirstLine + 3, "unknown element <Whatever> ignored"));
  EXPECT_EQ(result.diagnostics.entries().back().message.find("did you mean"), std::string::npos);
  // A misspelt section is one of the sections.
  const ReadResult section = readText("<MultiBodySystem>\n<Model/>\n<Comand/>\n</MultiBodySystem>\n");
  EXPECT_TRUE(hasWarning(section.diagnostics, 3, "unknown element <Comand> ignored; did you mean <Command>?"));
}

// Every problem of one element in one pass: a wrong value no longer hides the element's other problems.
TEST(DeckHygiene, AnElementsIndependentProblemsAreAllReportedAtOnce) {
  // The second deck: a marker id typed with a letter O, and a typo in the expression.
  const ReadResult scalar = readText(elementsDeck(
      "<Force_Scalar_TwoBody id=\"6\" type=\"FORCE\" i_marker_id=\"2O\" j_marker_id=\"10\" "
      "val_expression=\"SINN(TIME)\"/>"));
  EXPECT_FALSE(scalar.spec);
  EXPECT_TRUE(hasError(scalar.diagnostics, kFirstLine,
                       "Force_Scalar_TwoBody id=6: attribute 'i_marker_id' must be the id of a Reference_Marker "
                       "(got '2O')"));
  EXPECT_TRUE(hasError(scalar.diagnostics, kFirstLine,
                       "val_expression=\"SINN(TIME)\", column 1: unknown function 'SINN'"));
  EXPECT_EQ(scalar.diagnostics.errorCount(), 2) << scalar.diagnostics.formatAll();
  // Two values at once, and the expression of a force whose magnitude is given twice.
  const ReadResult both = readText(elementsDeck(
      "<Force_Scalar_TwoBody id=\"6\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" val=\"2\" "
      "val_expression=\"COSS(TIME)\"/>"));
  EXPECT_TRUE(hasError(both.diagnostics, kFirstLine, "give either val or val_expression, not both"));
  EXPECT_TRUE(hasError(both.diagnostics, kFirstLine, "column 1: unknown function 'COSS'"));
  // Two unknown names in one expression.
  const ReadResult names = readText(elementsDeck(
      "<Force_Scalar_TwoBody id=\"6\" type=\"FORCE\" i_marker_id=\"20\" j_marker_id=\"10\" "
      "val_expression=\"SINN(TIME) + COSS(TIME)\"/>"));
  EXPECT_TRUE(hasError(names.diagnostics, kFirstLine, "column 1: unknown function 'SINN'"));
  EXPECT_TRUE(hasError(names.diagnostics, kFirstLine, "column 14: unknown function 'COSS'"));
  // A wrong value and a law's rule.
  const ReadResult contact = readText(elementsDeck(
      "<Post_Graphic id=\"100\" type=\"Sphere\" center_marker_id=\"10\" radius=\"1\"/>\n"
      "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"1\"/>\n"
      "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" stiffness=\"-1\" "
      "exponent=\"1.5\" damping=\"10\" dmax=\"1e-4\" cff_type=\"COULOMB_ON\" mu_static=\"0.5\" mu_dynamic=\"0.3\" "
      "stiction_trans_vel=\"0.2\" friction_trans_vel=\"0.1\"/>"));
  EXPECT_TRUE(hasError(contact.diagnostics, kFirstLine + 2, "attribute 'stiffness' must be > 0 (got -1)"));
  EXPECT_TRUE(hasError(contact.diagnostics, kFirstLine + 2,
                       "cff_type=\"COULOMB_ON\": stiction_trans_vel (0.2) must be smaller than friction_trans_vel "
                       "(0.1)"));
  EXPECT_EQ(contact.diagnostics.errorCount(), 2) << contact.diagnostics.formatAll();
}

// What an element's checks would say only because a value could not be read is a consequence, not a problem.
TEST(DeckHygiene, WhatFollowsFromAnUnreadableValueIsNotSaidAgain) {
  const ReadResult body = readText(deck("<Body_Rigid id=\"1\" isground=\"TRUE\"/>\n"
                                        "<Reference_Marker id=\"20\" body_id=\"2\"/>\n"
                                        "<Body_Rigid id=\"2\" cg_id=\"20\" mass=\"abc\" inertia_xx=\"1\" "
                                        "inertia_yy=\"1\" inertia_zz=\"1\"/>"));
  EXPECT_TRUE(hasError(body.diagnostics, 5, "attribute 'mass' must be a finite number (got 'abc')"));
  EXPECT_EQ(body.diagnostics.errorCount(), 1) << "not also \"a moving body needs mass > 0\"\n"
                                              << body.diagnostics.formatAll();
  const ReadResult simulate = readText(deck(groundAndBody(), "<Simulate analysis_type=\"Transient\" end_time=\"x\" "
                                                             "print_interval=\"0.1\"/>"));
  EXPECT_EQ(simulate.diagnostics.errorCount(), 1) << "not also \"give end_time or duration\"\n"
                                                  << simulate.diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

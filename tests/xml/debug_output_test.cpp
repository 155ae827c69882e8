// DebugOutput's filters in decks: topics, a time window and contact ids read into the spec; wrong values are errors
// on the element's line.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–8: ground, body 2, a plate on ground, a sphere on body 2 and Force_Contact 300; line 9: DebugOutput.
constexpr int kDebugOutputLine = 9;

std::string debugDeck(const std::string& attributes) {
  return deck(groundAndBody() + "\n"
              "<Reference_Marker id=\"11\" body_id=\"1\"/> <Post_Graphic id=\"100\" type=\"BoxDefinedFromCenter\" "
              "center_marker_id=\"11\" length_x=\"1\" "
              "length_y=\"1\" length_z=\"1\"/>\n"
              "<Post_Graphic id=\"200\" type=\"Sphere\" center_marker_id=\"20\" radius=\"0.1\"/>\n"
              "<Force_Contact id=\"300\" i_graphics_id=\"200\" j_graphics_id=\"100\" cnf_type=\"IMPACT\" "
              "stiffness=\"1e5\" exponent=\"1.5\" damping=\"10\" dmax=\"1e-3\" cff_type=\"COULOMB_OFF\"/>\n"
              "<DebugOutput " + attributes + "/>");
}

TEST(DebugOutputDeck, FiltersReadIntoTheSpec) {
  const ReadResult all = readText(debugDeck(""));
  ASSERT_TRUE(all.spec && all.spec->debugOutput) << all.diagnostics.formatAll();
  EXPECT_TRUE(all.spec->debugOutput->topics.empty());
  EXPECT_FALSE(all.spec->debugOutput->start_time);
  EXPECT_TRUE(all.spec->debugOutput->contact_ids.empty());

  const ReadResult some =
      readText(debugDeck("topics=\"Contact, step\" start_time=\"0.1\" end_time=\"0.2\" contact_ids=\"300\""));
  EXPECT_EQ(some.diagnostics.errorCount(), 0) << some.diagnostics.formatAll();
  ASSERT_TRUE(some.spec && some.spec->debugOutput);
  const DebugOutputSpec& debug = *some.spec->debugOutput;
  EXPECT_EQ(debug.topics, (std::vector<std::string>{"contact", "step"}));
  EXPECT_EQ(debug.start_time, 0.1);
  EXPECT_EQ(debug.end_time, 0.2);
  EXPECT_EQ(debug.contact_ids, std::vector<long>{300});
}

TEST(DebugOutputDeck, WrongFiltersAreErrorsOnTheElementsLine) {
  EXPECT_TRUE(hasError(readText(debugDeck("topics=\"contacts\"")).diagnostics, kDebugOutputLine,
                       "deck.xml:9:1: DebugOutput: attribute 'topics' must be a list of step, contact, events, "
                       "usersub, failure (got 'contacts')"));
  EXPECT_TRUE(hasError(readText(debugDeck("topics=\"\"")).diagnostics, kDebugOutputLine,
                       "attribute 'topics' must list one or more of step, contact, events, usersub, failure"));
  EXPECT_TRUE(hasError(readText(debugDeck("topics=\"step STEP\"")).diagnostics, kDebugOutputLine,
                       "attribute 'topics' lists 'step' twice"));
  EXPECT_TRUE(hasError(readText(debugDeck("contact_ids=\"300 301\"")).diagnostics, kDebugOutputLine,
                       "attribute 'contact_ids' refers to Force_Contact id=301, which is not defined"));
  EXPECT_TRUE(hasError(readText(debugDeck("start_time=\"0.2\" end_time=\"0.1\"")).diagnostics, kDebugOutputLine,
                       "end_time = 0.1 is before start_time = 0.2: the trace's time window would be empty"));
  EXPECT_TRUE(hasError(readText(debugDeck("end_time=\"soon\"")).diagnostics, kDebugOutputLine,
                       "attribute 'end_time' must be a finite number (got 'soon')"));
}

}  // namespace
}  // namespace lodestone::testing

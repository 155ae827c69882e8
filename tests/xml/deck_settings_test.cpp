// Attributes given values from outside the deck (--set, sweeps, Python's deck.set): parsed from
// ELEMENT:ID:ATTRIBUTE=VALUE, applied as the deck is read, and checked exactly as the deck's own attributes.
#include <gtest/gtest.h>

#include "support/deck_testing.h"
#include "solver/xml/deck_reader.h"

namespace lodestone::testing {
namespace {

// Line 3: ground, line 4: marker, line 5: body, line 6: a spring on it.
std::string springDeck() {
  return deck(groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
              "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" j_marker_id=\"10\" length=\"1\" "
              "stiffness=\"20\"/>\n<Param_Transient integr_tol=\"1e-3\"/>");
}
constexpr int kSpringLine = 7, kTransientLine = 8;

ReadResult readWith(const std::vector<std::string>& texts) {
  std::vector<AttributeSetting> settings;
  for (const std::string& text : texts) {
    const SettingParse parsed = parseAttributeSetting(text);
    EXPECT_TRUE(parsed.setting) << parsed.error;
    if (parsed.setting) settings.push_back(*parsed.setting);
  }
  ReadResult result;
  result.spec = readDeckText(springDeck(), "deck.xml", result.diagnostics, settings);
  return result;
}

TEST(DeckSettings, TextIsElementIdAttributeAndValue) {
  const SettingParse parsed = parseAttributeSetting("Force_Contact:300:stiffness=2e5");
  ASSERT_TRUE(parsed.setting) << parsed.error;
  EXPECT_EQ(parsed.setting->element, "Force_Contact");
  EXPECT_EQ(parsed.setting->id, 300);
  EXPECT_EQ(parsed.setting->attribute, "stiffness");
  EXPECT_EQ(parsed.setting->value, "2e5");
  EXPECT_EQ(parsed.setting->text(), "Force_Contact:300:stiffness=2e5");
  // A value may hold '=' and ':' (an expression); an element without id leaves the id empty.
  const SettingParse expression = parseAttributeSetting("Force_Vector::fx=STEP(TIME,0,0,1,2)==1");
  ASSERT_TRUE(expression.setting) << expression.error;
  EXPECT_FALSE(expression.setting->id);
  EXPECT_EQ(expression.setting->value, "STEP(TIME,0,0,1,2)==1");
  EXPECT_EQ(parseAttributeSetting("Force_Contact:300:stiffness").error,
            "'Force_Contact:300:stiffness' is not ELEMENT:ID:ATTRIBUTE=VALUE: no '='");
  EXPECT_EQ(parseAttributeSetting("Force_Contact:stiffness=1").error,
            "'Force_Contact:stiffness=1' is not ELEMENT:ID:ATTRIBUTE=VALUE: it needs two ':' before the '='");
  EXPECT_EQ(parseAttributeSetting("Force_Contact:x3:stiffness=1").error,
            "'Force_Contact:x3:stiffness=1' is not ELEMENT:ID:ATTRIBUTE=VALUE: the id 'x3' is not a whole number");
  EXPECT_FALSE(parseAttributeSetting(":3:stiffness=1").setting);
  EXPECT_FALSE(parseAttributeSetting("Force_Contact:3:=1").setting);
}

TEST(DeckSettings, ASettingReplacesOrAddsTheAttribute) {
  const ReadResult result = readWith({"force_springdamper:5:STIFFNESS=35", "Force_SpringDamper:5:damping=0.5",
                                      "Param_Transient::integr_tol=1e-6"});
  ASSERT_TRUE(result.spec) << result.diagnostics.formatAll();
  ASSERT_EQ(result.spec->springDampers.size(), 1u);
  EXPECT_EQ(result.spec->springDampers[0].stiffness, 35);
  EXPECT_EQ(result.spec->springDampers[0].damping, 0.5);
  ASSERT_TRUE(result.spec->transient);
  EXPECT_EQ(result.spec->transient->integr_tol, 1e-6);
  EXPECT_EQ(result.diagnostics.size(), 0u) << result.diagnostics.formatAll();
}

TEST(DeckSettings, ASettingIsCheckedAsTheDecksOwnAttributeAtTheElementsLine) {
  const ReadResult result = readWith({"Force_SpringDamper:5:stiffness=-1", "Param_Transient::integr_tol=abc",
                                      "Force_SpringDamper:5:stifness=3"});
  EXPECT_FALSE(result.spec);
  EXPECT_TRUE(hasError(result.diagnostics, kSpringLine, "Force_SpringDamper id=5: attribute 'stiffness'"));
  EXPECT_TRUE(hasError(result.diagnostics, kTransientLine, "attribute 'integr_tol'"));
  // A name the element does not have would leave the run without the value asked for: an error, not a warning.
  EXPECT_TRUE(hasError(result.diagnostics, kSpringLine,
                       "Force_SpringDamper id=5: unknown attribute 'stifness' given by a setting; did you mean "
                       "'stiffness'?"));
}

// A setting describes the model: a command that changes the same element between simulations keeps what it says,
// and is not given attributes a command may not change (type) that the setting added to the model's element.
TEST(DeckSettings, ACommandChangingTheElementIsLeftAsWritten) {
  const std::string text = deck(groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n"
                                "<Force_SpringDamper id=\"5\" type=\"TRANSLATIONAL\" i_marker_id=\"20\" "
                                "j_marker_id=\"10\" length=\"1\" stiffness=\"20\"/>",
                                "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>\n"
                                "<Force_SpringDamper id=\"5\" stiffness=\"200\"/>\n"
                                "<Simulate analysis_type=\"Transient\" end_time=\"2\" print_interval=\"0.1\"/>");
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeckText(
      text, "deck.xml", diagnostics,
      {*parseAttributeSetting("Force_SpringDamper:5:stiffness=35").setting,
       *parseAttributeSetting("Force_SpringDamper:5:type=ROTATIONAL").setting});
  ASSERT_TRUE(spec) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.size(), 0u) << diagnostics.formatAll();
  ASSERT_EQ(spec->springDampers.size(), 1u);
  EXPECT_EQ(spec->springDampers[0].stiffness, 35);
  EXPECT_EQ(spec->springDampers[0].type, "ROTATIONAL");
}

TEST(DeckSettings, ASettingThatMatchesNothingIsAnError) {
  const ReadResult result = readWith({"Force_SpringDamper:6:stiffness=1", "Force_Contact:300:stiffness=1",
                                      "Body_Rigid::mass=3"});
  EXPECT_FALSE(result.spec);
  const std::string all = result.diagnostics.formatAll();
  EXPECT_NE(all.find("deck.xml: setting Force_SpringDamper:6:stiffness=1: the deck has no Force_SpringDamper id=6; "
                     "its Force_SpringDamper ids are 5"),
            std::string::npos) << all;
  EXPECT_NE(all.find("setting Force_Contact:300:stiffness=1: the deck has no Force_Contact id=300; it has no "
                     "Force_Contact at all"),
            std::string::npos) << all;
  EXPECT_NE(all.find("setting Body_Rigid::mass=3: the deck has no Body_Rigid without an id; its Body_Rigid ids are "
                     "1, 2"),
            std::string::npos) << all;
}

}  // namespace
}  // namespace lodestone::testing

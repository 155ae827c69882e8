// The real MotionSolve decks in ../shared/conformance go through the reader without a crash, and every
// element Lodestone cannot run is named with the line it starts on.
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "elements/force_elements.h"
#include "elements/reference_variable.h"
#include "support/deck_testing.h"
#include "support/text_files.h"

namespace lodestone::testing {
namespace {

const std::string kDeckFolder = std::string(LODESTONE_SHARED_DIR) +
                                "/conformance/motionsolve/ImChaitanya_Vehicle-Dynamics-and-Tire-Performance-Testing-using-HyperWorks";

class RealMotionSolveDeck : public ::testing::TestWithParam<std::string> {};

TEST_P(RealMotionSolveDeck, EveryUnsupportedElementIsNamedAtItsLine) {
  const std::string path = kDeckFolder + "/" + GetParam();
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "conformance deck not available (needs ../shared): " << path;
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeck(path, diagnostics);
  EXPECT_FALSE(spec) << "these decks use joints and user subroutines, which this version cannot run";

  // Independently of the reader: where each element tag of the unsupported kinds opens in the file.
  const std::vector<std::string> text = readLines(path);
  const std::regex tag(
      R"(<\s*(Constraint_(?!Joint|Jprim|Coupler|Gear)\w+|Motion_(?!Joint|Marker)\w+|)"
      R"(Force_(?!Gravity|Scalar_TwoBody|Vector_\w+Body|SpringDamper|Bushing|Beam)\w+|)"
      R"(Control_(?!Diff|StateEqn|SISO)\w+|Sensor_(?!Event)\w+)\b)");  // UserProgramControl is read: CONSUB runs
  std::map<int, std::string> unsupportedAt;  // line -> element
  for (size_t i = 0; i < text.size(); ++i) {
    std::smatch match;
    if (std::regex_search(text[i], match, tag)) unsupportedAt[static_cast<int>(i) + 1] = match[1];
  }
  // The tire rig has none left (every element kind it uses reads): each found must be named at its line, and no
  // other element refused as a kind.
  std::map<int, std::string> reported;
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.severity == Severity::Error && d.message.find("element is not supported") != std::string::npos) {
      reported[d.where.line] = d.where.element;
    }
  }
  EXPECT_EQ(reported, unsupportedAt);
  // Control_StateEqn reads, the decks' GSE subroutines too: no error on their lines (the vendor library they name is
  // reported once, at the first element that needs it).
  std::set<int> stateEquationsAt;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i].find("<Control_StateEqn") != std::string::npos) stateEquationsAt.insert(static_cast<int>(i) + 1);
  }
  EXPECT_FALSE(stateEquationsAt.empty());
  for (const Diagnostic& d : diagnostics.entries()) {
    EXPECT_FALSE(d.severity == Severity::Error && stateEquationsAt.contains(d.where.line)) << d.format();
  }
  // Deactivate / Activate name elements Lodestone switches (MOTION…): none of them is refused.
  const std::regex activation(R"(<\s*(Deactivate|Activate)\b)");
  for (size_t i = 0; i < text.size(); ++i) {
    if (!std::regex_search(text[i], activation)) continue;
    for (const Diagnostic& d : diagnostics.entries()) {
      EXPECT_FALSE(d.severity == Severity::Error && d.where.line == static_cast<int>(i) + 1) << d.format();
    }
  }
  // Every diagnostic has a line, and the line holds the element it names.
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.where.line == 0) continue;  // deck-wide statements (e.g. "no Simulate")
    ASSERT_LE(d.where.line, static_cast<int>(text.size()));
    const std::string& line = text[d.where.line - 1];
    if (!d.where.element.empty()) {
      EXPECT_NE(toLower(line).find("<" + toLower(d.where.element)), std::string::npos) << d.format() << "\n" << line;
    }
  }
}

TEST_P(RealMotionSolveDeck, SupportedElementsReadWithoutErrors) {
  const std::string path = kDeckFolder + "/" + GetParam();
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "conformance deck not available (needs ../shared): " << path;
  Diagnostics diagnostics;
  readDeck(path, diagnostics);
  for (const Diagnostic& d : diagnostics.entries()) {
    if (d.severity != Severity::Error) continue;
    for (const char* element : {"Body_Rigid", "Reference_Marker", "Post_Graphic", "Param_Unit", "Param_Transient",
                                "Force_Gravity", "Constraint_Joint", "Constraint_Jprim", "Motion_Joint",
                                "Force_SpringDamper", "Force_Bushing", "Force_Vector_OneBody", "Constraint_Coupler"}) {
      EXPECT_NE(d.where.element, element) << d.format();
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Decks, RealMotionSolveDeck, ::testing::Values("TIRE TEST RIG.xml", "Project 1 model.xml"),
                         [](const auto& info) { return info.index == 0 ? std::string("TireTestRig") : std::string("FullVehicle"); });

TEST(RealMotionSolveDeck, TireRigModelPartsBuild) {
  const std::string path = kDeckFolder + "/TIRE TEST RIG.xml";
  if (!std::filesystem::exists(path)) GTEST_SKIP() << "conformance deck not available (needs ../shared): " << path;
  // Keep only what this version supports: the bodies, markers, graphics, units, gravity, the scalar force and the
  // variables given by expressions must build.
  std::ifstream in(path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  const std::regex unsupported(
      R"(<(Constraint_Joint|Motion_Joint|Force_Vector_TwoBody|Control_StateEqn|UserProgramControl|Deactivate)[^>]*/>)");
  text = std::regex_replace(text, unsupported, "");
  const std::regex userVariable(R"(<Reference_Variable[^>]*"USERSUB"[^>]*/>)");
  text = std::regex_replace(text, userVariable, "");
  // Their REQSUB is in Altair's mbdtire, which `run` needs (a missing library is a build error there).
  const std::regex userRequest(R"(<Post_Request[^>]*"USERSUB"[^>]*/>)");
  text = std::regex_replace(text, userRequest, "");
  const std::regex command(R"(<Command>[\s\S]*</Command>)");
  text = std::regex_replace(text, command,
                            "<Command><Simulate analysis_type=\"Transient\" end_time=\"0.1\" print_interval=\"0.01\"/>"
                            "</Command>");
  Diagnostics diagnostics;
  const std::optional<ModelSpec> spec = readDeckText(text, "tire-rig-parts.xml", diagnostics);
  ASSERT_TRUE(spec) << diagnostics.formatAll();
  const std::optional<Model> model = buildModel(*spec, diagnostics);
  ASSERT_TRUE(model) << diagnostics.formatAll();
  EXPECT_EQ(model->bodies.size(), 4u);
  EXPECT_EQ(model->markers.size(), 65u);
  EXPECT_NEAR(model->units.massFactor, 1e-3, 1e-18);
  EXPECT_EQ(model->gravity, Vector3(0, 0, -9810));
  EXPECT_EQ(spec->graphics.size(), 29u);
  EXPECT_EQ(model->forces->elements.size(), 1u) << "Force_Scalar_TwoBody id=30301";
  EXPECT_EQ(model->variables->variables.size(), 5u) << "17 Reference_Variable, 12 of them USERSUB";
  EXPECT_EQ(model->requests->requests.size(), 7u) << "14 Post_Request: 2 MARKER_FORCE, 5 EXPRESSION, 7 USERSUB";
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

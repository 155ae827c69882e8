// Force_Beam in decks: a real deck's beam reads and builds; each attribute its table checks (positive section and
// material, known markers, I and J on different bodies) fails with the element's line; Adams' names are pointed to
// ours.
#include "support/deck_testing.h"

namespace lodestone::testing {
namespace {

// Lines 3–5: ground and body 2 (marker 20); line 6: marker 10 on ground; line 7: the beam.
constexpr int kBeamLine = 7;

// As the vehicle deck's stabiliser bar writes them (millimetre units there; any consistent units here).
const std::string kSection = "length=\"29.\" E=\"200000.\" G=\"75000.\" area=\"314.15927\" ixx=\"15707.963\" "
                            "iyy=\"7853.9816\" izz=\"7853.9816\" ASY=\"0.\" ASZ=\"0.\" cratio=\"0.01\"";

std::string beamDeck(const std::string& beam) {
  return deck(groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n" + beam);
}

std::string withAttribute(const std::string& name, const std::string& value) {
  std::string section = kSection;
  const size_t at = section.find(name + "=\"");
  const size_t end = section.find('"', at + name.size() + 2);
  return section.replace(at, end + 1 - at, name + "=\"" + value + "\"");
}

TEST(ForceBeamDecks, TheVehicleDecksBeamReadsAndBuilds) {
  const Diagnostics diagnostics = readAndBuildDeck(
      beamDeck("<Force_Beam id=\"309001\" label=\"Stabilizer bar-Beam 0\" full_label=\"Model-Stabilizer bar-Beam 0\" "
               "i_marker_id=\"20\" j_marker_id=\"10\" " + kSection + " preload_tx=\"5\"/>"));
  EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  EXPECT_EQ(diagnostics.warningCount(), 0) << diagnostics.formatAll();
}

// Each of the section and the material must be > 0; a zero, a negative and a missing one are each refused at the line.
// Attribute names are read in any case (the deck writes E, the messages say e).
TEST(ForceBeamDecks, SectionAndMaterialMustBePositive) {
  const std::string beam = "<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"10\" ";
  for (const std::string name : {"length", "E", "G", "area", "ixx", "iyy", "izz"}) {
    const std::string said = name == "E" ? "e" : name == "G" ? "g" : name;
    EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck(beam + withAttribute(name, "0") + "/>")), kBeamLine,
                         "Force_Beam id=5: attribute '" + said + "' must be > 0 (got 0)"))
        << name;
    EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck(beam + withAttribute(name, "-2") + "/>")), kBeamLine,
                         "attribute '" + said + "' must be > 0 (got -2)"))
        << name;
    std::string missing = withAttribute(name, "");
    missing.erase(missing.find(name + "=\"\""), name.size() + 3);
    EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck(beam + missing + "/>")), kBeamLine,
                         "Force_Beam id=5: missing required attribute '" + said + "'"))
        << name;
  }
  for (const std::string name : {"ASY", "ASZ", "cratio"}) {
    const std::string said = name == "cratio" ? name : name == "ASY" ? "asy" : "asz";
    EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck(beam + withAttribute(name, "-0.5") + "/>")), kBeamLine,
                         "attribute '" + said + "' must be >= 0 (got -0.5)"))
        << name;
  }
}

TEST(ForceBeamDecks, MarkersMustExistAndBeOnDifferentBodies) {
  EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck("<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"99\" " +
                                                 kSection + "/>")),
                       kBeamLine, "attribute 'j_marker_id' refers to Reference_Marker id=99, which is not defined"));
  EXPECT_TRUE(hasError(readAndBuildDeck(beamDeck("<Force_Beam id=\"5\" j_marker_id=\"10\" " + kSection + "/>")),
                       kBeamLine, "Force_Beam id=5: missing required attribute 'i_marker_id'"));
  // Marker 21 on body 2 beside 20: a beam from a body to itself loads nothing.
  const std::string sameBody = deck(groundAndBody() +
                                    "\n<Reference_Marker id=\"21\" body_id=\"2\" pos_x=\"1\"/>\n"
                                    "<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"21\" " + kSection + "/>");
  EXPECT_TRUE(hasError(readAndBuildDeck(sameBody), kBeamLine,
                       "Force_Beam id=5: i_marker_id=20 and j_marker_id=21 are both on Body_Rigid id=2; a beam joins "
                       "two different bodies"));
}

// Deactivate element_type="BEAM" switches a Force_Beam (and FORCE does too); an id the model lacks is an error at the
// command's line (the beam on line 7, then </Model> and <Command>).
TEST(ForceBeamDecks, DeactivateBeamNamesAForceBeam) {
  const std::string beam = "<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"10\" " + kSection + "/>";
  const std::string model = groundAndBody() + "\n<Reference_Marker id=\"10\" body_id=\"1\"/>\n" + beam;
  const std::string simulate = "<Simulate analysis_type=\"Transient\" end_time=\"1\" print_interval=\"0.1\"/>";
  for (const char* type : {"BEAM", "FORCE"}) {
    const Diagnostics diagnostics = readAndBuildDeck(
        deck(model, "<Deactivate element_type=\"" + std::string(type) + "\" element_id=\"5\"/>\n" + simulate));
    EXPECT_EQ(diagnostics.errorCount(), 0) << diagnostics.formatAll();
  }
  EXPECT_TRUE(hasError(readAndBuildDeck(deck(model, "<Deactivate element_type=\"BEAM\" element_id=\"7\"/>\n" +
                                                        simulate)),
                       kBeamLine + 3, "element_id=7: the model has no Force_Beam with this id"));
}

// Adams' BEAM writes EMODULUS, GMODULUS and CMATRIX: the warning names ours.
TEST(ForceBeamDecks, AdamsNamesPointToOurs) {
  const Diagnostics diagnostics = readAndBuildDeck(beamDeck(
      "<Force_Beam id=\"5\" i_marker_id=\"20\" j_marker_id=\"10\" " + kSection + " emodulus=\"1\" cmatrix=\"0\"/>"));
  EXPECT_TRUE(hasWarning(diagnostics, kBeamLine, "'E'")) << diagnostics.formatAll();
  EXPECT_TRUE(hasWarning(diagnostics, kBeamLine, "cratio")) << diagnostics.formatAll();
}

}  // namespace
}  // namespace lodestone::testing

// Named laws end to end: a law from a law library (--laws or LODESTONE_LAWS) is a cnf_type / cff_type like a
// built-in one — the same results as the built-in formula, its attributes validated with the deck's lines, listed by
// `lodestone elements` — and a library that cannot serve is refused with a message naming what failed.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

const std::string kLibraries = std::string(LODESTONE_BINARY_DIR) + "/lib/";

class NamedLawRun : public SubroutineRun {
 protected:
  // models/usersub/sphere_builtin.xml with its IMPACT law replaced by `normalLaw` (a cnf_type and its attributes).
  std::string sphereDeck(const std::string& name, const std::string& normalLaw) {
    std::string deck = readFile(kUsersubModels + "sphere_builtin.xml");
    const std::string from = "cnf_type=\"IMPACT\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"20.\" dmax=\"1e-4\"";
    const size_t at = deck.find(from);
    EXPECT_NE(at, std::string::npos) << "sphere_builtin.xml changed";
    deck.replace(at, from.size(), normalLaw);
    deckText = deck;
    return folder.write(name, deck);
  }
  std::string deckText;
};

const std::string kImpactNamed =
    "cnf_type=\"IMPACT_NAMED\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"20.\" dmax=\"1e-4\"";

TEST_F(NamedLawRun, ANamedLawReproducesTheBuiltInLawItRewrites) {
  expectBuiltInResults(sphereDeck("named.xml", kImpactNamed), {"--laws", "named_laws"});
}

TEST_F(NamedLawRun, TheEnvironmentVariableLoadsLawsAndTheirMessagesReachTheRunLog) {
  const std::string path = sphereDeck("message.xml", kImpactNamed + " report_after=\"5\"");
  setenv("LODESTONE_LAWS", (kLibraries + "named_laws.so").c_str(), 1);
  const int code = run(path, "message");
  unsetenv("LODESTONE_LAWS");
  ASSERT_EQ(code, 0) << stderrText();
  const std::string log = readFile(folder / "message/run.log");
  EXPECT_NE(log.find(" IMPACT_NAMED: force "), std::string::npos) << log;
  EXPECT_NE(log.find(" exceeds 5 at t="), std::string::npos) << log;
}

TEST_F(NamedLawRun, ItsAttributesAreValidatedWithTheDecksLines) {
  const std::string path = sphereDeck(
      "invalid.xml",
      "cnf_type=\"IMPACT_NAMED\" stiffness=\"1e7\" exponent=\"0.5\" damping=\"20.\" stiffnes=\"3\"");
  EXPECT_EQ(run(path, "invalid", {"--laws", "named_laws"}), 1);
  const std::string error = elementError(path, deckText);
  const std::string text = stderrText();
  EXPECT_NE(text.find(error + "missing required attribute 'dmax'"), std::string::npos) << text;
  EXPECT_NE(text.find(error + "attribute 'exponent' must be >= 1 (got 0.5)"), std::string::npos) << text;
  EXPECT_NE(text.find("warning: Force_Contact id=300: unknown attribute 'stiffnes' ignored"), std::string::npos)
      << text;
}

TEST_F(NamedLawRun, ItsOwnRulesAreCheckedWhenTheModelIsBuilt) {
  const std::string path = sphereDeck(
      "rules.xml", "cnf_type=\"IMPACT_NAMED\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"20.\" dmax=\"0.5\"");
  EXPECT_EQ(run(path, "rules", {"--laws", "named_laws"}), 1);
  EXPECT_NE(stderrText().find(elementError(path, deckText) +
                              "cnf_type=\"IMPACT_NAMED\": dmax above 0.1 is surely a unit mistake"),
            std::string::npos)
      << stderrText();
}

// A law's check warns through the host's warn(): values it can work with but that are almost surely a mistake.
TEST_F(NamedLawRun, ItsOwnWarningsReachTheDeckWithItsLine) {
  const std::string path = sphereDeck(
      "elastic.xml", "cnf_type=\"IMPACT_NAMED\" stiffness=\"1e7\" exponent=\"1.5\" damping=\"0\" dmax=\"1e-4\"");
  EXPECT_EQ(runLodestone({"lodestone", "check", path, "--laws", "named_laws"}), 0) << stderrText();
  const std::string warning = path + ":" + std::to_string(lineOf(deckText, "<Force_Contact")) +
                              ":5: warning: Force_Contact id=300: cnf_type=\"IMPACT_NAMED\": damping 0 makes every "
                              "impact perfectly elastic";
  EXPECT_NE(stderrText().find(warning), std::string::npos) << stderrText();
  EXPECT_NE(stdoutText().find(path + ": OK (1 warning)"), std::string::npos) << stdoutText();
}

TEST_F(NamedLawRun, WithoutItsLibraryTheLawIsAnUnknownKeyword) {
  const std::string path = sphereDeck("unloaded.xml", kImpactNamed);
  EXPECT_EQ(run(path, "unloaded"), 1);
  EXPECT_NE(stderrText().find(elementError(path, deckText) + "attribute 'cnf_type' must be one of IMPACT, "),
            std::string::npos)
      << stderrText();
  EXPECT_NE(stderrText().find("(got 'IMPACT_NAMED'); a law from a law library is known once the library is loaded "
                              "(lodestone --laws LIBRARY, or LODESTONE_LAWS)"),
            std::string::npos)
      << stderrText();
}

TEST_F(NamedLawRun, ALawOfAnotherAbiVersionIsRefusedAndTheElementNamingItSaysWhy) {
  const std::string path = sphereDeck("old.xml", "cnf_type=\"OLD_LAW\"");
  EXPECT_EQ(run(path, "old", {"--laws", "named_laws_old_abi"}), 1);
  const std::string text = stderrText();
  const std::string why = "law \"OLD_LAW\" of " + kLibraries + "named_laws_old_abi.so (from lodestone_register_laws) "
                          "was built against law ABI version 0";
  EXPECT_NE(text.find("lodestone: warning: " + why), std::string::npos) << text;
  EXPECT_NE(text.find(elementError(path, deckText) + "cnf_type=\"OLD_LAW\" cannot be used: " + why),
            std::string::npos)
      << text;
}

TEST_F(NamedLawRun, ALibraryThatCannotServeStopsBeforeAnyDeckIsRead) {
  const std::string path = sphereDeck("any.xml", kImpactNamed);
  EXPECT_EQ(run(path, "missing", {"--laws", "no_such_law_library"}), 1);
  EXPECT_NE(stderrText().find("lodestone: error: law library \"no_such_law_library\" not found (tried "),
            std::string::npos)
      << stderrText();
  EXPECT_EQ(run(path, "symbol", {"--laws", "usersub_examples"}), 1);
  EXPECT_NE(stderrText().find("has no function lodestone_register_laws"), std::string::npos) << stderrText();
  EXPECT_EQ(run(path, "clash", {"--laws", "named_laws_clash"}), 1);
  EXPECT_NE(stderrText().find("law \"Impact\": the keyword is already taken by another law"), std::string::npos)
      << stderrText();
  EXPECT_FALSE(std::filesystem::exists(folder / "missing/run.log")) << "nothing was run";
}

// The runs of a batch are processes of their own: --laws reaches them through LODESTONE_LAWS.
TEST_F(NamedLawRun, BatchRunsLoadTheLawsToo) {
  ASSERT_EQ(runLodestone({"lodestone", "batch", kUsersubModels + "block_lugre.xml", "-o", folder / "batch", "--laws",
                          "lugre_friction"}),
            0)
      << stdoutText() << stderrText();
  EXPECT_TRUE(std::filesystem::exists(folder / "batch/block_lugre/contacts.csv")) << stdoutText();
}

TEST_F(NamedLawRun, ElementsListsANamedLawsAttributes) {
  ASSERT_EQ(runLodestone({"lodestone", "elements", "Force_Contact", "--laws", "lugre_friction"}), 0) << stderrText();
  const std::string text = stdoutText();
  EXPECT_NE(text.find(" LUGRE "), std::string::npos) << text;
  EXPECT_NE(text.find("  with cff_type=\"LUGRE\":\n    mu_static: real, > 0, required"), std::string::npos) << text;
  EXPECT_NE(text.find("    viscous_friction: real, >= 0, default 0"), std::string::npos) << text;
}

TEST_F(NamedLawRun, TheLugreExampleDeckHoldsItsBlock) {
  ASSERT_EQ(run(kUsersubModels + "block_lugre.xml", "lugre", {"--laws", "lugre_friction"}), 0) << stderrText();
  const lodestone::testing::ResultsTable contacts(folder / "lugre/contacts.csv");
  ASSERT_GT(contacts.rowCount(), 50u);
  const size_t last = contacts.rowCount() - 1;
  EXPECT_NEAR(contacts.at(last, "ft") / contacts.at(last, "fn"), std::tan(20 * M_PI / 180), 1e-4);
}

}  // namespace
}  // namespace lodestone::cli

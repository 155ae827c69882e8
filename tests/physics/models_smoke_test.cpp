// Every deck in models/ runs as it is: the examples a user starts from must never be broken.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "solver/driver/run.h"

namespace lodestone::testing {
namespace {

std::vector<std::string> modelDecks() {
  std::vector<std::string> decks;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(LODESTONE_SOURCE_DIR) + "/models")) {
    if (entry.path().extension() == ".xml") decks.push_back(entry.path().stem().string());
  }
  std::sort(decks.begin(), decks.end());
  return decks;
}

// Warnings a deck's comment announces: a contact pressed in on purpose at the start (a body at its rest depth, a
// brake clamped on), and the bracket's energy balance, which its mesh contact does not close (about 1 %).
std::vector<std::string> announcedWarnings(const std::string& deck) {
  std::vector<std::string> announced{"the contact starts pressed in"};
  if (deck == "bracket_down_stairs") announced.push_back("the energy balance does not close");
  return announced;
}

class ModelDeck : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelDeck, RunsToCompletionWithoutWarnings) {
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + GetParam() + ".xml";
  request.outputDir = std::string(LODESTONE_BINARY_DIR) + "/test_output/smoke_" + GetParam();
  const RunOutcome outcome = runDeck(request);
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  EXPECT_EQ(outcome.diagnostics.warningCount(), 0) << outcome.diagnostics.formatAll();
  EXPECT_TRUE(std::filesystem::exists(request.outputDir + "/bodies.csv"));
  // Nor does the run warn: no struggle, no cost warning (a normal deck's steps are not held short by a contact),
  // except for what a deck's comment announces and explains.
  std::ifstream log(request.outputDir + "/run.log");
  for (std::string line; std::getline(log, line);) {
    if (line.find("WARNING") == std::string::npos) continue;
    const std::vector<std::string> announced = announcedWarnings(GetParam());
    const bool isAnnounced = std::any_of(announced.begin(), announced.end(), [&](const std::string& text) {
      return line.find(text) != std::string::npos;
    });
    EXPECT_TRUE(isAnnounced) << line;
  }
}

INSTANTIATE_TEST_SUITE_P(Models, ModelDeck, ::testing::ValuesIn(modelDecks()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace lodestone::testing

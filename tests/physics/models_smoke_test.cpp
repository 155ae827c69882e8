// Every deck in models/ runs as it is: the examples a user starts from must never be broken.
#include <filesystem>

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

class ModelDeck : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelDeck, RunsToCompletionWithoutWarnings) {
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + GetParam() + ".xml";
  request.outputDir = std::string(LODESTONE_BINARY_DIR) + "/test_output/smoke_" + GetParam();
  const RunOutcome outcome = runDeck(request);
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  EXPECT_EQ(outcome.diagnostics.warningCount(), 0) << outcome.diagnostics.formatAll();
  EXPECT_TRUE(std::filesystem::exists(request.outputDir + "/bodies.csv"));
  EXPECT_TRUE(std::filesystem::exists(request.outputDir + "/run.log"));
}

INSTANTIATE_TEST_SUITE_P(Models, ModelDeck, ::testing::ValuesIn(modelDecks()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace lodestone::testing

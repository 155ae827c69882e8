// Every deck in models/ runs as it is: the examples a user starts from must never be broken.
#include <algorithm>
#include <filesystem>
#include <map>
#include <cctype>
#include <string>

#include <gtest/gtest.h>

#include "support/model_runs.h"
#include "support/text_files.h"

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

// The decks another test runs as they are, through runModel with the deck's name, which checks the same as this test
// does (expectCleanRun), each with the test file that does: running them here too cost two minutes of the sanitizer
// suite. Read from the tests' sources, so that a deck whose last such test goes comes back here by itself.
std::map<std::string, std::string> decksRunElsewhere() {
  std::map<std::string, std::string> runBy;
  // A plain search, not std::regex: this runs in each of the ~35 ModelDeck processes, and libstdc++'s regex over
  // every test source took 0.8 s of each under the sanitizers.
  const std::string call = "runModel(\"";
  const std::string tests = std::string(LODESTONE_SOURCE_DIR) + "/tests";
  for (const auto& entry : std::filesystem::recursive_directory_iterator(tests)) {
    if (entry.path().extension() != ".cpp") continue;
    const std::string text = fileText(entry.path().string());
    for (size_t at = text.find(call); at != std::string::npos; at = text.find(call, at + 1)) {
      const size_t begin = at + call.size(), end = text.find("\")", begin);
      const std::string name = end == std::string::npos ? std::string() : text.substr(begin, end - begin);
      const bool isName = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
      });
      if (isName) runBy.emplace(name, entry.path().filename().string());
    }
  }
  return runBy;
}

class ModelDeck : public ::testing::TestWithParam<std::string> {};

TEST_P(ModelDeck, RunsToCompletionWithoutWarnings) {
  const std::map<std::string, std::string> elsewhere = decksRunElsewhere();
  if (const auto found = elsewhere.find(GetParam()); found != elsewhere.end()) {
    GTEST_SKIP() << GetParam() << " runs in " << found->second << " through runModel, with the same checks";
  }
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + GetParam() + ".xml";
  request.outputDir = std::string(LODESTONE_BINARY_DIR) + "/test_output/smoke_" + GetParam();
  expectCleanRun(GetParam(), runDeck(request), request.outputDir);
}

// The scan finds what it must: decks that tests are known to run through runModel, and no deck that does not exist.
TEST(ModelDeckScan, FindsTheDecksOtherTestsRun) {
  const std::map<std::string, std::string> elsewhere = decksRunElsewhere();
  EXPECT_EQ(elsewhere.count("pin_in_bore_2d"), 1u);
  EXPECT_EQ(elsewhere.count("spur_gear_pair_2d"), 1u);
  const std::vector<std::string> decks = modelDecks();
  for (const auto& [deck, file] : elsewhere) {
    EXPECT_TRUE(std::binary_search(decks.begin(), decks.end(), deck)) << deck << " (run in " << file << ")";
  }
  EXPECT_LT(elsewhere.size(), decks.size());  // some decks are left to ModelDeck
}

INSTANTIATE_TEST_SUITE_P(Models, ModelDeck, ::testing::ValuesIn(modelDecks()),
                         [](const auto& info) { return info.param; });

}  // namespace
}  // namespace lodestone::testing

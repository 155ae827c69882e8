// Runs a deck of models/ end to end (runDeck) and returns its results folder, for tests that check the figures a
// model's comments promise.
#pragma once

#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "solver/driver/run.h"

namespace lodestone::testing {

// models/NAME.xml into test_output/TEST_NAME: one folder per test and deck, since ctest runs tests in parallel and
// two tests running the same deck into one folder would delete each other's results.
inline std::string runModel(const std::string& name) {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string output = std::string(LODESTONE_BINARY_DIR) + "/test_output/" + test + "_" + name;
  std::filesystem::remove_all(output);
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + name + ".xml";
  request.outputDir = output;
  const RunOutcome outcome = runDeck(request);
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  return output;
}

}  // namespace lodestone::testing

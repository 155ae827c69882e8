// Runs a deck of models/ end to end (runDeck) and returns its results folder, for tests that check the figures a
// model's comments promise; and what every run of a model must show (ModelDeck runs the decks no other test runs).
#pragma once

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "solver/driver/run.h"

namespace lodestone::testing {

// Warnings a deck's comment announces: a contact pressed in on purpose at the start (a body at its rest depth, a
// brake clamped on), and the bracket's energy balance, which its mesh contact does not close (about 1 %).
inline std::vector<std::string> announcedWarnings(const std::string& deck) {
  std::vector<std::string> announced{"the contact starts pressed in"};
  if (deck == "bracket_down_stairs") announced.push_back("the energy balance does not close");
  return announced;
}

// A model runs to completion with its results and no warning: none from the deck, and none in run.log (no struggle,
// no cost warning: a normal deck's steps are not held short by a contact), except what its comment announces.
inline void expectCleanRun(const std::string& name, const RunOutcome& outcome, const std::string& output) {
  EXPECT_EQ(outcome.status, RunStatus::Completed) << outcome.message << "\n" << outcome.diagnostics.formatAll();
  EXPECT_EQ(outcome.diagnostics.warningCount(), 0) << outcome.diagnostics.formatAll();
  EXPECT_TRUE(std::filesystem::exists(output + "/bodies.csv"));
  const std::vector<std::string> announced = announcedWarnings(name);
  std::ifstream log(output + "/run.log");
  for (std::string line; std::getline(log, line);) {
    if (line.find("WARNING") == std::string::npos) continue;
    EXPECT_TRUE(std::any_of(announced.begin(), announced.end(),
                            [&](const std::string& text) { return line.find(text) != std::string::npos; }))
        << name << ": " << line;
  }
}

// models/NAME.xml into test_output/TEST_NAME: one folder per test and deck, since ctest runs tests in parallel and
// two tests running the same deck into one folder would delete each other's results. The run must be clean
// (expectCleanRun): ModelDeck leaves the decks run here to these tests.
inline std::string runModel(const std::string& name) {
  const std::string test = ::testing::UnitTest::GetInstance()->current_test_info()->name();
  const std::string output = std::string(LODESTONE_BINARY_DIR) + "/test_output/" + test + "_" + name;
  std::filesystem::remove_all(output);
  RunRequest request;
  request.deckPath = std::string(LODESTONE_SOURCE_DIR) + "/models/" + name + ".xml";
  request.outputDir = output;
  expectCleanRun(name, runDeck(request), output);
  return output;
}

}  // namespace lodestone::testing

// run.log: the lines a MotionSolve user looks for, and a last line that always says how the run ended.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "solver/output/number_format.h"
#include "solver/output/run_log.h"

namespace lodestone {
namespace {

namespace fs = std::filesystem;

// A file in a folder of this test process's own, removed when the process ends.
fs::path scratchFile(const std::string& name) {
  struct Folder {
    fs::path path = fs::temp_directory_path() / ("lodestone_log_test_" + std::to_string(::getpid()));
    Folder() { fs::create_directories(path); }
    ~Folder() {
      std::error_code ignored;
      fs::remove_all(path, ignored);
    }
  };
  static const Folder folder;
  return folder.path / name;
}

std::vector<std::string> lines(const fs::path& path) {
  std::ifstream in(path);
  std::vector<std::string> result;
  for (std::string line; std::getline(in, line);) result.push_back(line);
  return result;
}

bool contains(const std::vector<std::string>& lines, const std::string& text) {
  for (const std::string& line : lines) {
    if (line.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(RunLogTest, StatesUnitsElementCountsSettingsProgressAndCompletion) {
  const fs::path path = scratchFile("run.log");
  {
    RunLog log(path);
    log.banner("deck.xml");
    UnitSystem units;
    units.length = "MILLIMETER";
    units.massFactor = 1e-3;
    log.modelSummary(units, {{"Reference_Marker", 4}, {"Body_Rigid", 3}}, 2);
    AnalysisDescription analysis;
    analysis.endTime = 2;
    analysis.printInterval = 0.05;
    analysis.settings.hMax = 0.01;
    analysis.linearSolver = "dense LU";
    analysis.equations = 26;
    log.analysisStart(analysis);
    log.progress(0.25, 3, 1e-2);
    SolverStatistics statistics;
    statistics.steps = 212;
    log.statistics(statistics);
    log.phaseTimes(PhaseTimes{});
    log.completed();
  }
  const std::vector<std::string> written = lines(path);
  EXPECT_TRUE(contains(written, "INFO: Parsing XML file [deck.xml]..."));
  EXPECT_TRUE(contains(written, "INFO: Model units are MILLIMETER SECOND NEWTON KILOGRAM."));
  EXPECT_TRUE(contains(written, " Reference_Marker             : 4"));
  EXPECT_TRUE(contains(written, " Body_Rigid                   : 3"));
  EXPECT_TRUE(contains(written, " Error Tolerance              : 1.000E-03"));
  EXPECT_TRUE(contains(written, " Maximum Step Size            : 1.000E-02"));
  EXPECT_TRUE(contains(written, " Time=2.500E-01; Order=3; H=1.000E-02"));
  EXPECT_TRUE(contains(written, " Number of solution steps                 = 212"));
  EXPECT_TRUE(contains(written, " Residual Evaluation"));
  EXPECT_TRUE(contains(written, " Jacobian Factorization"));
  EXPECT_TRUE(contains(written, " Total CPU Time"));
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written.back(), "Simulation completed.");
}

TEST(RunLogTest, FailureIsTheLastLineWithTimeAndReason) {
  const fs::path path = scratchFile("failed.log");
  {
    RunLog log(path);
    log.line("something before");
    log.failed(0.0123, "IDA_ERR_FAIL in Body_Rigid id=3 (deck.xml:12): error test failed");
  }
  const std::vector<std::string> written = lines(path);
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written.back(), "Simulation FAILED at t=1.230000E-02: IDA_ERR_FAIL in Body_Rigid id=3 (deck.xml:12): error test failed");
}

TEST(NumberFormatTest, ShortestRoundTripAndScientific) {
  EXPECT_EQ(roundTrip(0.1), "0.1");
  EXPECT_EQ(roundTrip(1e-7), "1e-07");
  EXPECT_EQ(roundTrip(-3.0000000000000004), "-3.0000000000000004");
  EXPECT_EQ(scientific(1e-3), "1.000E-03");
  EXPECT_EQ(scientific(2681.7), "2.682E+03");
}

}  // namespace
}  // namespace lodestone

// run.log: the lines a MotionSolve user looks for, and a last line that always says how the run ended.
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "solver/output/number_format.h"
#include "solver/output/run_log.h"
#include "support/text_files.h"

namespace lodestone {
namespace {

namespace fs = std::filesystem;
using testing::scratchFile;

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
  const std::vector<std::string> written = testing::readLines(path);
  EXPECT_TRUE(testing::anyLineContains(written, "INFO: Parsing XML file [deck.xml]..."));
  EXPECT_TRUE(testing::anyLineContains(written, "INFO: Model units are MILLIMETER SECOND NEWTON KILOGRAM."));
  EXPECT_TRUE(testing::anyLineContains(written, " Reference_Marker             : 4"));
  EXPECT_TRUE(testing::anyLineContains(written, " Body_Rigid                   : 3"));
  EXPECT_TRUE(testing::anyLineContains(written, " Error Tolerance              : 1.000E-03"));
  EXPECT_TRUE(testing::anyLineContains(written, " Maximum Step Size            : 1.000E-02"));
  EXPECT_TRUE(testing::anyLineContains(written, " Time=2.500E-01; Order=3; H=1.000E-02"));
  EXPECT_TRUE(testing::anyLineContains(written, " Number of solution steps                 = 212"));
  EXPECT_TRUE(testing::anyLineContains(written, " Residual Evaluation"));
  EXPECT_TRUE(testing::anyLineContains(written, " Jacobian Factorization"));
  EXPECT_TRUE(testing::anyLineContains(written, " Total CPU Time"));
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
  const std::vector<std::string> written = testing::readLines(path);
  ASSERT_FALSE(written.empty());
  EXPECT_EQ(written.back(), "Simulation FAILED at t=1.230000E-02: IDA_ERR_FAIL in Body_Rigid id=3 (deck.xml:12): error test failed");
}

// /dev/full takes the file's creation and refuses every write, as a full disk does.
TEST(RunLogTest, ALineTheDiskRefusesIsKeptAsTheFirstFailure) {
  RunLog log("/dev/full");
  EXPECT_FALSE(log.writeFailure());
  log.line("refused");
  log.completed();
  ASSERT_TRUE(log.writeFailure());
  EXPECT_EQ(*log.writeFailure(), "cannot write /dev/full: No space left on device");
}

TEST(RunLogTest, AFileThatCannotBeCreatedSaysWhichAndWhy) {
  const std::filesystem::path path = "/nonexistent-lodestone-folder/run.log";
  try {
    RunLog log(path);
    FAIL() << "created " << path;
  } catch (const std::runtime_error& error) {
    EXPECT_EQ(std::string(error.what()), "cannot create " + path.string() + ": No such file or directory");
  }
}

TEST(NumberFormatTest, Scientific) {
  EXPECT_EQ(scientific(1e-3), "1.000E-03");
  EXPECT_EQ(scientific(2681.7), "2.682E+03");
}

}  // namespace
}  // namespace lodestone

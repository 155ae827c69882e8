// How a run ends when something other than the deck ends it: a signal from outside, or user code that exits,
// crashes, loops for ever or returns NaN. Whatever happens, the last line of run.log and of standard error says
// what ended the run, and the exit status says how.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <string>
#include <vector>

#include "subroutine_runs.h"

namespace lodestone::cli {
namespace {

using namespace testing;

std::string lastLineOf(const std::string& text) {
  std::string trimmed = text;
  while (!trimmed.empty() && trimmed.back() == '\n') trimmed.pop_back();
  return trimmed.substr(trimmed.rfind('\n') + 1);
}

size_t countOf(const std::string& text, char character) { return std::count(text.begin(), text.end(), character); }

class RunEnding : public SubroutineRun {
 protected:
  // `lodestone run deck -o folder/results` as run() does it, but for runs that may end by a signal.
  ProcessEnd runToItsEnd(const std::string& deck, const std::string& results) {
    const std::filesystem::path previous = std::filesystem::current_path();
    std::filesystem::current_path(folder.path());
    const ProcessEnd end = runProcess({LODESTONE_EXECUTABLE, {"lodestone", "run", deck, "-o", folder / results},
                                       folder / "stdout.txt", folder / "stderr.txt"});
    std::filesystem::current_path(previous);
    return end;
  }

  // The run is sent the signal from inside, by a subroutine at its first call after t = 0.1 (a known moment, which a
  // timer could not give); it ends after that step.
  void expectInterruptedBy(int signal, int exitCode) {
    const std::string name = signalName(signal);
    const std::string parameters = "1e7, 1.5, 20., 1e-4, 0.1, " + std::to_string(signal);
    const std::string deck = folder.write(name + ".xml", fixtureDeck("CNFSUB_SIGNAL", parameters));
    const ProcessEnd end = runToItsEnd(deck, name);
    ASSERT_EQ(end.kind, ProcessEnd::Kind::Exited) << end.describe() << ": killed by the signal's default action";
    EXPECT_EQ(end.exitCode, exitCode);
    const std::string log = readFile(folder / (name + "/run.log"));
    const std::string last = lastLineOf(log);
    EXPECT_EQ(last.rfind("Simulation interrupted at t=", 0), 0u) << log;
    EXPECT_NE(log.find("Number of solution steps"), std::string::npos) << "the statistics are written: " << log;
    const std::string interruptedAt = last.substr(last.find("t="), last.size() - last.find("t=") - 1);
    EXPECT_NE(readFile(folder / "stderr.txt").find("interrupted at " + interruptedAt), std::string::npos)
        << readFile(folder / "stderr.txt");
    // Every output row is whole: as many cells as the header, and a line end.
    const std::string bodies = readFile(folder / (name + "/bodies.csv"));
    ASSERT_FALSE(bodies.empty());
    EXPECT_EQ(bodies.back(), '\n');
    const std::string header = bodies.substr(0, bodies.find('\n'));
    EXPECT_EQ(countOf(lastLineOf(bodies), ','), countOf(header, ','));
    EXPECT_GT(countOf(bodies, '\n'), 10u);
  }
};

TEST_F(RunEnding, SigintEndsTheRunAfterItsStepWithExit130AndTheLogSaysWhen) {
  expectInterruptedBy(SIGINT, 130);
}

TEST_F(RunEnding, SigtermEndsTheRunAfterItsStepWithExit143AndTheLogSaysWhen) {
  expectInterruptedBy(SIGTERM, 143);
}

}  // namespace
}  // namespace lodestone::cli

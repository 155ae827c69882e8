// How a run ends when something other than the deck ends it: a signal from outside, or user code that exits,
// crashes, loops for ever or returns NaN. Whatever happens, the last line of run.log and of standard error says
// what ended the run, and the exit status says how.
#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>
#include <sstream>
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

// exit(0) inside a subroutine must not pass for success: status 2, and a last line saying where the run ended.
TEST_F(RunEnding, ExitInsideASubroutineFailsTheRunAndNamesTheSubroutine) {
  const std::string deck = folder.write("exit.xml", fixtureDeck("CNFSUB_EXIT", "1e7, 1.5, 20., 1e-4, 0.02"));
  const ProcessEnd end = runToItsEnd(deck, "exit");
  ASSERT_EQ(end.kind, ProcessEnd::Kind::Exited) << end.describe();
  EXPECT_EQ(end.exitCode, 2);
  const std::string where = "Force_Contact id=300: the run ended inside CNFSUB_EXIT in ";
  const std::string log = lastLineOf(readFile(folder / "exit/run.log"));
  EXPECT_EQ(log.rfind("Simulation FAILED at t=", 0), 0u) << log;
  EXPECT_NE(log.find(where), std::string::npos) << log;
  EXPECT_NE(log.find("it called exit()"), std::string::npos) << log;
  const std::string console = lastLineOf(stderrText());
  EXPECT_EQ(console.rfind(deck + ": " + where, 0), 0u) << console;
}

// A crash of the subroutine keeps the status a crash has (the signal's default action: the shell's 128 + N), and
// the last line of run.log and of standard error names the subroutine, the element and t. ASan would take SIGSEGV
// and SIGFPE for its own report (exit 1): the runs are told to leave them alone.
TEST_F(RunEnding, CrashesInsideASubroutineKeepTheirSignalAndNameTheSubroutine) {
  const std::string previousOptions = std::getenv("ASAN_OPTIONS") ? std::getenv("ASAN_OPTIONS") : "";
  setenv("ASAN_OPTIONS", (previousOptions + ":handle_segv=0:handle_sigbus=0:handle_sigfpe=0:handle_abort=0").c_str(),
         1);
  const struct {
    int kind, signal;
    const char* what;
  } crashes[] = {{1, SIGSEGV, "SIGSEGV"}, {2, SIGABRT, "SIGABRT"}, {3, SIGSEGV, "SIGSEGV"}, {4, SIGFPE, "SIGFPE"}};
  for (const auto& crash : crashes) {
    SCOPED_TRACE("crash kind " + std::to_string(crash.kind));
    const std::string results = "crash" + std::to_string(crash.kind);
    const std::string text = fixtureDeck("CNFSUB_CRASH", "1e7, 1.5, 20., 1e-4, 0.02, " + std::to_string(crash.kind));
    const std::string deck = folder.write(results + ".xml", text);
    const ProcessEnd end = runToItsEnd(deck, results);
    ASSERT_EQ(end.kind, ProcessEnd::Kind::Signaled) << end.describe();
    EXPECT_EQ(end.signalNumber, crash.signal);
    const std::string where = "Force_Contact id=300: the run ended inside CNFSUB_CRASH in ";
    const std::string log = lastLineOf(readFile(folder / (results + "/run.log")));
    EXPECT_EQ(log.rfind("Simulation FAILED at t=", 0), 0u) << log;
    EXPECT_NE(log.find(where), std::string::npos) << log;
    EXPECT_NE(log.find("usersub_test_fixtures.so: " + std::string(crash.what)), std::string::npos) << log;
    const std::string console = lastLineOf(stderrText());
    EXPECT_EQ(console.rfind(deck + ": " + where, 0), 0u) << console;
    // One time, the call's, in both lines: the first touch, at about 0.045 s.
    const std::string time = log.substr(std::string("Simulation FAILED at t=").size(), 12);
    EXPECT_EQ(time.rfind("4.", 0), 0u) << log;
    EXPECT_NE(console.find(" at t=" + time + ": " + crash.what), std::string::npos) << console;
  }
  setenv("ASAN_OPTIONS", previousOptions.c_str(), 1);
}

// A subroutine that returns NaN from the touch on: the run ends (exit 2) rather than creep towards the touch an ulp a
// step for ever (3 million steps in 20 s, when only steps that left t + h = t counted as stalled), and the console's
// reason names the subroutine first, before what IDAS met.
TEST_F(RunEnding, ANanFromASubroutineEndsTheRunNamingTheSubroutineFirst) {
  const std::string deck = folder.write("nan.xml", fixtureDeck("CNFSUB_NAN", "1e7, 1.5, 20., 1e-4, 0.02"));
  const ProcessEnd end = runToItsEnd(deck, "nan");
  ASSERT_EQ(end.kind, ProcessEnd::Kind::Exited) << end.describe();
  EXPECT_EQ(end.exitCode, 2);
  const std::string console = lastLineOf(stderrText());
  EXPECT_EQ(console.rfind(deck + ": Force_Contact id=300 (", 0), 0u) << console;
  EXPECT_NE(console.find("CNFSUB_NAN in "), std::string::npos) << console;
  EXPECT_NE(console.find(" returned nan at t=0.04"), std::string::npos) << console;
  EXPECT_NE(console.find("; then IDA_"), std::string::npos) << console;
  EXPECT_EQ(lastLineOf(readFile(folder / "nan/run.log")).rfind("Simulation FAILED at t=4.", 0), 0u);
}

// ---- batch: decks whose user code never returns ---------------------------------------------------------------

// A deck whose subroutine, from its first touch on, loops for ever (writing looping.pid in the working directory).
std::string loopingDeck(const TemporaryFolder& folder) {
  return folder.write("loop.xml", fixtureDeck("CNFSUB_LOOP", "1e7, 1.5, 20., 1e-4, 0.02"));
}

// The process id the looping subroutine wrote, once it has begun looping; 0 when it had not within a minute (a
// bound for a run that would otherwise hang the test, not a timing).
pid_t loopingProcess(const TemporaryFolder& folder) {
  for (int look = 0; look < 6000; ++look) {
    const std::string text = readFile(folder / "looping.pid");
    if (!text.empty()) return static_cast<pid_t>(std::stol(text));
    usleep(10000);
  }
  return 0;
}

// The summary's row of `deck` ("" when there is none), its columns joined by single spaces.
std::string endingSummaryRow(const std::string& summary, const std::string& deck) {
  std::istringstream lines(summary);
  for (std::string line; std::getline(lines, line);) {
    if (!line.starts_with(deck + " ")) continue;
    std::string row;
    for (const char character : line) {
      if (character != ' ' || (!row.empty() && row.back() != ' ')) row += character;
    }
    return row;
  }
  return "";
}

bool processExists(pid_t pid) { return pid > 0 && (kill(pid, 0) == 0 || errno != ESRCH); }

TEST_F(RunEnding, BatchEndsADeckThatRunsLongerThanItsTimeoutAndRunsTheOthers) {
  const std::string looping = loopingDeck(folder);
  const std::string good = folder.write("good.xml", fixtureDeck("CNFSUB_FLAGS", "1e7, 1.5, 20., 1e-4"));
  // One at a time, the looping deck first: the good one runs only if the batch ended the first. The timeout applies
  // to the good deck as well, which must finish within it: 10 s, where it takes 0.1 s optimised and took 1.06 s under
  // the sanitizers beside a physics test (timed out with --timeout 1).
  EXPECT_EQ(runLodestone({"lodestone", "batch", "-j", "1", "--timeout", "10", looping, good}), 2) << stderrText();
  const std::string summary = stdoutText();
  EXPECT_TRUE(endingSummaryRow(summary, looping).starts_with(looping + " timed out ")) << summary;
  EXPECT_TRUE(endingSummaryRow(summary, good).starts_with(good + " done ")) << summary;
  EXPECT_NE(summary.find("2 decks: 1 done, 0 bad decks, 0 failed, 0 crashed, 1 timed out"), std::string::npos)
      << summary;
  EXPECT_NE(summary.find("still running after --timeout 10.00 s; it was ended"), std::string::npos) << summary;
  // Not waited for: a slow build (the sanitizers) may have been timed out before its loop began.
  const std::string written = readFile(folder / "looping.pid");
  const pid_t child = written.empty() ? 0 : static_cast<pid_t>(std::stol(written));
  EXPECT_FALSE(processExists(child)) << "the looping run was left running";
  if (processExists(child)) kill(child, SIGKILL);
}

// SIGTERM to the batch ends the runs it started, which are process groups of their own, and starts no more.
TEST_F(RunEnding, SigtermToABatchEndsItsRunsAndStartsNoMore) {
  const std::string looping = loopingDeck(folder);
  const std::string never = folder.write("never.xml", fixtureDeck("CNFSUB_FLAGS", "1e7, 1.5, 20., 1e-4"));
  const std::filesystem::path previous = std::filesystem::current_path();
  std::filesystem::current_path(folder.path());
  std::string error;
  const pid_t batch = startProcess({LODESTONE_EXECUTABLE, {"lodestone", "batch", "-j", "1", looping, never},
                                    folder / "stdout.txt", folder / "stderr.txt"},
                                   error);
  std::filesystem::current_path(previous);
  ASSERT_GT(batch, 0) << error;
  const pid_t child = loopingProcess(folder);
  EXPECT_GT(child, 0) << "the looping deck did not begin its loop";
  kill(batch, SIGTERM);
  int status = 0;
  pid_t ended = 0;
  for (int look = 0; look < 6000 && ended == 0; ++look) {  // a bound: the batch must end, not hang
    ended = waitpid(batch, &status, WNOHANG);
    if (ended == 0) usleep(10000);
  }
  if (ended == 0) kill(batch, SIGKILL), waitpid(batch, &status, 0);
  ASSERT_EQ(ended, batch) << "the batch did not end";
  EXPECT_TRUE(WIFEXITED(status)) << "killed by the signal's default action, its runs left behind";
  if (WIFEXITED(status)) {
    EXPECT_EQ(WEXITSTATUS(status), 143);
  }
  EXPECT_FALSE(processExists(child)) << "the run was left running (an orphan)";
  if (processExists(child)) kill(child, SIGKILL);
  const std::string summary = stdoutText();
  EXPECT_TRUE(endingSummaryRow(summary, looping).starts_with(looping + " interrupted (SIGTERM) ")) << summary;
  EXPECT_TRUE(endingSummaryRow(summary, never).starts_with(never + " not started ")) << summary;
}

}  // namespace
}  // namespace lodestone::cli
